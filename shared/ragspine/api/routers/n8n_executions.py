"""n8n-compatible executions under ``/api/v1/executions``, behind ``X-N8N-API-KEY``: the recorded webhook runs.

``GET`` lists them newest first (filters ``status``, ``workflowId``; ``limit`` 1..250 and the
``cursor``/``nextCursor`` pair), ``GET /{id}`` reads one and ``DELETE /{id}`` removes it and
returns it. ``includeData=true`` adds n8n's ``data.resultData.runData`` (per node: its output).
Only webhook-triggered runs are listed; runs through a Dify app key stay with that app.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query

from ragspine.api.error_formats import N8nRoute
from ragspine.api.n8n_execution_shapes import execution_body
from ragspine.api.peer_schemas import (
    N8N_EXECUTION_ID_RESPONSES,
    N8N_EXECUTION_LIST_OK,
    N8N_EXECUTION_OK,
    N8N_RESPONSES,
)
from ragspine.api.query_int import ASCII_DIGITS
from ragspine.api.workflow_deps import WorkflowsDep, n8n_key
from ragspine.workflows.surfaces import (
    EXECUTION_CURSOR_PATTERN,
    MAX_EXECUTION_ID,
    ExecutionQuery,
    delete_execution,
    execution,
    executions,
)

router = APIRouter(prefix="/api/v1/executions", tags=["n8n"], route_class=N8nRoute,
                   dependencies=[Depends(n8n_key)], responses=N8N_RESPONSES)
IncludeData = Annotated[bool, Query(alias="includeData", description="Add each node's output (data.resultData)")]
ExecutionId = Annotated[int, Path(ge=1, le=MAX_EXECUTION_ID, description="The execution's numeric id"), ASCII_DIGITS]


@router.get("", summary="List executions of webhook-triggered workflows", operation_id="n8n_list_executions",
            responses=N8N_EXECUTION_LIST_OK)
def list_executions(components: WorkflowsDep, include_data: IncludeData = False,
                    status: Annotated[Literal["canceled", "error", "running", "success", "waiting"] | None,
                                      Query()] = None,
                    workflow_id: Annotated[str | None, Query(alias="workflowId")] = None,
                    limit: Annotated[int, Query(ge=1, le=250), ASCII_DIGITS] = 100,
                    cursor: Annotated[str | None, Query(description="nextCursor of the previous page",
                                                        pattern=EXECUTION_CURSOR_PATTERN)] = None) -> dict[str, Any]:
    """One page, newest first; ``nextCursor`` is null on the last page."""
    page, next_cursor = executions(components.runs, ExecutionQuery(limit=limit, cursor=cursor, status=status,
                                                                   workflow_id=workflow_id))
    return {"data": [execution_body(run, include_data=include_data) for run in page.items],
            "nextCursor": next_cursor}


@router.get("/{execution_id}", summary="Get an execution", operation_id="n8n_get_execution",
            responses={**N8N_EXECUTION_ID_RESPONSES, **N8N_EXECUTION_OK})
def get_execution(execution_id: ExecutionId, components: WorkflowsDep,
                  include_data: IncludeData = False) -> dict[str, Any]:
    """The execution, or 404."""
    return execution_body(execution(components.runs, execution_id), include_data=include_data)


@router.delete("/{execution_id}", summary="Delete an execution", operation_id="n8n_delete_execution",
               responses={**N8N_EXECUTION_ID_RESPONSES, **N8N_EXECUTION_OK})
def delete_one(execution_id: ExecutionId, components: WorkflowsDep) -> dict[str, Any]:
    """Remove the execution and return it."""
    return execution_body(delete_execution(components.runs, execution_id), include_data=False)
