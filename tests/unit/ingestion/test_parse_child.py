"""A document parsed in a child process: kernel limits, a killing parent, and a crash that ends only its own parse."""

from __future__ import annotations

import io
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.ingestion import staged
from ragspine.ingestion.errors import (
    ArchiveExpansionError,
    ParseMemoryExceededError,
    ParserCrashedError,
    ParseTimeoutError,
    UnsupportedDocumentTypeError,
)
from ragspine.ingestion.parsers import isolated, parse_document
from ragspine.ingestion.parsers.guard import ParseLimits
from ragspine.ingestion.parsers.isolated import parse_in_child
from tests.support.office_bombs import docx_bomb
from tests.support.parse_children import parse_children, signal_next_parse_child

SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "ragspine" / "samples" / "acme"
MAX = 20 * 1024 * 1024
MiB = 1024 * 1024


@pytest.fixture(scope="module")
def long_docx() -> bytes:
    """20,000 paragraphs: python-docx needs seconds and well over 32 MiB to walk them."""
    import docx

    document = docx.Document()
    for number in range(20_000):
        document.add_paragraph(f"Paragraph {number} of a long manual on travel, hotels and expenses.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _resident_bytes() -> int:
    return int(Path("/proc/self/statm").read_bytes().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir()
                                  if p.suffix in (".docx", ".xlsx", ".pptx", ".pdf", ".md", ".html")))
def test_a_child_parse_stages_exactly_what_an_in_process_parse_does(name: str) -> None:
    data = (SAMPLES / name).read_bytes()
    here = parse_document(data, doc_id="d", filename=name, max_bytes=MAX)
    child = parse_in_child(data, doc_id="d", filename=name, max_bytes=MAX, limits=ParseLimits())
    assert child.document == staged.dump_document(here) and child.pages == here.pages


def test_a_refusal_in_the_child_arrives_as_the_same_error() -> None:
    with pytest.raises(ArchiveExpansionError) as refused:
        parse_in_child(docx_bomb(), doc_id="d", filename="bomb.docx", max_bytes=MAX, limits=ParseLimits())
    assert refused.value.code == "INGEST_ARCHIVE_TOO_LARGE" and "inflates more than 100 times" in refused.value.message
    with pytest.raises(UnsupportedDocumentTypeError):
        parse_in_child(b"MZ", doc_id="d", filename="tool.exe", max_bytes=MAX, limits=ParseLimits())


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads the process's size from /proc")
def test_a_parse_past_its_memory_budget_is_refused_without_growing_this_process(long_docx: bytes) -> None:
    peak = [_resident_bytes()]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            peak.append(_resident_bytes())

    sampler = threading.Thread(target=sample, daemon=True)
    started = peak[0]
    sampler.start()
    try:
        with pytest.raises(ParseMemoryExceededError) as refused:
            parse_in_child(long_docx, doc_id="d", filename="manual.docx", max_bytes=MAX,
                           limits=ParseLimits(max_memory_bytes=8 * MiB))
    finally:
        done.set()
        sampler.join()
    assert refused.value.code == "INGEST_PARSE_MEMORY_EXCEEDED" and not refused.value.retryable
    assert "manual.docx needed more than 8,388,608 bytes" in refused.value.message
    # The parse ran elsewhere: this process held the upload and the answer, nothing of the parse.
    assert max(peak) - started < 16 * MiB


def test_a_parse_past_its_time_budget_is_killed_with_its_own_code(long_docx: bytes) -> None:
    started = time.monotonic()
    with pytest.raises(ParseTimeoutError) as stopped:
        parse_in_child(long_docx, doc_id="d", filename="manual.docx", max_bytes=MAX,
                       limits=ParseLimits(timeout_s=0.05))
    assert stopped.value.code == "INGEST_PARSE_TIMEOUT" and "took longer than 0.05 s" in stopped.value.message
    assert time.monotonic() - started < 20
    assert not parse_children()  # gone, not left running


@pytest.fixture
def kill_the_parse_child() -> Iterator[list[signal.Signals]]:
    with signal_next_parse_child() as signals:
        yield signals


@pytest.mark.parametrize(("sent", "code", "words"), [
    (signal.SIGSEGV, "INGEST_PARSER_CRASHED", "stopped abnormally"),
    (signal.SIGABRT, "INGEST_PARSER_CRASHED", "stopped abnormally"),
    (signal.SIGKILL, "INGEST_PARSE_MEMORY_EXCEEDED", "needed more than"),  # what the OOM killer sends
])
def test_a_crashed_child_fails_only_its_parse_and_the_next_one_succeeds(
        long_docx: bytes, kill_the_parse_child: list[signal.Signals], sent: signal.Signals, code: str,
        words: str) -> None:
    kill_the_parse_child.append(sent)
    with pytest.raises((ParserCrashedError, ParseMemoryExceededError)) as failed:
        parse_in_child(long_docx, doc_id="d", filename="manual.docx", max_bytes=MAX, limits=ParseLimits())
    assert failed.value.code == code and words in failed.value.message and not failed.value.retryable
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    assert parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=ParseLimits()).pages == 1


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the child reads its size from /proc")
def test_a_document_larger_than_the_last_parse_left_room_for_is_answered_not_crashed() -> None:
    small = ParseLimits(max_memory_bytes=32 * MiB)
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    assert parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=small).pages == 1
    # The idle child read the next upload under the limit of the parse it had finished: it ran out of memory
    # before it could say so. Its bytes are not the parse's memory: the upload is read, then refused for its type.
    with pytest.raises(UnsupportedDocumentTypeError):
        parse_in_child(b"MZ" + bytes(96 * MiB), doc_id="d", filename="tool.exe", max_bytes=128 * MiB, limits=small)


