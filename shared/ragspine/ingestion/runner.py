"""``InProcessRunner``: runs the ingestion steps in this process with the state machine's retry policy."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping

from ragspine.errors import NotFoundError
from ragspine.freed_memory import freed_memory_given_back
from ragspine.ingestion import lifecycle
from ragspine.ingestion.full_collections import full_collections_held
from ragspine.ingestion.operations import Operation, OperationCancelledError, OperationError, OperationStatus
from ragspine.ingestion.retry import RetryPolicy
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction, StepResult
from ragspine.ingestion.switch_interval import short_switch_interval

logger = logging.getLogger(__name__)

StepListener = Callable[[Operation, StepResult], None]


class _StepFailed(Exception):
    def __init__(self, operation: Operation, error: OperationError) -> None:
        super().__init__(error.message)
        self.operation = operation
        self.error = error


class InProcessRunner:
    """Runs fetch → … → activate for one operation, retrying transient errors with backoff.

    Attempts per step are bounded by ``policy.max_attempts``; each retry increments the
    operation's ``retry_count``. Permanent errors fail the operation at once with their code.
    """

    def __init__(self, policy: RetryPolicy | None = None, *, steps: Mapping[Step, StepFunction] = STEPS,
                 sleep: Callable[[float], None] = time.sleep, on_step: StepListener | None = None) -> None:
        """Args:
            on_step: called after each step that succeeded (progress display); it must not raise.
        """
        self._policy = policy or RetryPolicy()
        self._steps = steps
        self._sleep = sleep
        self._on_step = on_step

    def run(self, operation_id: str, *, context: StepContext) -> Operation:
        """Run every step of one operation and return it in its end state.

        A SUCCEEDED or CANCELLED operation, or one FAILED permanently, is returned as it is
        (replaying an upload does no work twice); PENDING, RUNNING (an interrupted run) and
        retryable FAILED operations run again from the first step, which is safe because every
        step is idempotent.
        """
        operations = context.operations
        operation = operations.get(operation_id)
        if operation is None:
            raise NotFoundError(f"no ingestion operation {operation_id}")
        if operation.status in (OperationStatus.SUCCEEDED, OperationStatus.CANCELLED) or (
                operation.status is OperationStatus.FAILED and operation.error and not operation.error.retryable):
            return operation
        try:
            return self._run(operation, context)
        except OperationCancelledError:  # a user cancelled: every later write is refused, so stop here
            return operations.get(operation_id) or operation

    def _run(self, operation: Operation, context: StepContext) -> Operation:
        operations = context.operations
        operation = lifecycle.restart(operations, operation)
        warnings: list[str] = []
        final: StepResult | None = None
        try:
            for step in Step:
                # Re-read before each step: a user may have cancelled, fetch records the hash.
                operation = operations.get(operation.id) or operation
                if operation.status is OperationStatus.CANCELLED:
                    return operation
                operation = lifecycle.start_step(operations, operation, step.value)
                final, operation = self._attempt(step, operation, context)
                warnings += final.warnings
                if self._on_step is not None:
                    self._on_step(operation, final)
        except _StepFailed as failed:
            return lifecycle.fail(operations, failed.operation, failed.error, warnings=warnings)
        assert final is not None
        return lifecycle.succeed(operations, context.staging, operation, facts=final.facts, chunks=final.chunks,
                                 warnings=warnings)

    def _attempt(self, step: Step, operation: Operation, context: StepContext) -> tuple[StepResult, Operation]:
        """One step with bounded retries; raises ``_StepFailed`` carrying the latest operation."""
        attempt = 1
        while True:
            try:
                # The routes' threads share this process: no full collection, shorter lock turns; and
                # what a large document's step freed goes back to the system, not kept by malloc.
                with freed_memory_given_back(), full_collections_held(), short_switch_interval():
                    return self._steps[step](operation, context), operation
            except OperationCancelledError:
                raise  # a step's own write found the operation cancelled: not a failure of the step
            except Exception as exc:  # every failure becomes the operation's error; none escapes
                transient = self._policy.retries(exc)
                if not transient or attempt >= self._policy.max_attempts:
                    error = lifecycle.operation_error(step.value, exc, transient=transient)
                    raise _StepFailed(operation, error) from exc
                operation = lifecycle.wait_for_retry(context.operations, operation, failures=attempt, retried=True)
                logger.info("retrying ingestion step", extra={"operation_id": operation.id, "step": step.value,
                                                              "attempt": attempt, "error_type": type(exc).__name__})
                self._sleep(self._policy.delay(attempt))
                attempt += 1
                # Re-read first: a cancel during the backoff must stay.
                current = context.operations.get(operation.id) or operation
                if current.status is OperationStatus.CANCELLED:
                    raise OperationCancelledError(f"operation {operation.id} was cancelled") from None
                operation = lifecycle.start_step(context.operations, current, step.value)
