"""Retries, failures, replays, cancellation and versions: the same assertions for both runners."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.facts.model import Fact
from ragspine.ingestion import steps
from ragspine.ingestion.errors import CorruptDocumentError
from ragspine.ingestion.operations import Operation, OperationStatus, TooLateToCancelError
from ragspine.ingestion.steps import Step, StepContext
from ragspine.ingestion.submission import cancel
from tests.integration.ingestion.runners.conftest import Harness
from tests.support.cfn import REPO_ROOT

WORKBOOK = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Quarterly_Revenue.xlsx"
NAME = "ACME_Quarterly_Revenue.xlsx"


def _failing(times: int, exc: Exception, step: Step, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Make ``step`` raise ``exc`` on its first ``times`` calls, then run normally; count its attempts."""
    real = steps.STEPS[step]
    attempts = {"n": 0}

    def flaky(operation: Operation, context: StepContext) -> Any:
        attempts["n"] += 1
        if attempts["n"] <= times:
            raise exc
        return real(operation, context)

    monkeypatch.setitem(steps.STEPS, step, flaky)
    return attempts


def _facts_of(harness: Harness, doc: str) -> list[Fact]:
    return [f for f in harness.facts.find(metric_code="REVENUE", entity="ACME_JP") if f.source_doc_id == doc]


def test_a_workbook_ends_succeeded_with_its_facts_visible(harness: Harness) -> None:
    operation = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert operation.status is OperationStatus.SUCCEEDED, operation.error
    assert operation.retry_count == 0 and operation.error is None
    assert operation.facts_count > 0 and operation.started_at and operation.finished_at
    assert harness.facts.count() == operation.facts_count
    found = _facts_of(harness, NAME)
    assert found and all(f.source_locator.startswith("sheet=") and f.source_file_hash == operation.file_hash
                         for f in found)
    assert [s for s in Step if harness.calls[s.value]] == list(Step)


def test_two_transient_failures_then_success_end_succeeded_with_retry_count_two(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    attempts = _failing(2, ProviderUnavailableError("parser pool busy"), Step.PARSE, monkeypatch)
    operation = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert operation.status is OperationStatus.SUCCEEDED, operation.error
    assert operation.retry_count == 2 and operation.error is None
    assert attempts["n"] == 3 and harness.facts.count() == operation.facts_count > 0


def test_six_transient_failures_end_failed_after_five_attempts_and_nothing_visible(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    attempts = _failing(6, ProviderUnavailableError("index unreachable"), Step.CHECK_INDEX, monkeypatch)
    operation = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert operation.status is OperationStatus.FAILED
    assert attempts["n"] == 5 and operation.retry_count == 4
    assert operation.error is not None and operation.error.retryable
    assert operation.error.code == "KNOWLEDGE_PROVIDER_UNAVAILABLE"
    assert harness.calls["activate"] == 0 and harness.facts.count() == 0


def test_a_permanent_error_is_not_retried(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    attempts = _failing(9, CorruptDocumentError("truncated file"), Step.PARSE, monkeypatch)
    operation = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert operation.status is OperationStatus.FAILED and operation.retry_count == 0 and attempts["n"] == 1
    assert operation.error is not None and operation.error.code == "INGEST_CORRUPT_FILE"
    assert not operation.error.retryable
    assert harness.calls["extract_facts"] == 0 and harness.facts.count() == 0


def test_a_corrupt_upload_fails_with_its_code(harness: Harness) -> None:
    operation = harness.ingest("broken.xlsx", WORKBOOK.read_bytes()[:1500])
    assert operation.status is OperationStatus.FAILED and operation.retry_count == 0
    assert operation.error is not None and operation.error.code == "INGEST_CORRUPT_FILE"
    assert "broken.xlsx" in operation.error.message or "xlsx" in operation.error.message.lower()


def test_replaying_the_same_upload_creates_no_second_operation(harness: Harness) -> None:
    first = harness.ingest(NAME, WORKBOOK.read_bytes())
    replay = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert replay.id == first.id and replay.status is OperationStatus.SUCCEEDED
    assert len(harness.operations.list_operations()) == 1
    assert harness.calls["fetch"] == 1 and harness.facts.count() == first.facts_count


def test_a_cancelled_operation_stops_before_its_next_step(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    real = steps.STEPS[Step.PARSE]

    def cancelled_meanwhile(operation: Operation, context: StepContext) -> Any:
        result = real(operation, context)
        cancel(operation.id, operations=context.operations)  # a user cancels while parse runs
        return result

    monkeypatch.setitem(steps.STEPS, Step.PARSE, cancelled_meanwhile)
    operation = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert operation.status is OperationStatus.CANCELLED and operation.finished_at
    assert harness.calls["extract_facts"] == 0 and harness.calls["activate"] == 0
    assert harness.facts.count() == 0


def test_a_cancel_during_fetch_is_not_undone_by_the_steps_own_write(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    # fetch records the file's hash on the operation: that write must not revive a cancelled one
    real = steps.STEPS[Step.FETCH]

    def cancelled_meanwhile(operation: Operation, context: StepContext) -> Any:
        cancel(operation.id, operations=context.operations)  # a user cancels while fetch reads the file
        return real(operation, context)

    monkeypatch.setitem(steps.STEPS, Step.FETCH, cancelled_meanwhile)
    operation = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert operation.status is OperationStatus.CANCELLED and operation.finished_at
    assert harness.calls["parse"] == 0 and harness.calls["activate"] == 0
    assert harness.facts.count() == 0


def test_a_cancel_while_the_version_is_activating_is_refused_and_the_version_goes_live(
        harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    real = steps.STEPS[Step.ACTIVATE]
    refusals: list[str] = []

    def cancel_attempted(operation: Operation, context: StepContext) -> Any:
        try:
            cancel(operation.id, operations=context.operations)
        except TooLateToCancelError as exc:
            refusals.append(exc.message)
        return real(operation, context)

    monkeypatch.setitem(steps.STEPS, Step.ACTIVATE, cancel_attempted)
    operation = harness.ingest(NAME, WORKBOOK.read_bytes())
    assert refusals and "activating its new version" in refusals[0]
    assert operation.status is OperationStatus.SUCCEEDED and harness.facts.count() == operation.facts_count > 0


def _edited_workbook(edit: Callable[[Any], None]) -> bytes:
    from openpyxl import load_workbook

    book = load_workbook(WORKBOOK)
    edit(book)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_new_version_replaces_the_old_versions_facts(harness: Harness) -> None:
    first = harness.ingest(NAME, WORKBOOK.read_bytes())
    before = {f.key: f for f in _facts_of(harness, NAME)}
    target = sorted(before.values(), key=lambda f: f.source_locator)[0]
    parts = dict(part.split("=", 1) for part in target.source_locator.split(","))
    sheet, cell = parts["sheet"], parts["cell"]  # the locator goes on with the cell's row and column labels

    def bump(book: Any) -> None:
        book[sheet][cell].value = book[sheet][cell].value + 1

    second = harness.ingest(NAME, _edited_workbook(bump))
    assert second.id != first.id and second.status is OperationStatus.SUCCEEDED, second.error
    after = {f.key: f for f in _facts_of(harness, NAME)}
    assert after.keys() == before.keys() and harness.facts.count() == first.facts_count
    assert after[target.key].value == target.value + 1
    assert after[target.key].source_file_hash == second.file_hash != first.file_hash
