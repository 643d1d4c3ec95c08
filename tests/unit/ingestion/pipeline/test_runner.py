"""The in-process runner: bounded retries with backoff, permanent errors at once, operation status."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.ingestion.errors import CorruptDocumentError
from ragspine.ingestion.operations import Operation, OperationKey, OperationStatus
from ragspine.ingestion.retry import RetryPolicy
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction, StepResult
from ragspine.ingestion.submission import cancel
from tests.fakes.facts import InMemoryFactStore
from tests.support.glossary import default_glossary


class Flaky:
    """A step that raises the given errors in turn, then succeeds; records its calls."""

    def __init__(self, step: Step, *errors: Exception) -> None:
        self.step, self.errors, self.calls = step, list(errors), 0

    def __call__(self, operation: Operation, context: StepContext) -> StepResult:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return StepResult(self.step, operation.id, facts=3, chunks=2)


def _ok(step: Step) -> StepFunction:
    return lambda operation, context: StepResult(step, operation.id, facts=3, chunks=2)


@pytest.fixture
def context(tmp_path: Path) -> Iterator[StepContext]:
    store = SqliteOperationStore(tmp_path / "operations.db")
    yield StepContext(operations=store, staging=SqliteStagingArea(store), facts=InMemoryFactStore(), index=None,
                      embedder=None, glossary=default_glossary(), max_bytes=1000)
    store.close()


@pytest.fixture
def operation(context: StepContext) -> Operation:
    draft = Operation(id="op-1", doc_id="doc.md", version_id="v1", file_hash="sha256:00", source="doc.md")
    return context.operations.create_or_get(OperationKey("doc.md", "v1"), draft)[0]


def _runner(flaky: Flaky, sleeps: list[float]) -> InProcessRunner:
    steps = {step: (flaky if step is flaky.step else _ok(step)) for step in Step}
    return InProcessRunner(RetryPolicy(interval_s=1, backoff_rate=2), steps=steps, sleep=sleeps.append)


class TestRetries:
    def test_a_step_failing_transiently_twice_then_succeeding_ends_succeeded_with_retry_count_2(
            self, context: StepContext, operation: Operation) -> None:
        # GIVEN a parse step that is unavailable twice
        flaky, sleeps = Flaky(Step.PARSE, ProviderUnavailableError("a"), ProviderUnavailableError("b")), list[float]()
        # WHEN the operation runs
        done = _runner(flaky, sleeps).run(operation.id, context=context)
        # THEN it succeeded after two retries with exponential backoff
        assert (done.status, done.retry_count, done.error) == (OperationStatus.SUCCEEDED, 2, None)
        assert (done.facts_count, done.chunks_count) == (3, 2)
        assert flaky.calls == 3 and sleeps == [1, 2]
        assert done.started_at and done.finished_at and done.finished_at >= done.started_at

    def test_a_step_failing_six_times_ends_failed_after_5_attempts(self, context: StepContext,
                                                                   operation: Operation) -> None:
        flaky, sleeps = Flaky(Step.CHECK_INDEX, *(OSError(f"io {n}") for n in range(6))), list[float]()
        done = _runner(flaky, sleeps).run(operation.id, context=context)
        assert done.status is OperationStatus.FAILED
        assert flaky.calls == 5 and done.retry_count == 4 and sleeps == [1, 2, 4, 8]
        assert done.error is not None and done.error.retryable and done.error.code == "INGEST_SOURCE_UNAVAILABLE"

    def test_a_permanent_error_is_not_retried(self, context: StepContext, operation: Operation) -> None:
        flaky, sleeps = Flaky(Step.PARSE, CorruptDocumentError("damaged")), list[float]()
        done = _runner(flaky, sleeps).run(operation.id, context=context)
        assert done.status is OperationStatus.FAILED and flaky.calls == 1 and sleeps == []
        assert done.error is not None
        assert (done.error.code, done.error.retryable) == ("INGEST_CORRUPT_FILE", False)

    def test_an_unexpected_exception_fails_with_an_opaque_internal_error(self, context: StepContext,
                                                                       operation: Operation) -> None:
        done = _runner(Flaky(Step.FETCH, KeyError("bug")), []).run(operation.id, context=context)
        assert done.error is not None and done.error.code == "INGEST_INTERNAL_ERROR" and not done.error.retryable


class TestReplay:
    def test_a_succeeded_operation_is_not_run_again(self, context: StepContext, operation: Operation) -> None:
        flaky = Flaky(Step.FETCH)
        runner = _runner(flaky, [])
        runner.run(operation.id, context=context)
        again = runner.run(operation.id, context=context)
        assert again.status is OperationStatus.SUCCEEDED and flaky.calls == 1

    def test_a_retryable_failure_runs_again_on_replay(self, context: StepContext, operation: Operation) -> None:
        flaky = Flaky(Step.FETCH, *(OSError("io") for _ in range(5)))
        runner = _runner(flaky, [])
        assert runner.run(operation.id, context=context).status is OperationStatus.FAILED
        assert runner.run(operation.id, context=context).status is OperationStatus.SUCCEEDED

    def test_a_cancelled_operation_does_not_run(self, context: StepContext, operation: Operation) -> None:
        cancel(operation.id, operations=context.operations)
        flaky = Flaky(Step.FETCH)
        done = _runner(flaky, []).run(operation.id, context=context)
        assert done.status is OperationStatus.CANCELLED and flaky.calls == 0


def test_every_step_is_registered_by_name() -> None:
    assert [step.value for step in STEPS] == ["fetch", "parse", "extract_facts", "chunk_and_embed", "index",
                                              "activate"]
