"""The stored-workflow surfaces (Dify app API, n8n API, webhooks): registry, keys, records, stores, rate limits."""

from __future__ import annotations

from ragspine.workflows.surfaces.components import WebhookPolicy, WorkflowComponents
from ragspine.workflows.surfaces.errors import (
    WebhookMethodNotAllowedError,
    WebhookRateLimitedError,
    WorkflowConflictError,
    WorkflowNotFoundError,
    WorkflowNotRunnableError,
    WorkflowUnauthenticatedError,
)
from ragspine.workflows.surfaces.key_admin import create_app_key, create_n8n_key
from ragspine.workflows.surfaces.keys import verify_key
from ragspine.workflows.surfaces.ports import WorkflowStore
from ragspine.workflows.surfaces.rate_limit import TokenBucketLimiter
from ragspine.workflows.surfaces.records import ApiKeyRecord, KeyKind, StoredWorkflow, WorkflowPage
from ragspine.workflows.surfaces.runs import check_method, prepare_run, run_stored, trigger_webhook
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore

__all__ = [
    "ApiKeyRecord", "KeyKind", "SqliteWorkflowStore", "StoredWorkflow", "TokenBucketLimiter",
    "WebhookMethodNotAllowedError", "WebhookPolicy", "WebhookRateLimitedError", "WorkflowComponents",
    "WorkflowConflictError", "WorkflowNotFoundError", "WorkflowNotRunnableError", "WorkflowPage", "WorkflowStore",
    "WorkflowUnauthenticatedError", "check_method", "create_app_key", "create_n8n_key", "prepare_run", "run_stored",
    "trigger_webhook", "verify_key",
]
