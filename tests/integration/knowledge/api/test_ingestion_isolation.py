"""One document cannot stall ingestion: a zip bomb fails fast with its own code, and a slow space holds no other.

An outside probe's 31 KB .docx inflating to 20 MiB of XML ran 68-138 s on the only ingestion
worker while another space's 80-byte upload waited over a minute behind it.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

import pytest

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.ingestion.operations import Operation
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepResult
from tests.support.big_workbooks import many_rows_xlsx
from tests.support.knowledge_api import Gateway
from tests.support.office_bombs import docx_bomb
from tests.support.parse_children import signal_next_parse_child

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BUDGET_CODES = {"INGEST_PARSE_TIMEOUT", "INGEST_PARSE_MEMORY_EXCEEDED"}


def _upload(gateway: Gateway, space: str, data: bytes, file_name: str, mime: str) -> dict[str, Any]:
    resource = gateway.file_resource(space, data, file_name, mime)
    return gateway.ok("POST", f"/spaces/{space}/documents",  # type: ignore[no-any-return]
                      {"fileResourceId": resource, "documentName": file_name})


@pytest.mark.parametrize("backend", ["embedded", "aws"], indirect=True)
def test_a_docx_bomb_fails_its_operation_with_its_own_code(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    change = _upload(gateway, space, docx_bomb(), "bomb.docx", DOCX)
    gateway.settle()
    operation = gateway.operation(change["operationId"])
    assert operation["status"] == "FAILED", operation
    assert operation["error"]["code"] == "INGEST_ARCHIVE_TOO_LARGE" and operation["retryable"] is False
    assert "inflates more than 100 times" in operation["error"]["message"]


def _wait_for(gateway: Gateway, operation_id: str, status: str, *, within_s: float) -> dict[str, Any]:
    """Poll the operation until it reaches ``status`` (a functional wait, not a speed target)."""
    deadline = time.monotonic() + within_s
    while True:
        operation = gateway.operation(operation_id)
        if operation["status"] == status or time.monotonic() > deadline:
            return operation
        time.sleep(0.05)


def test_a_slow_document_in_one_space_does_not_delay_another_spaces_document(gateway: Gateway) -> None:
    slow_space = gateway.create_space()["knowledgeSpaceId"]
    other_space = gateway.create_space()["knowledgeSpaceId"]
    release = threading.Event()

    def fetch(operation: Operation, context: StepContext) -> StepResult:
        if operation.space is not None and operation.space.space_id == slow_space:
            assert release.wait(timeout=120), "the slow space's runs were never released"
        return STEPS[Step.FETCH](operation, context)

    launcher = get_knowledge_gateway().launcher
    launcher.runner = InProcessRunner(steps={**STEPS, Step.FETCH: fetch})  # type: ignore[attr-defined]
    try:
        slow = [_upload(gateway, slow_space, f"# Slow {i}\n\nA large manual.\n".encode(), f"slow{i}.md",
                        "text/markdown") for i in range(3)]
        small = _upload(gateway, other_space, b"# Small\n\nEighty bytes.\n", "small.md", "text/markdown")
        done = _wait_for(gateway, small["operationId"], "SUCCEEDED", within_s=20)
        assert done["status"] == "SUCCEEDED", done
        assert all(gateway.operation(c["operationId"])["status"] in ("PENDING", "RUNNING") for c in slow)
    finally:
        release.set()
    gateway.settle()
    assert all(gateway.operation(c["operationId"])["status"] == "SUCCEEDED" for c in slow)


@pytest.fixture(params=["process", "thread"])
def short_parse_budget(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """A 50 ms parse budget, parsed in a child process or under the watchdog (set before the Gateway reads it)."""
    monkeypatch.setenv("RAGSPINE_INGEST_PARSE_TIMEOUT_S", "0.05")
    monkeypatch.setenv("RAGSPINE_INGEST_PARSE_ISOLATION", request.param)


def _long_docx(paragraphs: int) -> bytes:
    import io

    import docx

    document = docx.Document()
    for number in range(paragraphs):
        document.add_paragraph(f"Paragraph {number} of a long manual on travel, hotels and expenses.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_parse_past_its_budget_fails_the_operation_with_its_own_code(short_parse_budget: None,
                                                                       gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    change = _upload(gateway, space, _long_docx(20_000), "manual.docx", DOCX)
    gateway.settle()
    operation = gateway.operation(change["operationId"])
    assert operation["status"] == "FAILED", operation
    assert operation["error"]["code"] == "INGEST_PARSE_TIMEOUT" and operation["retryable"] is False
    # the message names the file as its owner uploaded it, not the name it is stored under
    assert "manual.docx took longer than 0.05 s to parse" in operation["error"]["message"]
    small = _upload(gateway, space, b"# Small\n\nStill ingested.\n", "small.md", "text/markdown")
    gateway.settle()
    # The worker is free again: the next upload runs to its end. Under a 50 ms budget a loaded host can
    # time out even this small parse, and then it fails on its own account, never the manual's.
    after = gateway.operation(small["operationId"])
    assert after["status"] == "SUCCEEDED" or (after["status"] == "FAILED" and "small.md" in after["error"]["message"]
                                              and after["error"]["code"] == "INGEST_PARSE_TIMEOUT"), after


def _resident_bytes() -> int:
    import os
    from pathlib import Path

    return int(Path("/proc/self/statm").read_bytes().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture
def small_memory_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 16 MiB parse memory budget, the smallest the setting allows (set before the Gateway reads it)."""
    monkeypatch.setenv("RAGSPINE_INGEST_PARSE_MAX_MEMORY_BYTES", str(16 * 1024 * 1024))


