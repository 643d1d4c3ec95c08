"""n8n-compatible workflow CRUD under ``/api/v1/workflows``, behind ``X-N8N-API-KEY``.

List pages with ``limit`` (1..250, default 100) and an opaque ``cursor`` into
``{data, nextCursor}``; create requires name, nodes, connections and settings and refuses
``active`` (``request/body/active is read-only``); PUT replaces the whole body and returns a
new ``versionId`` (a ``versionId`` in the body must be current, else 409); activate and
deactivate return the workflow. Errors use n8n's ``{message}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query

from ragspine.api.error_formats import N8nRoute
from ragspine.api.n8n_schema import workflow_body_schema
from ragspine.api.peer_schemas import (
    N8N_BODY_RESPONSES,
    N8N_CONFLICT_RESPONSES,
    N8N_ID_RESPONSES,
    N8N_LIST_OK,
    N8N_RESPONSES,
    n8n_workflow_ok,
)
from ragspine.api.query_int import ASCII_DIGITS
from ragspine.api.workflow_deps import WorkflowsDep, n8n_key
from ragspine.workflows.surfaces import CURSOR_PATTERN

router = APIRouter(prefix="/api/v1/workflows", tags=["n8n"], route_class=N8nRoute,
                   dependencies=[Depends(n8n_key)], responses=N8N_RESPONSES)
# The route validates the body itself (check_body, with n8n's wording); the schema publishes the same rules.
CreateBody = Annotated[Any, Body(json_schema_extra=workflow_body_schema(put=False))]
PutBody = Annotated[Any, Body(json_schema_extra=workflow_body_schema(put=True))]


@router.get("", summary="List workflows", operation_id="n8n_list_workflows", responses=N8N_LIST_OK)
def list_workflows(components: WorkflowsDep, limit: Annotated[int, Query(ge=1, le=250), ASCII_DIGITS] = 100,
                   cursor: Annotated[str | None, Query(description="nextCursor of the previous page",
                                                       pattern=CURSOR_PATTERN)] = None,
                   ) -> dict[str, Any]:
    """One page in id order; ``nextCursor`` is null on the last page."""
    page, next_cursor = components.registry().list_page(limit=limit, cursor=cursor)
    return {"data": [w.to_n8n() for w in page.items], "nextCursor": next_cursor}


@router.post("", summary="Create a workflow (inactive)", operation_id="n8n_create_workflow",
             responses={**N8N_BODY_RESPONSES, **n8n_workflow_ok(links=True)})
def create_workflow(body: CreateBody, components: WorkflowsDep) -> dict[str, Any]:
    """Store a new workflow; read-only fields such as ``active`` are refused."""
    return components.registry().create(body).to_n8n()


@router.get("/{workflow_id}", summary="Get a workflow", operation_id="n8n_get_workflow",
            responses={**N8N_ID_RESPONSES, **n8n_workflow_ok()})
def get_workflow(workflow_id: str, components: WorkflowsDep) -> dict[str, Any]:
    """The workflow, or 404."""
    return components.registry().get(workflow_id).to_n8n()


@router.put("/{workflow_id}", summary="Replace a workflow", operation_id="n8n_update_workflow",
            responses={**N8N_ID_RESPONSES, **N8N_CONFLICT_RESPONSES, **N8N_BODY_RESPONSES,
                       **n8n_workflow_ok()})
def update_workflow(workflow_id: str, body: PutBody, components: WorkflowsDep) -> dict[str, Any]:
    """Replace the content; the answer carries the new ``versionId``."""
    return components.registry().update(workflow_id, body).to_n8n()


@router.delete("/{workflow_id}", summary="Delete a workflow", operation_id="n8n_delete_workflow",
               responses={**N8N_ID_RESPONSES, **n8n_workflow_ok()})
def delete_workflow(workflow_id: str, components: WorkflowsDep) -> dict[str, Any]:
    """Remove the workflow and return it."""
    return components.registry().delete(workflow_id).to_n8n()


@router.post("/{workflow_id}/activate", summary="Activate a workflow (its webhook goes live)",
             operation_id="n8n_activate_workflow",
             responses={**N8N_ID_RESPONSES, **N8N_CONFLICT_RESPONSES, **n8n_workflow_ok()})
def activate_workflow(workflow_id: str, components: WorkflowsDep) -> dict[str, Any]:
    """Activate; 409 when another active workflow holds the same webhook path."""
    return components.registry().set_active(workflow_id, True).to_n8n()


@router.post("/{workflow_id}/deactivate", summary="Deactivate a workflow", operation_id="n8n_deactivate_workflow",
             responses={**N8N_ID_RESPONSES, **n8n_workflow_ok()})
def deactivate_workflow(workflow_id: str, components: WorkflowsDep) -> dict[str, Any]:
    """Deactivate; the webhook stops answering."""
    return components.registry().set_active(workflow_id, False).to_n8n()
