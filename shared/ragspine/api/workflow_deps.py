"""``Annotated`` dependencies of the workflow routers: components, scaffold options and the two API keys."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header

from ragspine.api.deps import SettingsDep
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
    from ragspine.bootstrap import get_services

    return get_services().workflows


def scaffold_options(settings: SettingsDep) -> ScaffoldOptions:
    """Scaffold options from settings alone: the stateless routes build no store."""
    return ScaffoldOptions(dsl_version=settings.workflow_dsl_version, http_allowlist=settings.workflow_http_hosts)


WorkflowsDep = Annotated[WorkflowComponents, Depends(workflow_components)]
ScaffoldOptionsDep = Annotated[ScaffoldOptions, Depends(scaffold_options)]


def dify_app(components: WorkflowsDep,
             authorization: Annotated[str | None, Header(description="Bearer <app key>")] = None) -> StoredWorkflow:
    """The stored workflow an ``Authorization: Bearer app-…`` key opens.

    Raises:
        WorkflowUnauthenticatedError: no header, not Bearer, or a key that does not verify (401).
        WorkflowNotFoundError: the key's workflow was deleted (404).
    """
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise WorkflowUnauthenticatedError("no Bearer app key", missing=True)
    record = verify_key(token.strip(), KeyKind.APP, store=components.store)
    workflow = components.store.get(record.workflow_id or "")
    if workflow is None:
        raise WorkflowNotFoundError("the workflow of this app key no longer exists")
    return workflow


def n8n_key(components: WorkflowsDep,
            x_n8n_api_key: Annotated[str | None, Header(alias="X-N8N-API-KEY")] = None) -> None:
    """Require a valid ``X-N8N-API-KEY``.

    Raises:
        WorkflowUnauthenticatedError: missing (with n8n's message) or not valid (401).
    """
    if not x_n8n_api_key:
        raise WorkflowUnauthenticatedError("no X-N8N-API-KEY header", missing=True)
    verify_key(x_n8n_api_key, KeyKind.N8N, store=components.store)


DifyAppDep = Annotated[StoredWorkflow, Depends(dify_app)]
