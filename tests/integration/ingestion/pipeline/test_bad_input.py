"""Unreadable files end as FAILED operations with a specific code, and write nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ragspine.bootstrap import Services, build_ingest_context, get_services
from ragspine.ingestion.operations import OperationStatus
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.submission import DocumentMeta, submit
from ragspine.settings import Settings, get_settings
from tests.integration.ingestion.pipeline.conftest import Ingest
from tests.support.process_caches import close_services


@pytest.mark.parametrize(("name", "data", "code"), [
    ("deck.pptx", os.urandom(4096), "INGEST_CORRUPT_FILE"),
    ("empty.md", b"", "INGEST_EMPTY"),
    ("tool.exe", b"MZ\x90\x00", "INGEST_UNSUPPORTED_TYPE"),
])
def test_bad_files_fail_with_their_code_and_write_nothing(ingest: Ingest, services: Services, tmp_path: Path,
                                                          name: str, data: bytes, code: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    done = ingest(path)
    assert done.status is OperationStatus.FAILED
    assert done.error is not None and (done.error.code, done.error.retryable) == (code, False)
    assert done.retry_count == 0
    assert services.facts.count() == 0 and services.retrieval.index.count() == 0  # type: ignore[union-attr]


def test_a_missing_file_fails_as_not_found(ingest: Ingest, tmp_path: Path) -> None:
    done = ingest(tmp_path / "gone.md")
    assert done.error is not None and done.error.code == "INGEST_SOURCE_NOT_FOUND"


def test_a_file_over_the_size_limit_fails_as_too_large(settings: Settings, monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setenv("RAGSPINE_INGEST_MAX_BYTES", "100")
    get_settings.cache_clear()
    close_services()
    context = build_ingest_context(get_services())
    path = tmp_path / "big.md"
    path.write_text("# Big\n\n" + "word " * 100, encoding="utf-8")
    operation, _ = submit(path, operations=context.operations, meta=DocumentMeta())
    done = InProcessRunner(sleep=lambda _: None).run(operation.id, context=context)
    assert done.error is not None and done.error.code == "INGEST_TOO_LARGE"