def test_a_parse_past_its_memory_budget_fails_without_growing_the_service(small_memory_budget: None,
                                                                          gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    upload = _long_docx(20_000)
    peak, done = [_resident_bytes()], threading.Event()

    def sample() -> None:
        while not done.wait(0.01):
            peak.append(_resident_bytes())

    sampler = threading.Thread(target=sample, daemon=True)
    started = peak[0]
    sampler.start()
    try:
        change = _upload(gateway, space, upload, "manual.docx", DOCX)
        gateway.settle()
    finally:
        done.set()
        sampler.join()
    operation = gateway.operation(change["operationId"])
    assert operation["status"] == "FAILED", operation
    assert operation["error"]["code"] == "INGEST_PARSE_MEMORY_EXCEEDED" and operation["retryable"] is False
    # The parse ran in its own process under the budget; the service grew by less than the budget.
    assert max(peak) - started < 16 * 1024 * 1024
    small = _upload(gateway, space, b"# Small\n\nStill ingested.\n", "small.md", "text/markdown")
    gateway.settle()
    assert gateway.operation(small["operationId"])["status"] == "SUCCEEDED"


def test_a_crashed_parse_fails_its_operation_and_the_next_upload_is_ingested(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    with signal_next_parse_child() as signals:
        signals.append(signal.SIGSEGV)  # what a format library's crash on a malformed file does
        change = _upload(gateway, space, _long_docx(20_000), "manual.docx", DOCX)
        gateway.settle()
    operation = gateway.operation(change["operationId"])
    assert operation["status"] == "FAILED", operation
    assert operation["error"]["code"] == "INGEST_PARSER_CRASHED" and operation["retryable"] is False
    assert "stopped abnormally" in operation["error"]["message"]
    small = _upload(gateway, space, b"# Small\n\nStill ingested.\n", "small.md", "text/markdown")
    gateway.settle()
    assert gateway.operation(small["operationId"])["status"] == "SUCCEEDED"


@pytest.mark.slow  # the parse runs until its budget stops it (about two minutes at the default budget)
def test_a_workbook_of_a_million_rows_fails_its_parse_on_its_budget_and_ask_still_answers(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    workbook = many_rows_xlsx(1_000_000)  # about 16 MB: under the upload limit and the archive guard's limits
    change = _upload(gateway, space, workbook, "million.xlsx", XLSX)
    asked = gateway.client.post("/v1/ask", json={"question": "What is the hotel limit?"})
    assert asked.status_code == 200, asked.text  # the parse runs in its own process; the service answers
    gateway.settle()
    operation = gateway.operation(change["operationId"])
    assert operation["status"] == "FAILED", operation
    # Which budget stops it first depends on the host; either way a clear code, never a stall or a 500.
    assert operation["error"]["code"] in BUDGET_CODES and operation["retryable"] is False, operation
    assert "to parse: split it into smaller files" in operation["error"]["message"]  # the uploader's fix
    assert gateway.client.post("/v1/ask", json={"question": "What is the hotel limit?"}).status_code == 200
