"""Recording runs as they happen: a ``running`` record when a run starts, its final state when it ends.

Both run surfaces use these helpers: the blocking Dify run and the webhooks through
:func:`ragspine.workflows.surfaces.runs.run_stored`, the Dify stream through ``dify_stream``.
When the components carry no run store, nothing is recorded and the readers find nothing.
A run is recorded only once the gate is open and its DSL compiled: refused requests are not runs.

Recorded inputs are bounded: a run's inputs are kept whole up to ``RECORDED_INPUT_BYTES`` of
JSON, larger ones as an excerpt; when the start node refuses the inputs (an unauthenticated
webhook caller can send any body), only an excerpt of ``REFUSED_EXCERPT_CHARS`` is kept.

A run never stays ``running`` because its final state could not be written: when storing it
raises (a value the record cannot hold, a storage error), the run is recorded ``failed`` with
:data:`NOT_RECORDED` instead, and :func:`as_recorded` makes the caller's reply say the same.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ragspine.workflows.run import RunStatus
from ragspine.workflows.surfaces.run_records import NodeTrace, RecordedStatus, RunRecord, RunSurface

if TYPE_CHECKING:
    from ragspine.workflows.run import RunResult
    from ragspine.workflows.run.execute import NodeRun
    from ragspine.workflows.surfaces.components import WorkflowComponents
    from ragspine.workflows.surfaces.records import StoredWorkflow

WEBHOOK_OWNER = "webhook"  # the n8n executions API reads these; any valid n8n key may
RECORDED_INPUT_BYTES = 64 * 1024
REFUSED_EXCERPT_CHARS = 1024
EXCERPT_KEY = "_excerpt"
NOT_RECORDED = ("the run ended but its final state could not be stored ({kind}); its outputs were not kept: "
                "run it again, and report it to the operator if it repeats")
NOT_RECORDED_CODE = "WORKFLOW_RUN_NOT_RECORDED"
logger = logging.getLogger(__name__)


def bounded_inputs(inputs: Mapping[str, Any], *, limit: int = RECORDED_INPUT_BYTES,
                   excerpt_chars: int = REFUSED_EXCERPT_CHARS) -> dict[str, Any]:
    """``inputs`` as recorded: whole when their JSON fits ``limit`` bytes, else an excerpt of it and its size."""
    text = json.dumps(dict(inputs), ensure_ascii=False, default=str)
    size = len(text.encode("utf-8"))
    if size <= limit:
        return dict(inputs)
    return {EXCERPT_KEY: {"text": text[:excerpt_chars], "bytes": size, "truncated": True}}


def owner_of(surface: RunSurface, workflow_id: str) -> str:
    """Who may read a run back: the app (its workflow id) for Dify runs, the n8n API for webhook runs."""
    return workflow_id if surface is RunSurface.DIFY else WEBHOOK_OWNER


def node_trace(node: NodeRun) -> NodeTrace:
    """A node run as recorded."""
    return NodeTrace(node_id=node.node_id, node_type=node.node_type, title=node.title, status=node.status.value,
                     outputs=dict(node.outputs), elapsed_time=round(node.elapsed_time, 6), error=node.error)


def record_start(components: WorkflowComponents, workflow: StoredWorkflow, inputs: Mapping[str, Any], *,
          surface: RunSurface, user: str, run_id: str | None = None, task_id: str = "") -> RunRecord:
    """A ``running`` record for a run that starts now (stored when the components have a run store)."""
    run = RunRecord(id=run_id or str(uuid.uuid4()), workflow_id=workflow.id, surface=surface,
                    owner=owner_of(surface, workflow.id), status=RecordedStatus.RUNNING,
                    inputs=bounded_inputs(inputs),
                    created_at=components.clock(), task_id=task_id, user=user)
    return components.runs.start(run) if components.runs is not None else run


def _finish(components: WorkflowComponents, run: RunRecord) -> RunRecord:
    """Store the final state; when that raises, store a bare ``failed`` record saying so (and return it).

    Raises only when the bare record cannot be stored either (the store itself is down).
    """
    if components.runs is None:
        return run
    try:
        components.runs.finish(run)
    except Exception as exc:  # noqa: BLE001 - any failure to store must still end the run
        logger.exception("run's final state could not be stored", extra={"run_id": run.id})
        bare = replace(run, status=RecordedStatus.FAILED, outputs={}, nodes=(),
                       error=NOT_RECORDED.format(kind=type(exc).__name__))
        components.runs.finish(bare)
        return bare
    return run


def as_recorded(result: RunResult, recorded: RunRecord) -> RunResult:
    """``result`` as the caller should see it: failed with the record's error when its final state was not stored."""
    if recorded.status is RecordedStatus.FAILED and recorded.error != result.error:
        return replace(result, status=RunStatus.FAILED, outputs={}, error=recorded.error, error_code=NOT_RECORDED_CODE)
    return result


def record_result(components: WorkflowComponents, run: RunRecord, result: RunResult) -> RunRecord:
    """Record a run's result (succeeded, or failed at a node)."""
    ok = result.status.value == RecordedStatus.SUCCEEDED.value
    return _finish(components, replace(
        run, status=RecordedStatus.SUCCEEDED if ok else RecordedStatus.FAILED,
        outputs=dict(result.outputs) if ok else {}, error=result.error, elapsed_time=round(result.elapsed_time, 6),
        total_steps=result.total_steps, finished_at=components.clock(),
        nodes=tuple(node_trace(n) for n in result.node_runs)))


def _ending(components: WorkflowComponents, run: RunRecord, status: RecordedStatus, error: str,
            nodes: tuple[NodeTrace, ...]) -> RunRecord:
    finished = components.clock()
    return replace(run, status=status, error=error, finished_at=finished, nodes=nodes, total_steps=len(nodes),
                   elapsed_time=round(max((finished - run.created_at).total_seconds(), 0.0), 6))


def record_failure(components: WorkflowComponents, run: RunRecord, error: str,
           nodes: tuple[NodeTrace, ...] = (), *, inputs_refused: bool = False) -> RunRecord:
    """Record a run that raised before it finished (bad inputs, an unsupported node, a crash).

    ``inputs_refused``: the start node refused the inputs; only a short excerpt of them is kept.
    """
    ended = _ending(components, run, RecordedStatus.FAILED, error, nodes)
    if inputs_refused and EXCERPT_KEY not in run.inputs:  # inputs too large were recorded as an excerpt already
        ended = replace(ended, inputs=bounded_inputs(run.inputs, limit=REFUSED_EXCERPT_CHARS))
    return _finish(components, ended)


def record_stop(components: WorkflowComponents, run: RunRecord, reason: str,
            nodes: tuple[NodeTrace, ...] = ()) -> RunRecord:
    """Record a run that was stopped (by its user, or because its client went away)."""
    return _finish(components, _ending(components, run, RecordedStatus.STOPPED, reason, nodes))


def stop_recorded_task(components: WorkflowComponents, *, workflow_id: str, task_id: str, user: str) -> bool:
    """Mark the running Dify run of ``task_id`` stopped, if ``user`` started it; whether one was."""
    if components.runs is None:
        return False
    run = components.runs.find_task(task_id, owner=owner_of(RunSurface.DIFY, workflow_id))
    if run is None or run.status is not RecordedStatus.RUNNING or run.user != user:
        return False
    return components.runs.finish(_ending(components, run, RecordedStatus.STOPPED, "stopped by the user", run.nodes))
