"""``ragspine ingest`` with an embedder: each file searchable (BM25) once activated, dense vectors in the
background, the stage shown per file, by the summary and by ``ragspine operations show``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragspine import bootstrap
from ragspine.bootstrap import build_ingest_context, get_services
from ragspine.cli import app
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.submission import DocumentMeta, submit
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.settings import Settings
from tests.fakes.hashing_embedder import HashingEmbedder
from tests.support.process_caches import close_services

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


@pytest.fixture
def with_embedder(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The services with a deterministic embedder in place of the model (same wiring otherwise)."""
    hashing = HashingEmbedder(32)
    monkeypatch.setattr(bootstrap, "build_embedders", lambda _settings: (hashing, hashing))
    close_services()
    return settings


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# Zebras\n\nZebras have stripes.\n\nThey live in herds.\n", encoding="utf-8")
    (folder / "b.txt").write_text("Giraffes have long necks.", encoding="utf-8")
    return folder


def _index() -> EmbeddedChunkIndex:
    retrieval = get_services().retrieval
    assert retrieval is not None and isinstance(retrieval.index, EmbeddedChunkIndex)
    return retrieval.index


def test_ingest_makes_files_searchable_first_and_embeds_them_in_the_background(
        with_embedder: Settings, tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(_folder(tmp_path))], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "[1/2] a.md: SUCCEEDED, 1 page, 2 chunks, 0 facts in " in result.output
    assert "; searchable now (BM25), dense vectors follow in the background" in result.output
    assert "dense vectors: 3 passages embedded in " in result.output
    assert _index().vectors_pending() == 0
    hits = json.loads(runner.invoke(app, ["search", "zebra stripes", "--json"]).output)["hits"]
    assert hits[0]["doc"] == "a.md"
    [operation] = [op for op in build_ingest_context(get_services()).operations.list_operations()
                   if op.doc_id == "a.md"]
    shown = runner.invoke(app, ["operations", "show", operation.id, "--json"])
    assert json.loads(shown.output)["stage"] == "searchable (BM25 + dense)"


def test_a_document_whose_vectors_are_pending_says_so_and_is_found_by_bm25(
        with_embedder: Settings, tmp_path: Path) -> None:
    # GIVEN a file ingested with deferred embedding and no backfill run yet
    context = build_ingest_context(get_services())
    assert context.defer_embedding
    operation, _ = submit(_folder(tmp_path) / "a.md", operations=context.operations, meta=DocumentMeta())
    InProcessRunner().run(operation.id, context=context)
    # THEN its stage names the pending vectors, and BM25 already finds it
    shown = runner.invoke(app, ["operations", "show", operation.id])
    assert "searchable (BM25); dense vectors pending for 2 of 2 passages" in shown.output
    assert json.loads(runner.invoke(app, ["search", "zebra", "--json"]).output)["hits"][0]["doc"] == "a.md"
    # AND the next ingest embeds what was left, with the new file
    again = runner.invoke(app, ["ingest", str(tmp_path / "docs")], env=WIDE)
    assert "dense vectors: 3 passages embedded in " in again.output and _index().vectors_pending() == 0


def test_embedding_inline_when_background_is_off(with_embedder: Settings, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGSPINE_EMBED_IN_BACKGROUND", "false")
    bootstrap.get_settings.cache_clear()
    close_services()
    result = runner.invoke(app, ["ingest", str(_folder(tmp_path))], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "background" not in result.output and _index().vectors_pending() == 0


def test_a_failing_embedder_leaves_the_files_searchable_by_bm25(settings: Settings, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.fakes.llm import RecordingEmbedder

    broken = RecordingEmbedder(dimension=32, fail=True)
    monkeypatch.setattr(bootstrap, "build_embedders", lambda _settings: (HashingEmbedder(32), broken))
    close_services()
    result = runner.invoke(app, ["ingest", str(_folder(tmp_path))], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "dense vectors stopped: [KNOWLEDGE_PROVIDER_UNAVAILABLE] the embedding model cannot be loaded; " \
           "3 passages keep BM25 only for now" in result.output
    assert json.loads(runner.invoke(app, ["search", "giraffes", "--json"]).output)["hits"][0]["doc"] == "b.txt"


def test_serve_embeds_what_an_interrupted_ingest_left(with_embedder: Settings, tmp_path: Path) -> None:
    from ragspine.bootstrap import start_pending_backfill

    assert start_pending_backfill(get_services()) is None  # nothing pending: no thread
    context = build_ingest_context(get_services())
    operation, _ = submit(_folder(tmp_path) / "a.md", operations=context.operations, meta=DocumentMeta())
    InProcessRunner().run(operation.id, context=context)
    assert _index().vectors_pending() == 2
    background = start_pending_backfill(get_services())
    assert background is not None
    try:
        assert background.drain(timeout=30) and _index().vectors_pending() == 0
    finally:
        background.stop(timeout=5)
