"""Dify-compatible service API for workflow apps: run, run detail, task stop, ``/parameters`` and ``/info``.

``POST /v1/workflows/run`` records every run; ``GET /v1/workflows/run/{workflow_run_id}``
reads one back (only the app's own runs: another app's id is a 404 like an unknown one), and
``POST /v1/workflows/tasks/{task_id}/stop`` marks the recorded run stopped.

Every route needs ``Authorization: Bearer <app key>``; the key identifies the stored workflow
(``ragspine workflow keys create --app``). Errors use Dify's ``{code, message, status}``
(401 ``unauthorized``, 400 ``invalid_param``, 403 ``app_unavailable`` while the execution gate
RAGSPINE_DIFY_RUN_ENABLED is off). Streaming answers ``text/event-stream`` with Dify's events.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response, StreamingResponse

from ragspine.api.dify_shapes import blocking_body, info_body, parameters_body, run_detail_body
from ragspine.api.dify_stream import stream_run
from ragspine.api.dify_tasks import TASKS
from ragspine.api.error_formats import DifyRoute
from ragspine.api.peer_schemas import (
    DIFY_RESPONSES,
    DIFY_RUN_DETAIL_OK,
    DIFY_RUN_NOT_FOUND,
    DIFY_RUN_OK,
    DIFY_RUN_RESPONSES,
)
from ragspine.api.workflow_deps import DifyAppDep, WorkflowsDep
from ragspine.api.workflow_schemas import DifyRunRequest, DifyStopRequest
from ragspine.workflows.surfaces import dify_run, prepare_run, run_plan, stop_recorded_task

router = APIRouter(prefix="/v1", tags=["dify"], route_class=DifyRoute, responses=DIFY_RESPONSES)


@router.post("/workflows/run", summary="Run the app's workflow (blocking or streaming)",
             responses={**DIFY_RUN_RESPONSES, **DIFY_RUN_OK})
async def run_workflow(body: DifyRunRequest, workflow: DifyAppDep, components: WorkflowsDep) -> Response:
    """Blocking: Dify's ``{task_id, workflow_run_id, data}``. Streaming: SSE ``data: {json}`` events.

    The gate (403) and the workflow's plan (400) are checked first, the key by the dependency
    (401/404); only then is the run admitted (refused at once when the app or the process has
    too many in flight), so a client mistake gets its own answer however busy the server is.
    The run executes on the workflow threads, never on the server's shared worker threads.
    """
    plan = await run_in_threadpool(prepare_run, workflow, components=components)
    ticket = components.capacity.admit(f"app:{workflow.id}")
    if body.response_mode == "streaming":
        events = stream_run(plan, body.inputs, workflow=workflow, components=components, user=body.user,
                            ticket=ticket)
        return StreamingResponse(events, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    started = int(time.time())
    result = await asyncio.wrap_future(ticket.submit(run_plan, workflow, plan, body.inputs, components=components,
                                                     user=body.user))
    return JSONResponse(blocking_body(result, task_id=str(uuid.uuid4()), workflow_id=workflow.id,
                                      created_at=started, finished_at=int(time.time())))


@router.get("/workflows/run/{workflow_run_id}", summary="A recorded run of the app (Dify's run detail)",
            responses={**DIFY_RUN_NOT_FOUND, **DIFY_RUN_DETAIL_OK})
def get_run(workflow_run_id: Annotated[str, Path(description="workflow_run_id of a blocking run or a stream")],
            workflow: DifyAppDep, components: WorkflowsDep) -> dict[str, Any]:
    """``{id, workflow_id, status, inputs, outputs, error, total_steps, total_tokens, created_at, finished_at,
    elapsed_time}``; 404 for an unknown id or another app's run."""
    return run_detail_body(dify_run(components.runs, workflow_run_id, workflow_id=workflow.id))


@router.get("/parameters", summary="The app's input form and features")
def get_parameters(workflow: DifyAppDep) -> dict[str, Any]:
    """``user_input_form`` from the start node's variables, features from the DSL."""
    return parameters_body(workflow)


@router.get("/info", summary="The app's name, description, tags, mode and author")
def get_info(workflow: DifyAppDep) -> dict[str, Any]:
    """Basic information about the app the key opens."""
    return info_body(workflow)


@router.post("/workflows/tasks/{task_id}/stop", summary="Stop a streamed run (Dify's task stop)",
             responses={200: {"description": "Always success, as in Dify (a finished task stays finished)",
                              "content": {"application/json": {"schema": {
                                  "type": "object", "required": ["result"],
                                  "properties": {"result": {"enum": ["success"]}}}}}}})
def stop_task(task_id: str, body: DifyStopRequest, workflow: DifyAppDep, components: WorkflowsDep) -> dict[str, str]:
    """Mark the run of ``task_id`` stopped if ``user`` started it, and end its stream if this process serves it."""
    stop_recorded_task(components, workflow_id=workflow.id, task_id=task_id, user=body.user)
    TASKS.stop(task_id, body.user)
    return {"result": "success"}
