"""Real documents written by others parse to well-formed blocks or to one of our errors, never a crash.

The files are read in place from ``../shared/corpus/docs`` (never copied: licences differ).
The assertions are invariants every parse must keep, not answers tuned to these files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.ingestion.errors import IngestionError
from ragspine.ingestion.model import BlockKind
from ragspine.ingestion.parsers import parse_document, supported_extensions
from tests.support.cfn import REPO_ROOT

CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "docs"
FILES = sorted(p for p in CORPUS.glob("*") if p.suffix.lower() in supported_extensions()) if CORPUS.is_dir() else []

pytestmark = pytest.mark.skipif(not FILES, reason=f"third-party corpus not present at {CORPUS}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_third_party_document_parses_to_located_blocks_or_our_error(path: Path) -> None:
    try:
        parsed = parse_document(path.read_bytes(), doc_id=path.name, filename=path.name, max_bytes=50_000_000)
    except IngestionError as error:
        assert error.code.startswith("INGEST_")
        return
    assert parsed.blocks
    assert parsed.title
    for block in parsed.blocks:
        assert block.locator and block.text.strip()
        if block.kind is BlockKind.TABLE:
            widths = {len(row) for row in block.rows}
            assert len(widths) == 1, "a table is a rectangle"
            if block.cell_refs:
                assert [len(r) for r in block.cell_refs] == [len(r) for r in block.rows]


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix in (".pptx", ".docx", ".xlsx")], ids=lambda p: p.name)
def test_office_documents_of_the_corpus_yield_their_tables(path: Path) -> None:
    parsed = parse_document(path.read_bytes(), doc_id=path.name, filename=path.name, max_bytes=50_000_000)
    assert any(block.kind is BlockKind.TABLE for block in parsed.blocks)
