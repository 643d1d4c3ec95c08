"""The Office package guard and the parse budget: refuse while inflating, stop a parse that runs too long or big."""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

import pytest

from ragspine.ingestion.errors import (
    ArchiveExpansionError,
    CorruptDocumentError,
    ParseMemoryExceededError,
    ParseTimeoutError,
)
from ragspine.ingestion.parsers import parse_document
from ragspine.ingestion.parsers.guard import ParseLimits, check_package, within_budget
from tests.support.office_bombs import docx_bomb

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "ragspine" / "samples" / "acme"
MAX = 20 * 1024 * 1024


def test_a_docx_inflating_to_20_mib_of_xml_is_refused_with_its_own_code() -> None:
    bomb = docx_bomb()
    assert len(bomb) < 128 * 1024  # a small upload ...
    with pytest.raises(ArchiveExpansionError) as refused:  # ... refused before any library walks the XML
        parse_document(bomb, doc_id="d", filename="bomb.docx", max_bytes=MAX)
    assert refused.value.code == "INGEST_ARCHIVE_TOO_LARGE" and not refused.value.retryable
    assert "inflates more than 100 times" in refused.value.message


def test_the_total_inflated_size_is_limited_too() -> None:
    with pytest.raises(ArchiveExpansionError, match="inflates to more than"):
        check_package(docx_bomb(3 * 1024 * 1024), filename="b.docx", label="DOCX",
                      limits=ParseLimits(max_unpacked_bytes=1024 * 1024, max_ratio=10_000))


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".docx", ".xlsx", ".pptx")))
def test_real_office_documents_pass_the_guard_and_parse(name: str) -> None:
    data = (SAMPLES / name).read_bytes()
    check_package(data, filename=name, label="OFFICE", limits=ParseLimits())
    assert parse_document(data, doc_id="d", filename=name, max_bytes=MAX).blocks


def test_a_damaged_package_is_corrupt_not_a_bomb() -> None:
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    with pytest.raises(CorruptDocumentError):
        check_package(data[: len(data) // 2], filename="half.docx", label="DOCX", limits=ParseLimits())


def _spin(seconds: float) -> int:
    """Pure Python work for ``seconds`` (what a parser walking a huge XML tree does)."""
    end, count = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        count += 1
    return count


def test_a_parse_past_its_time_budget_fails_with_its_own_code_and_promptly() -> None:
    started = time.monotonic()
    with pytest.raises(ParseTimeoutError) as stopped:
        within_budget(lambda: _spin(30), filename="slow.docx", limits=ParseLimits(timeout_s=0.3))
    assert stopped.value.code == "INGEST_PARSE_TIMEOUT" and "slow.docx" in stopped.value.message
    assert time.monotonic() - started < 20  # stopped long before the work would have ended


def test_a_parse_that_catches_every_exception_is_still_stopped() -> None:
    def stubborn() -> int:
        while True:
            try:
                _spin(0.05)
            except Exception:  # noqa: BLE001, S112 - what a careless parser does
                continue

    with pytest.raises(ParseTimeoutError):
        within_budget(stubborn, filename="slow.xlsx", limits=ParseLimits(timeout_s=0.2))


class _SlowFinalizer:
    """An object whose finalizer outlasts the budget: the stop raised inside it is dropped by the interpreter."""

    def __del__(self) -> None:
        _spin(0.6)


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")  # the dropped stop is not printed
def test_a_budget_stop_that_lands_in_a_finalizer_is_sent_again_and_not_printed() -> None:
    def past_the_budget_in_a_finalizer() -> int:
        _SlowFinalizer()  # freed at once; the budget runs out inside its __del__
        return _spin(10)

    started = time.monotonic()
    with pytest.raises(ParseTimeoutError):
        within_budget(past_the_budget_in_a_finalizer, filename="slow.docx", limits=ParseLimits(timeout_s=0.2))
    assert time.monotonic() - started < 5  # stopped, not run to its end


def test_a_parse_past_its_memory_budget_fails_with_its_own_code() -> None:
    def hungry() -> int:
        held = []
        for _ in range(2000):  # up to ~2 GB, 1 MiB at a time; stopped long before
            held.append(bytearray(1024 * 1024))
            _spin(0.001)
        return len(held)

    with pytest.raises(ParseMemoryExceededError) as stopped:
        within_budget(hungry, filename="big.pptx", limits=ParseLimits(max_memory_bytes=64 * 1024 * 1024))
    assert stopped.value.code == "INGEST_PARSE_MEMORY_EXCEEDED"


def test_a_parse_within_budget_returns_its_result_and_nothing_fires_later() -> None:
    assert within_budget(lambda: 42, filename="a.md", limits=ParseLimits(timeout_s=0.1)) == 42
    time.sleep(0.3)  # the watchdog is gone: no exception lands in this thread afterwards
    assert _spin(0.01) > 0


def test_other_exceptions_a_finalizer_drops_still_reach_the_previous_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    class _Broken:
        def __del__(self) -> None:
            raise RuntimeError("a finalizer's own error")

    seen: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: seen.append(str(unraisable.exc_value)))
    assert within_budget(lambda: 1, filename="a.md", limits=ParseLimits(timeout_s=5)) == 1
    _Broken()
    gc.collect()
    assert seen == ["a finalizer's own error"]
