"""One ingestion step per call, for a worker driven by the state machine (``infra/statemachine/ingest.asl.json``).

The state machine owns the retries, so each call here moves the operation's record along,
through the transitions of ``ingestion.lifecycle`` that the in-process runner uses too: PENDING →
RUNNING on the first step, ``retry_count`` +1 on every retried attempt (the ASL passes
``$$.State.RetryCount``), the step's warnings appended, SUCCEEDED after ``activate``.

Every call returns an ``outcome`` the ASL's Choice states branch on:

- ``ok``: the step ran; go on to the next one.
- ``failed``: a permanent error (the same bytes fail the same way). The operation is already
  FAILED with its code and ``retryable: false``; nothing is raised, so nothing is retried.
- ``cancelled``: the operation was cancelled; the step did not run and the execution stops.

Transient errors are raised as a class named by ``error_name`` (one of the ``Retry``
``ErrorEquals`` names) after recording the error on the operation. When the retries run out,
the ``Catch`` calls ``mark_failed``, which sets FAILED with the recorded code and ``retryable``.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from ragspine.ingestion import lifecycle
from ragspine.ingestion.operations import Operation, OperationCancelledError, OperationError, OperationStatus
from ragspine.ingestion.retry import RetryPolicy, error_name
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction, run_step

MARK_FAILED = "mark_failed"


class StepError(Exception):
    """Base of what a worker raises for the state machine; the class name is the ASL error name."""


class PermanentStepError(StepError):
    """The worker cannot even load the operation; no ``Retry`` names it, so the ``Catch`` applies."""


class Outcome(enum.StrEnum):
    """What a step call tells the state machine's Choice state."""

    OK = "ok"
    FAILED = "failed"
    CANCELLED = "cancelled"


@cache
def transient_error_class(name: str) -> type[StepError]:
    """An exception class named ``name`` (an ASL ``ErrorEquals`` name), so the ASL retries it."""
    return type(name, (StepError,), {"__module__": __name__})


def handle_step(payload: Mapping[str, Any], *, context: StepContext, policy: RetryPolicy | None = None,
                steps: Mapping[Step, StepFunction] = STEPS) -> dict[str, Any]:
    """Run ``payload["step"]`` for ``payload["operation_id"]`` and update the operation's record.

    Returns:
        The step's result with its ``outcome`` (ok, failed, cancelled).

    Raises:
        StepError: a transient failure (a class the ``Retry`` names), or ``PermanentStepError``
            when the operation does not exist.
    """
    policy = policy or RetryPolicy()
    if payload["step"] == MARK_FAILED:
        return mark_failed(payload, context=context, policy=policy)
    step = Step(payload["step"])
    cancelled = {"operation_id": str(payload["operation_id"]), "step": step.value, "outcome": Outcome.CANCELLED.value}
    try:
        return _handle_step(step, payload, context=context, policy=policy, steps=steps)
    except OperationCancelledError:  # the store refuses every write after a cancel: the execution ends
        return cancelled


def _handle_step(step: Step, payload: Mapping[str, Any], *, context: StepContext, policy: RetryPolicy,
                 steps: Mapping[Step, StepFunction]) -> dict[str, Any]:
    operation = _operation(payload, context)
    if operation.status is OperationStatus.CANCELLED:
        raise OperationCancelledError(f"operation {operation.id} was cancelled")
    operation = lifecycle.start_step(context.operations, operation, step.value,
                                     retried=int(payload.get("retry_count", 0)) > 0)
    try:
        result = run_step(step.value, payload, context=context, steps=steps)
    except OperationCancelledError:
        raise  # a step's own write found the operation cancelled: not a failure of the step
    except Exception as exc:  # every failure is recorded on the operation
        transient = policy.retries(exc)
        error = lifecycle.operation_error(step.value, exc, transient=transient)
        if transient:
            # The ASL's $$.State.RetryCount counts this state's earlier retries: this was attempt RetryCount + 1.
            lifecycle.wait_for_retry(context.operations, operation, error=error,
                                     failures=int(payload.get("retry_count", 0)) + 1)
            raise transient_error_class(error_name(exc, policy))(f"{error.code}: {error.message}") from exc
        lifecycle.fail(context.operations, operation, error)
        return {"operation_id": operation.id, "step": step.value, "outcome": Outcome.FAILED.value,
                "code": error.code, "retryable": False}
    # Re-read: a step may have updated the record (fetch: the hash), or a user cancelled meanwhile.
    operation = context.operations.get(operation.id) or operation
    warnings = (*operation.warnings, *result["warnings"])
    if step is Step.ACTIVATE:
        lifecycle.succeed(context.operations, context.staging, operation, facts=result["facts"],
                          chunks=result["chunks"], warnings=warnings)
    else:
        context.operations.save(replace(operation, error=None, warnings=warnings))
    return {**result, "outcome": Outcome.OK.value}


def mark_failed(payload: Mapping[str, Any], *, context: StepContext, policy: RetryPolicy) -> dict[str, Any]:
    """Set the operation FAILED with the error its last step recorded (or one made from the ASL's error)."""
    operation = _operation(payload, context)
    raised = payload.get("error") or {}
    name = str(raised.get("Error", ""))
    error = operation.error
    if error is None or name not in (*policy.retry_on, PermanentStepError.__name__):
        # Not raised by a step (a Lambda timeout, a runtime crash): the worker recorded nothing for it.
        error = OperationError("INGEST_INTERNAL_ERROR", f"{name or 'unknown error'}: {_cause(raised)}"[:500],
                               retryable=name in policy.retry_on or name == "States.Timeout")
    try:
        saved = lifecycle.fail(context.operations, operation, error)
    except OperationCancelledError:  # cancelled while the step failed: cancelled is its end state
        return {"operation_id": operation.id, "step": MARK_FAILED, "outcome": Outcome.CANCELLED.value}
    return {"operation_id": saved.id, "step": MARK_FAILED, "code": error.code, "retryable": error.retryable}


def _operation(payload: Mapping[str, Any], context: StepContext) -> Operation:
    operation = context.operations.get(str(payload["operation_id"]))
    if operation is None:
        raise PermanentStepError(f"no ingestion operation {payload['operation_id']}")
    return operation


def _cause(raised: Mapping[str, Any]) -> str:
    cause = str(raised.get("Cause", ""))
    try:
        return str(json.loads(cause).get("errorMessage", cause))
    except (ValueError, AttributeError):
        return cause
