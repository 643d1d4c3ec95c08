"""The error bodies of the peer-compatible surfaces, as OpenAPI response declarations.

Dify clients read ``{code, message, status}``, n8n clients ``{message}``, webhook callers
n8n's ``{code, message}``; the app-level default (the seed-003 envelope) would promise them
a shape they never receive. Each router passes its table as ``responses=``, which overrides the
app's defaults status by status.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class DifyError(BaseModel):
    """Dify's error body, e.g. ``{"code": "invalid_param", "message": "...", "status": 400}``."""

    code: str = Field(examples=["invalid_param"])
    message: str
    status: int
    retryable: bool | None = Field(default=None, description="true on a run refused for capacity (429, 503)")


class N8nError(BaseModel):
    """n8n's public-API error body, e.g. ``{"message": "request/body/active is read-only"}``."""

    message: str


class WebhookError(BaseModel):
    """n8n's webhook error body: the status repeated as ``code`` and a message."""

    code: int
    message: str
    retryable: bool | None = Field(default=None, description="true on a run refused for capacity (429, 503)")


Responses = dict[int | str, dict[str, Any]]


def _table(model: type[BaseModel], described: dict[int, str]) -> Responses:
    return {status: {"model": model, "description": text} for status, text in described.items()}


_COMMON = {400: "Invalid request", 413: "Body too large", 500: "Internal error (opaque message)",
           503: "A backing service is unavailable; retryable"}

DIFY_RESPONSES = _table(DifyError, {**_COMMON, 400: "Invalid request or inputs (invalid_param, app_unavailable)",
                                    401: "Missing or invalid app key (unauthorized)",
                                    404: "The key's workflow no longer exists (not_found)"})
DIFY_RUN_RESPONSES = _table(DifyError, {
    403: "Execution is disabled on this server (app_unavailable)",
    429: "This app has as many runs in flight as one app may (too_many_requests; Retry-After)",
    503: "The server has as many workflow runs in flight as it admits (too_many_requests; Retry-After), "
         "or a backing service is unavailable"})
N8N_RESPONSES = _table(N8nError, {**_COMMON, 401: "Missing or invalid X-N8N-API-KEY"})
N8N_ID_RESPONSES = _table(N8nError, {404: "No workflow has this id"})
N8N_BODY_RESPONSES = _table(N8nError, {422: "Node names are not unique (connections use them)"})
N8N_CONFLICT_RESPONSES = _table(N8nError, {409: "Another active workflow holds the webhook path, or versionId is "
                                                "not current"})
WEBHOOK_RESPONSES = _table(WebhookError, {
    **_COMMON, 403: "Workflow execution is disabled on this server",
    404: "No active workflow listens on this path and method",
    408: "The body did not arrive in full within RAGSPINE_WORKFLOW_WEBHOOK_BODY_TIMEOUT_S; it was not read further",
    429: "Too many calls to this path, as many runs in flight or bodies being read as one path (or client "
         "address) may have (Retry-After says when to retry)",
    503: "The server has as many workflow runs in flight, or reads as many webhook bodies at once, as it admits "
         "(Retry-After), or a backing service is unavailable",
    500: "The workflow run failed (the node's error) or an internal error"})

_RUN_DATA: dict[str, Any] = {
    "type": "object",
    "required": ["id", "workflow_id", "status", "outputs", "error", "elapsed_time", "total_tokens", "total_steps",
                 "created_at", "finished_at"],
    "properties": {"id": {"type": "string"}, "workflow_id": {"type": "string"},
                   "status": {"enum": ["running", "succeeded", "failed", "stopped"]},
                   "outputs": {"type": "object"}, "error": {"type": ["string", "null"]},
                   "elapsed_time": {"type": "number"}, "total_tokens": {"type": "integer"},
                   "total_steps": {"type": "integer"}, "created_at": {"type": "integer"},
                   "finished_at": {"type": ["integer", "null"]}},
}
DIFY_EVENTS = ("workflow_started", "node_started", "node_finished", "text_chunk", "workflow_finished", "error")
# Before OpenAPI 3.2, the schema of text/event-stream describes one event; its data is one Dify event as JSON.
_SSE_EVENT: dict[str, Any] = {
    "type": "object", "required": ["data"],
    "properties": {"event": {"type": "string"}, "id": {"type": "string"},
                   "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": {
                       "type": "object", "required": ["event", "task_id", "workflow_run_id"],
                       "properties": {"event": {"enum": list(DIFY_EVENTS)}, "task_id": {"type": "string"},
                                      "workflow_run_id": {"type": "string"}}}}},
}
DIFY_RUN_OK: Responses = {200: {
    "description": "Blocking: the finished run. Streaming: Dify's server-sent events, one JSON object each.",
    "content": {"application/json": {"schema": {"type": "object", "required": ["task_id", "workflow_run_id", "data"],
                                                "properties": {"task_id": {"type": "string"},
                                                               "workflow_run_id": {"type": "string"},
                                                               "data": _RUN_DATA}}},
                "text/event-stream": {"schema": _SSE_EVENT}}}}

