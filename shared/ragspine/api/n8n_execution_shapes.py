"""n8n's public-API execution shape for a recorded webhook run (``GET /api/v1/executions[/{id}]``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ragspine.workflows.surfaces import RecordedStatus, RunRecord, iso_utc

N8N_STATUS = {RecordedStatus.RUNNING: "running", RecordedStatus.SUCCEEDED: "success",
              RecordedStatus.FAILED: "error", RecordedStatus.STOPPED: "canceled"}


def _run_data(run: RunRecord) -> dict[str, Any]:
    """``data.resultData``: per node (by title, as n8n keys runData by node name) what it output.

    The trigger (our start node) outputs the run's inputs, as n8n's webhook node outputs the request.
    """
    started = run.created_at
    run_data: dict[str, list[dict[str, Any]]] = {}
    for node in run.nodes:
        output = run.inputs if node.node_type == "start" else node.outputs
        entry: dict[str, Any] = {"startTime": int(started.timestamp() * 1000),
                                 "executionTime": int(node.elapsed_time * 1000),
                                 "executionStatus": "success" if node.status == "succeeded" else "error",
                                 "source": [], "data": {"main": [[{"json": output}]]}}
        if node.error:
            entry["error"] = {"message": node.error}
        run_data.setdefault(node.title, []).append(entry)
        started += timedelta(seconds=node.elapsed_time)
    result: dict[str, Any] = {"runData": run_data, "lastNodeExecuted": run.nodes[-1].title if run.nodes else None}
    if run.error and run.status is not RecordedStatus.SUCCEEDED:
        result["error"] = {"message": run.error}
    return {"resultData": result, "startData": {}, "executionData": None}


def execution_body(run: RunRecord, *, include_data: bool) -> dict[str, Any]:
    """One execution; ``data`` (the run's inputs and each node's output) only when ``include_data``."""
    body: dict[str, Any] = {
        "id": run.seq, "finished": run.status is RecordedStatus.SUCCEEDED, "mode": "webhook", "retryOf": None,
        "retrySuccessId": None, "status": N8N_STATUS[run.status], "startedAt": iso_utc(run.created_at),
        "stoppedAt": iso_utc(run.finished_at) if run.finished_at else None, "workflowId": run.workflow_id,
        "waitTill": None, "customData": {}}
    if include_data:
        body["data"] = _run_data(run)
    return body