@pytest.mark.parametrize(("isolation", "in_lambda", "out_of_process"), [
    ("auto", False, True), ("auto", True, False), ("process", True, True), ("thread", False, False),
])
def test_documents_are_parsed_in_a_child_except_in_lambda(monkeypatch: pytest.MonkeyPatch, isolation: str,
                                                          in_lambda: bool, out_of_process: bool) -> None:
    from ragspine.bootstrap import parse_limits
    from ragspine.settings import load_settings

    monkeypatch.setenv("RAGSPINE_INGEST_PARSE_ISOLATION", isolation)
    if in_lambda:
        monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "ragspine-ingest-worker")
    else:
        monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    assert parse_limits(load_settings()).out_of_process is out_of_process


def _idle_children() -> set[int | None]:
    return {c.pid for c in parse_children("ragspine-parse-idle")}


def test_a_child_serves_the_next_document_unless_its_parse_failed(long_docx: bytes) -> None:
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=ParseLimits())
    idle = _idle_children()
    assert idle  # kept for the next document
    with pytest.raises(UnsupportedDocumentTypeError):  # a refusal of the file keeps it too
        parse_in_child(b"MZ", doc_id="d", filename="tool.exe", max_bytes=MAX, limits=ParseLimits())
    assert _idle_children() == idle
    with pytest.raises(ParseTimeoutError):  # a child stopped mid-parse is never reused
        parse_in_child(long_docx, doc_id="d", filename="manual.docx", max_bytes=MAX,
                       limits=ParseLimits(timeout_s=0.05))
    after = _idle_children()
    assert after < idle and len(after) == len(idle) - 1  # the child that ran it is gone


def _io_class(pid: int) -> int | None:
    """The I/O scheduling class of a process (3: idle), from ioprio_get(2); None where it has no known number."""
    import ctypes
    import platform

    number = {"x86_64": 252, "aarch64": 31}.get(platform.machine())
    if number is None:
        return None
    value = ctypes.CDLL(None, use_errno=True).syscall(number, 1, pid)
    return None if value < 0 else value >> 13


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_a_parse_child_runs_at_the_lowest_priority_unless_asked_otherwise() -> None:
    data = (SAMPLES / "ACME_FY2024_MDA.docx").read_bytes()
    parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=ParseLimits())
    pid = isolated._idle[-1].process.pid  # the child that parsed it, kept for the next document
    assert pid is not None
    assert os.sched_getscheduler(pid) == os.SCHED_IDLE
    assert _io_class(pid) in (3, None)  # idle, where the architecture's call number is known
    assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the service's own threads keep theirs
    # A parse asked at normal priority gets a child at it (one at the lowest retires instead).
    before = _idle_children()
    parse_in_child(data, doc_id="d", filename="mda.docx", max_bytes=MAX, limits=ParseLimits(background=False))
    fresh = [c for c in parse_children("ragspine-parse-idle") if c.pid not in before]
    assert len(fresh) == 1 and fresh[0].pid is not None
    assert os.sched_getscheduler(fresh[0].pid) == os.SCHED_OTHER



def test_a_killed_child_is_told_as_killed_while_other_threads_look_at_the_children() -> None:
    # Starting a child, or listing the children, polls every child this process started. Without the
    # service's lock a poll racing the join of a child just killed read its exit status as 255 (an
    # out-of-memory kill was told as a parser crash), or read a closed status pipe whose number the next
    # child's had taken (that start then waited forever for its pid).
    stop = threading.Event()
    looks = [0]
    exits: list[int | None] = []

    def look() -> None:
        while not stop.is_set():
            parse_children()
            looks[0] += 1

    def start_and_kill() -> None:
        for _ in range(100):
            child = isolated._take_child(fresh=True)
            assert child.process.pid is not None
            os.kill(child.process.pid, signal.SIGKILL)
            exits.append(isolated._end(child))

    watchers = [threading.Thread(target=look, daemon=True) for _ in range(2)]
    for watcher in watchers:
        watcher.start()
    worker = threading.Thread(target=start_and_kill, daemon=True)
    worker.start()
    worker.join(600)  # bounds a hang only
    stop.set()
    for watcher in watchers:
        watcher.join()
    assert not worker.is_alive(), "a child's start waited forever"
    assert looks[0] > 0
    assert exits == [-signal.SIGKILL] * 100
