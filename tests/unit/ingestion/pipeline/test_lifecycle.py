"""One operation lifecycle: the in-process runner and the state machine's worker leave the same record."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.ingestion import lifecycle
from ragspine.ingestion.errors import CorruptDocumentError
from ragspine.ingestion.operations import Operation, OperationError, OperationKey, OperationStatus
from ragspine.ingestion.retry import RetryPolicy, error_name
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea
from ragspine.ingestion.step_worker import StepError, handle_step
from ragspine.ingestion.steps import Step, StepContext, StepFunction, StepResult
from tests.fakes.facts import InMemoryFactStore
from tests.support.glossary import default_glossary

Driver = Callable[[StepContext, dict[Step, StepFunction]], Operation]


def _context(folder: Path) -> StepContext:
    store = SqliteOperationStore(folder / "operations.db")
    return StepContext(operations=store, staging=SqliteStagingArea(store), facts=InMemoryFactStore(), index=None,
                       embedder=None, glossary=default_glossary(), max_bytes=1000)


@pytest.fixture
def context(tmp_path: Path) -> Iterator[StepContext]:
    context = _context(tmp_path)
    yield context
    context.operations.close()  # type: ignore[attr-defined]


def _submitted(context: StepContext) -> Operation:
    draft = Operation(id="op-1", doc_id="doc.md", version_id="v1", file_hash="sha256:00", source="doc.md")
    return context.operations.create_or_get(OperationKey("doc.md", "v1"), draft)[0]


def _steps(failing: Step, *errors: Exception) -> dict[Step, StepFunction]:
    """Every step succeeds and stages a row, except ``failing``, which raises ``errors`` in turn first."""
    pending = list(errors)

    def make(step: Step) -> StepFunction:
        def run(operation: Operation, context: StepContext) -> StepResult:
            context.staging.put(operation.id, step.value, b"1")
            if step is failing and pending:
                raise pending.pop(0)
            return StepResult(step, operation.id, warnings=(f"{step.value} note",), facts=3, chunks=2)
        return run

    return {step: make(step) for step in Step}


def _in_process(context: StepContext, steps: dict[Step, StepFunction]) -> Operation:
    operation = _submitted(context)
    return InProcessRunner(RetryPolicy(), steps=steps, sleep=lambda _: None).run(operation.id, context=context)


def _state_machine(context: StepContext, steps: dict[Step, StepFunction]) -> Operation:
    """What the ASL does: each step in turn, retried with ``$$.State.RetryCount`` up to the policy's attempts."""
    policy, operation_id = RetryPolicy(), _submitted(context).id
    failures: list[BaseException] = []
    for step in Step:
        for retry_count in range(policy.max_attempts):
            try:
                outcome = handle_step({"operation_id": operation_id, "step": step.value, "retry_count": retry_count},
                                      context=context, policy=policy, steps=steps)["outcome"]
                break
            except StepError as exc:
                failures.append(exc.__cause__ or exc)
                continue
        else:
            raised = {"Error": error_name(failures[-1], policy), "Cause": "retries exhausted"}
            handle_step({"operation_id": operation_id, "step": "mark_failed", "error": raised},
                        context=context, policy=policy)
            break
        if outcome != "ok":
            break
    found = context.operations.get(operation_id)
    assert found is not None
    return found


def _record(operation: Operation) -> tuple[object, ...]:
    error = operation.error
    return (operation.status, operation.retry_count, operation.step, operation.step_failures, operation.failed_at,
            None if error is None else (error.code, error.retryable), operation.facts_count, operation.chunks_count,
            operation.warnings, operation.finished_at is not None)


@pytest.mark.parametrize(("errors", "status", "retries", "retryable"), [
    ((ProviderUnavailableError("the model endpoint is down"),) * 2, OperationStatus.SUCCEEDED, 2, None),
    ((CorruptDocumentError("not a workbook"),), OperationStatus.FAILED, 0, False),  # permanent: at once
    ((ProviderUnavailableError("the model endpoint is down"),) * 9, OperationStatus.FAILED, 4, True),  # exhausted
])
def test_both_drivers_leave_the_same_record(tmp_path: Path, errors: tuple[Exception, ...], status: OperationStatus,
                                            retries: int, retryable: bool | None) -> None:
    # GIVEN the same operation and the same failures of its parse step, once per driver
    ends = []
    for drive in (_in_process, _state_machine):
        folder = tmp_path / drive.__name__
        folder.mkdir()
        context = _context(folder)
        # WHEN the driver runs it to its end state
        end = drive(context, _steps(Step.PARSE, *errors))
        assert (end.status, end.retry_count, end.error and end.error.retryable) == (status, retries, retryable)
        ends.append(_record(end))
        context.operations.close()  # type: ignore[attr-defined]
    # THEN the operation's record ends the same
    assert ends[0] == ends[1]


def test_a_retried_step_counts_once_and_success_clears_the_staging(context: StepContext) -> None:
    end = _in_process(context, _steps(Step.PARSE, ProviderUnavailableError("down")))
    assert (end.status, end.retry_count, end.step_failures, end.failed_at) == (OperationStatus.SUCCEEDED, 1, 0, None)
    assert end.warnings == tuple(f"{step.value} note" for step in Step)
    assert all(context.staging.get(end.id, step.value) is None for step in Step)


def test_waiting_for_a_retry_says_when_it_failed_and_the_next_start_clears_it(context: StepContext) -> None:
    operation = lifecycle.start_step(context.operations, _submitted(context), Step.FETCH.value)
    assert (operation.status, operation.step) == (OperationStatus.RUNNING, "fetch")
    error = OperationError("INGEST_SOURCE_UNAVAILABLE", "down", True)
    waiting = lifecycle.wait_for_retry(context.operations, operation, failures=2, error=error)
    assert (waiting.step_failures, waiting.error, waiting.retry_count) == (2, error, 0)
    assert waiting.failed_at is not None
    again = lifecycle.start_step(context.operations, waiting, Step.FETCH.value, retried=True)
    assert (again.step_failures, again.failed_at, again.retry_count) == (0, None, 1)
    failed = lifecycle.fail(context.operations, again, error)
    assert (failed.status, failed.error, failed.step_failures) == (OperationStatus.FAILED, error, 0)
