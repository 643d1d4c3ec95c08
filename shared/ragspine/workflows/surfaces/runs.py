"""Running stored workflows: the Dify app API and the webhooks, always behind the execution gate.

The gate is checked before the stored DSL is even compiled, so a closed gate refuses every
run the same way whatever the workflow holds. Webhooks add their ingress controls in a fixed
order: method allowlist (405), payload cap (413), gate (403), active path (404), rate (429),
then the inputs (400). Every check runs before the request may take a run's place
(``RunCapacity``), so a client mistake gets its own answer however busy the server is:
:func:`accept_webhook` and :func:`prepare_run` check, :func:`run_webhook` and :func:`run_plan` run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragspine.errors import PayloadTooLargeError, RagspineError
from ragspine.json_input import loads as strict_loads
from ragspine.workflows.dsl import read_dsl
from ragspine.workflows.errors import WorkflowInputError
from ragspine.workflows.run import ExecutionPlan, compile_plan
from ragspine.workflows.surfaces import run_log
from ragspine.workflows.surfaces.errors import (
    WebhookMethodNotAllowedError,
    WebhookRateLimitedError,
    WorkflowNotFoundError,
    WorkflowNotRunnableError,
)
from ragspine.workflows.surfaces.records import StoredWorkflow
from ragspine.workflows.surfaces.run_records import RunSurface

if TYPE_CHECKING:
    from ragspine.workflows.run import RunResult
    from ragspine.workflows.surfaces.components import WorkflowComponents

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def prepare_run(workflow: StoredWorkflow, *, components: WorkflowComponents) -> ExecutionPlan:
    """Check the gate, then compile the workflow's Dify DSL into a plan.

    Raises:
        WorkflowRunDisabledError: the gate is closed (checked first).
        WorkflowNotRunnableError: the workflow has no Dify mapping.
        WorkflowInvalidError: the mapping does not compile.
    """
    components.gate.check()
    if workflow.dify_dsl is None:
        raise WorkflowNotRunnableError(f"workflow {workflow.id} has no node the executor understands; "
                                       "convert it to the supported subset first")
    return compile_plan(read_dsl(workflow.dify_dsl))


def run_stored(workflow: StoredWorkflow, inputs: Mapping[str, Any], *, components: WorkflowComponents,
               user: str = "", surface: RunSurface = RunSurface.DIFY) -> RunResult:
    """Check and compile a stored workflow (:func:`prepare_run`), then run it (:func:`run_plan`).

    Raises:
        WorkflowRunDisabledError: the gate is closed.
        WorkflowNotRunnableError: the workflow has no Dify mapping.
        WorkflowInputError: ``inputs`` do not match the start node.
        WorkflowNodeUnsupportedError: a node this executor cannot run.
    """
    return run_plan(workflow, prepare_run(workflow, components=components), inputs, components=components,
                    user=user, surface=surface)


def run_plan(workflow: StoredWorkflow, plan: ExecutionPlan, inputs: Mapping[str, Any], *,
             components: WorkflowComponents, user: str = "", surface: RunSurface = RunSurface.DIFY) -> RunResult:
    """Run a stored workflow's prepared plan to completion (Dify's blocking mode, or a webhook), recording the run.

    The run is recorded ``running``, then finished with its result, or failed with the message
    of what it raised.

    Raises:
        WorkflowRunDisabledError: the gate is closed.
        WorkflowInputError: ``inputs`` do not match the start node.
        WorkflowNodeUnsupportedError: a node this executor cannot run.
    """
    run = run_log.record_start(components, workflow, inputs, surface=surface, user=user)
    try:
        result = components.gate.run(plan, inputs, executor=components.executor(), user=user, run_id=run.id)
    except RagspineError as exc:
        run_log.record_failure(components, run, exc.message, inputs_refused=isinstance(exc, WorkflowInputError))
        raise
    except Exception:
        run_log.record_failure(components, run, "internal error")
        raise
    return run_log.as_recorded(result, run_log.record_result(components, run, result))


def check_method(method: str, *, components: WorkflowComponents) -> None:
    """Refuse methods outside the webhook allowlist.

    Raises:
        WebhookMethodNotAllowedError: 405, with the allowed methods.
    """
    allowed = components.webhook.methods
    if method.upper() not in allowed:
        raise WebhookMethodNotAllowedError(f"method {method.upper()} is not allowed on webhooks",
                                           allowed=tuple(sorted(allowed)))


def webhook_inputs(method: str, payload: bytes, query: Mapping[str, str]) -> dict[str, Any]:
    """Run inputs: the query parameters, overlaid by the JSON object body of a body method.

    Raises:
        WorkflowInputError: the body is not a JSON object.
    """
    inputs: dict[str, Any] = dict(query)
    if method.upper() in BODY_METHODS and payload.strip():
        try:
            body = strict_loads(payload)  # bounded nesting, no lone surrogates: a bad body is the caller's 400
        except (ValueError, UnicodeDecodeError) as exc:
            raise WorkflowInputError(f"the webhook body must be a JSON object ({exc})") from exc
        if not isinstance(body, dict):
            raise WorkflowInputError("the webhook body must be a JSON object")
        inputs.update(body)
    return inputs


@dataclass(frozen=True, slots=True)
class WebhookCall:
    """A webhook request that passed every ingress check: the path's workflow, its plan and the run's inputs."""

    path: str
    workflow: StoredWorkflow
    plan: ExecutionPlan
    inputs: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AdmittedWebhook:
    """A webhook request whose path, method and declared size passed, with its rate token taken; body not read."""

    path: str
    method: str
    workflow: StoredWorkflow


def admit_webhook(path: str, method: str, declared_bytes: int | None, *,
                  components: WorkflowComponents) -> AdmittedWebhook:
    """Check what the request line and headers tell, in the ingress order, and take one rate token.

    Runs before the body is read, so a call past its path's bucket costs the server no body.

    Raises:
        WebhookMethodNotAllowedError: 405. PayloadTooLargeError: 413 (``declared_bytes`` over the cap).
        WorkflowRunDisabledError: 403. WorkflowNotFoundError: 404 (no active workflow on this path and method).
        WebhookRateLimitedError: 429 with ``retry_after``.
    """
    check_method(method, components=components)
    limit = components.webhook.max_bytes
    if declared_bytes is not None and declared_bytes > limit:
        raise PayloadTooLargeError(f"the webhook payload has {declared_bytes} bytes; the limit is {limit}")
    components.gate.check()
    key = path.strip("/")
    workflow = components.store.find_active(key)
    if workflow is None or (workflow.webhook_method or "GET") != method.upper():
        raise WorkflowNotFoundError(f'the webhook "{method.upper()} {key}" is not registered '
                                    "(no active workflow listens on this path and method)")
    wait = components.limiter.acquire(key)
    if wait:
        raise WebhookRateLimitedError(f"too many calls to webhook {key!r}; retry in {wait} s", retry_after=wait)
    return AdmittedWebhook(key, method, workflow)


def complete_webhook(admitted: AdmittedWebhook, payload: bytes, query: Mapping[str, str], *,
                     components: WorkflowComponents) -> WebhookCall:
    """Read an admitted request's inputs from its body and query, and prepare its run.

    Raises:
        WorkflowInputError: 400. WorkflowNotRunnableError, WorkflowInvalidError: the stored workflow cannot run.
    """
    inputs = webhook_inputs(admitted.method, payload, query)
    return WebhookCall(admitted.path, admitted.workflow, prepare_run(admitted.workflow, components=components),
                       inputs)


def accept_webhook(path: str, method: str, payload: bytes, query: Mapping[str, str], *,
                   components: WorkflowComponents) -> WebhookCall:
    """Check a webhook request whose body is already read, in the ingress order, and prepare its run.

    Raises:
        What :func:`admit_webhook` raises (the body's length as its declared size), then what
        :func:`complete_webhook` raises.
    """
    admitted = admit_webhook(path, method, len(payload), components=components)
    return complete_webhook(admitted, payload, query, components=components)


def run_webhook(call: WebhookCall, *, components: WorkflowComponents) -> RunResult:
    """Run an accepted webhook request, recorded as a webhook run."""
    return run_plan(call.workflow, call.plan, call.inputs, components=components, user=f"webhook:{call.path}",
                    surface=RunSurface.WEBHOOK)


def trigger_webhook(path: str, method: str, payload: bytes, query: Mapping[str, str], *,
                    components: WorkflowComponents) -> RunResult:
    """Run the active workflow listening on ``path`` with the request as its inputs.

    Raises:
        What :func:`accept_webhook` raises, then what :func:`run_plan` raises.
    """
    return run_webhook(accept_webhook(path, method, payload, query, components=components), components=components)
