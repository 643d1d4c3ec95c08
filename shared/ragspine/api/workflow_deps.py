"""``Annotated`` dependencies of the workflow routers: components, scaffold options and the two API keys."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from ragspine.api.deps import SettingsDep
from ragspine.bootstrap import current_services
from ragspine.workflows.scaffold import ScaffoldOptions
from ragspine.workflows.surfaces import (
    KeyKind,
    StoredWorkflow,
    WorkflowComponents,
    WorkflowNotFoundError,
    WorkflowUnauthenticatedError,
    verify_key,
)


def workflow_components() -> WorkflowComponents:
    """The process-wide workflow components (override with ``app.dependency_overrides`` in tests)."""
    return current_services().workflows


def scaffold_options(settings: SettingsDep) -> ScaffoldOptions:
    """Scaffold options from settings alone: the stateless routes build no store."""
    return ScaffoldOptions(dsl_version=settings.workflow_dsl_version, http_allowlist=settings.workflow_http_hosts)


WorkflowsDep = Annotated[WorkflowComponents, Depends(workflow_components)]
ScaffoldOptionsDep = Annotated[ScaffoldOptions, Depends(scaffold_options)]


# Declared as security schemes so the published contract says which routes need which key;
# auto_error=False leaves the refusal (and its peer-specific body) to the dependencies below.
_APP_KEY = HTTPBearer(scheme_name="DifyAppKey", description="A Dify app key: Authorization: Bearer app-…",
                      auto_error=False)
_N8N_KEY = APIKeyHeader(name="X-N8N-API-KEY", scheme_name="N8nApiKey", description="An n8n API key",
                        auto_error=False)


def dify_app(components: WorkflowsDep,
             credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_APP_KEY)] = None) -> StoredWorkflow:
    """The stored workflow an ``Authorization: Bearer app-…`` key opens.

    Raises:
        WorkflowUnauthenticatedError: no header, not Bearer, or a key that does not verify (401).
        WorkflowNotFoundError: the key's workflow was deleted (404).
    """
    token = credentials.credentials.strip() if credentials else ""
    if not token:
        raise WorkflowUnauthenticatedError("no Bearer app key", missing=True)
    record = verify_key(token, KeyKind.APP, store=components.store, pepper=components.key_pepper)
    workflow = components.store.get(record.workflow_id or "")
    if workflow is None:
        raise WorkflowNotFoundError("the workflow of this app key no longer exists")
    return workflow


def n8n_key(components: WorkflowsDep,
            x_n8n_api_key: Annotated[str | None, Depends(_N8N_KEY)] = None) -> None:
    """Require a valid ``X-N8N-API-KEY``.

    Raises:
        WorkflowUnauthenticatedError: missing (with n8n's message) or not valid (401).
    """
    if not x_n8n_api_key:
        raise WorkflowUnauthenticatedError("no X-N8N-API-KEY header", missing=True)
    verify_key(x_n8n_api_key, KeyKind.N8N, store=components.store, pepper=components.key_pepper)


DifyAppDep = Annotated[StoredWorkflow, Depends(dify_app)]