N8N_WORKFLOW: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "active", "createdAt", "updatedAt", "versionId", "nodes", "connections", "settings"],
    "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "active": {"type": "boolean"},
                   "isArchived": {"type": "boolean"}, "createdAt": {"type": "string"},
                   "updatedAt": {"type": "string"}, "versionId": {"type": "string"},
                   "nodes": {"type": "array"}, "connections": {"type": "object"}, "settings": {"type": "object"},
                   "tags": {"type": "array"}, "triggerCount": {"type": "integer"}},
}
_BY_ID = {"workflow_id": "$response.body#/id"}
# The stateful phase follows these: a created workflow is read, replaced, activated and deleted.
N8N_LINKS = {name: {"operationId": op, "parameters": _BY_ID} for name, op in (
    ("GetWorkflow", "n8n_get_workflow"), ("UpdateWorkflow", "n8n_update_workflow"),
    ("ActivateWorkflow", "n8n_activate_workflow"), ("DeactivateWorkflow", "n8n_deactivate_workflow"),
    ("DeleteWorkflow", "n8n_delete_workflow"))}


def n8n_workflow_ok(*, links: bool = False) -> Responses:
    """The 200 of a route answering one workflow (with links to the by-id routes when ``links``)."""
    ok: dict[str, Any] = {"description": "The workflow", "content": {"application/json": {"schema": N8N_WORKFLOW}}}
    return {200: {**ok, "links": N8N_LINKS} if links else ok}


N8N_LIST_OK: Responses = {200: {"description": "One page and the cursor of the next (null on the last page)",
                                "content": {"application/json": {"schema": {
                                    "type": "object", "required": ["data", "nextCursor"],
                                    "properties": {"data": {"type": "array", "items": N8N_WORKFLOW},
                                                   "nextCursor": {"type": ["string", "null"]}}}}}}}

DIFY_RUN_NOT_FOUND = _table(DifyError, {404: "No run with this id for this app, or the key's workflow no longer "
                                             "exists (not_found)"})
_RUN_DETAIL: dict[str, Any] = {**_RUN_DATA, "required": [*_RUN_DATA["required"], "inputs"],
                               "properties": {**_RUN_DATA["properties"], "inputs": {"type": "object"}}}
DIFY_RUN_DETAIL_OK: Responses = {200: {"description": "The recorded run (running until it finishes)",
                                       "content": {"application/json": {"schema": _RUN_DETAIL}}}}

N8N_EXECUTION: dict[str, Any] = {
    "type": "object",
    "required": ["id", "finished", "mode", "status", "startedAt", "stoppedAt", "workflowId"],
    "properties": {"id": {"type": "integer"}, "finished": {"type": "boolean"}, "mode": {"enum": ["webhook"]},
                   "retryOf": {"type": ["integer", "null"]}, "retrySuccessId": {"type": ["integer", "null"]},
                   "status": {"enum": ["running", "success", "error", "canceled"]},
                   "startedAt": {"type": "string"}, "stoppedAt": {"type": ["string", "null"]},
                   "workflowId": {"type": "string"}, "waitTill": {"type": ["string", "null"]},
                   "customData": {"type": "object"},
                   "data": {"type": "object", "description": "Only with includeData=true: resultData.runData "
                                                             "per node name"}},
}
N8N_EXECUTION_ID_RESPONSES = _table(N8nError, {404: "No execution has this id"})
N8N_EXECUTION_OK: Responses = {200: {"description": "The execution",
                                     "content": {"application/json": {"schema": N8N_EXECUTION}}}}
N8N_EXECUTION_LIST_OK: Responses = {200: {
    "description": "Executions newest first, and the cursor of the next page (null on the last page)",
    "content": {"application/json": {"schema": {
        "type": "object", "required": ["data", "nextCursor"],
        "properties": {"data": {"type": "array", "items": N8N_EXECUTION},
                       "nextCursor": {"type": ["string", "null"]}}}}}}}
