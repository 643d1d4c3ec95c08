"""The stored-workflow surfaces (Dify app API, n8n API, webhooks): registry, keys, stores, runs, rate limits."""

from __future__ import annotations

from ragspine.workflows.surfaces.body_slots import BodySlots, SlotReader
from ragspine.workflows.surfaces.components import WebhookPolicy, WorkflowComponents
from ragspine.workflows.surfaces.errors import (
    WebhookMethodNotAllowedError,
    WebhookRateLimitedError,
    WorkflowConflictError,
    WorkflowNotFoundError,
    WorkflowNotRunnableError,
    WorkflowRequestUnprocessableError,
    WorkflowRunNotFoundError,
    WorkflowUnauthenticatedError,
)
from ragspine.workflows.surfaces.key_admin import create_app_key, create_n8n_key
from ragspine.workflows.surfaces.keys import verify_key
from ragspine.workflows.surfaces.n8n_body import EXTRAS, NAME_MAX, NODE_KEYS, REQUIRED
from ragspine.workflows.surfaces.parse_budget import ParseBudget, SenderGone
from ragspine.workflows.surfaces.ports import RunStore, WorkflowStore
from ragspine.workflows.surfaces.rate_limit import TokenBucketLimiter
from ragspine.workflows.surfaces.records import ApiKeyRecord, KeyKind, StoredWorkflow, WorkflowPage, iso_utc
from ragspine.workflows.surfaces.registry import CURSOR_PATTERN
from ragspine.workflows.surfaces.run_history import (
    EXECUTION_CURSOR_PATTERN,
    MAX_EXECUTION_ID,
    ExecutionQuery,
    delete_execution,
    dify_run,
    execution,
    executions,
)
from ragspine.workflows.surfaces.run_log import (
    as_recorded,
    node_trace,
    record_failure,
    record_result,
    record_start,
    record_stop,
    stop_recorded_task,
)
from ragspine.workflows.surfaces.run_records import (
    NodeTrace,
    RecordedStatus,
    RunPage,
    RunRecord,
    RunRetention,
    RunSurface,
)
from ragspine.workflows.surfaces.runs import (
    BODY_METHODS,
    AdmittedWebhook,
    WebhookCall,
    accept_webhook,
    admit_webhook,
    check_method,
    complete_webhook,
    prepare_run,
    run_plan,
    run_stored,
    run_webhook,
    trigger_webhook,
)
from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore

__all__ = [
    "BODY_METHODS", "CURSOR_PATTERN", "EXECUTION_CURSOR_PATTERN", "EXTRAS", "MAX_EXECUTION_ID", "NAME_MAX", "NODE_KEYS",
    "REQUIRED", "ExecutionQuery", "NodeTrace", "RunPage", "WorkflowRunNotFoundError", "delete_execution",
    "as_recorded", "dify_run", "execution", "executions", "iso_utc", "node_trace", "record_failure", "record_result",
    "record_start", "record_stop", "stop_recorded_task",
    "ApiKeyRecord", "KeyKind", "RecordedStatus", "RunRecord", "RunRetention", "RunStore", "RunSurface",
    "SqliteRunStore", "SqliteWorkflowStore", "StoredWorkflow", "TokenBucketLimiter",
    "WebhookMethodNotAllowedError", "WebhookPolicy", "WebhookRateLimitedError", "WorkflowComponents",
    "WorkflowConflictError", "WorkflowNotFoundError", "WorkflowNotRunnableError", "WorkflowPage",
    "WorkflowRequestUnprocessableError", "WorkflowStore",
    "WorkflowUnauthenticatedError", "check_method", "create_app_key", "create_n8n_key", "prepare_run", "run_stored",
    "trigger_webhook", "verify_key", "WebhookCall", "accept_webhook", "run_plan", "run_webhook",
    "AdmittedWebhook", "BodySlots", "SlotReader", "ParseBudget", "SenderGone", "admit_webhook", "complete_webhook",
]
