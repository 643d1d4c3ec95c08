"""Reading recorded runs back: Dify's run detail for one app, n8n's executions for the webhooks.

Every read is scoped: a Dify key reads only the runs of the app it opens, the n8n API only
webhook runs. An id recorded for someone else is answered exactly like an unknown id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ragspine.workflows.surfaces.errors import WorkflowRequestError, WorkflowRunNotFoundError
from ragspine.workflows.surfaces.ports import RunStore
from ragspine.workflows.surfaces.registry import DEFAULT_LIMIT, MAX_LIMIT
from ragspine.workflows.surfaces.run_log import WEBHOOK_OWNER
from ragspine.workflows.surfaces.run_records import RecordedStatus, RunPage, RunRecord

EXECUTION_CURSOR_PATTERN = r"^[0-9]{1,15}$"  # the seq to continue below; n8n execution ids are numbers (our ``seq``)
MAX_EXECUTION_ID = 2**53 - 1  # what a JSON number holds exactly
# n8n's status filter, and the recorded states each one means (n8n has no "stopped": it says "canceled").
N8N_STATUSES: dict[str, tuple[RecordedStatus, ...]] = {
    "success": (RecordedStatus.SUCCEEDED,), "error": (RecordedStatus.FAILED,),
    "running": (RecordedStatus.RUNNING,), "canceled": (RecordedStatus.STOPPED,), "waiting": ()}


def _found(record: RunRecord | None, message: str) -> RunRecord:
    """The record, or a 404 saying what was not found (someone else's run reads as unknown)."""
    if record is None:
        raise WorkflowRunNotFoundError(message)
    return record


def dify_run(runs: RunStore | None, run_id: str, *, workflow_id: str) -> RunRecord:
    """The run ``run_id`` of the app whose workflow is ``workflow_id``.

    Raises:
        WorkflowRunNotFoundError: no such run for this app (404).
    """
    found = runs.get(run_id, owner=workflow_id) if runs is not None else None
    return _found(found, f"workflow run {run_id} not found for this app")


def execution(runs: RunStore | None, execution_id: int) -> RunRecord:
    """The webhook run numbered ``execution_id``.

    Raises:
        WorkflowRunNotFoundError: no such webhook run (404).
    """
    found = runs.get_seq(execution_id, owner=WEBHOOK_OWNER) if runs is not None else None
    return _found(found, f"execution {execution_id} not found")


def delete_execution(runs: RunStore | None, execution_id: int) -> RunRecord:
    """Remove the webhook run numbered ``execution_id`` and return it.

    Raises:
        WorkflowRunNotFoundError: no such webhook run (404).
    """
    removed = runs.delete(execution_id, owner=WEBHOOK_OWNER) if runs is not None else None
    return _found(removed, f"execution {execution_id} not found")


@dataclass(frozen=True, slots=True)
class ExecutionQuery:
    """n8n's ``GET /executions`` filters; ``cursor`` is the ``nextCursor`` of the previous page."""

    limit: int = DEFAULT_LIMIT
    cursor: str | None = None
    status: str | None = None
    workflow_id: str | None = None


def executions(runs: RunStore | None, query: ExecutionQuery) -> tuple[RunPage, str | None]:
    """One page of webhook runs, newest first, and the cursor of the next (None at the end).

    Raises:
        WorkflowRequestError: ``limit`` outside 1..250, an unknown status, or a cursor we did not issue.
    """
    if not 1 <= query.limit <= MAX_LIMIT:
        raise WorkflowRequestError("request/query/limit", f"must be between 1 and {MAX_LIMIT}")
    if query.status is not None and query.status not in N8N_STATUSES:
        raise WorkflowRequestError("request/query/status", f"must be one of {', '.join(N8N_STATUSES)}")
    if query.cursor is not None and not re.fullmatch(EXECUTION_CURSOR_PATTERN, query.cursor):
        raise WorkflowRequestError("request/query/cursor", "is not a valid cursor")
    statuses = N8N_STATUSES[query.status] if query.status else ()
    if runs is None or (query.status is not None and not statuses):
        return RunPage(items=(), before=None), None
    page = runs.page(owner=WEBHOOK_OWNER, limit=query.limit, before=int(query.cursor) if query.cursor else None,
                     workflow_id=query.workflow_id, statuses=statuses)
    return page, str(page.before) if page.before is not None else None
