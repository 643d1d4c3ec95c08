"""The handout's third-party documents through ``ragspine ingest``: every one searchable, no fact guessed.

None of their metrics or periods is in the demo domain's glossary, so the truth is zero facts
with a warning saying why; their text is searchable. The table is in docs/evaluation.md
("Ingestion"): ``python -m tests.eval.corpus_documents --record``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.ingestion.operations import OperationStatus
from tests.eval.corpus_documents import DOCS, corpus_files, ingest_each, table

pytestmark = pytest.mark.skipif(not DOCS.is_dir(), reason="the handout's corpus (../shared/corpus/docs) is absent")


def test_every_document_is_ingested_searchable_and_no_fact_is_guessed(tmp_path: Path) -> None:
    files = corpus_files()
    done = ingest_each(files, tmp_path)
    assert [item.path for item in done] == files
    for item in done:
        assert item.operation is not None and item.operation.status is OperationStatus.SUCCEEDED, item.path.name
        assert item.operation.chunks_count > 0, item.path.name
        assert item.operation.facts_count == 0 and item.operation.warnings, item.path.name
    rows = table(done)[2:]
    assert len(rows) == len(files) and all("| SUCCEEDED | 0 |" in row for row in rows)
