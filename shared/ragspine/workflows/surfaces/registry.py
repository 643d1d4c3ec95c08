"""The workflow registry: n8n-style CRUD over a :class:`WorkflowStore`, with derived fields kept in step.

Every write recomputes what the surfaces need: the Dify DSL the n8n nodes map to (None when
nothing converts; such a workflow is stored but cannot run) and the webhook trigger (path and
method of the first enabled webhook node). Content writes get a new ``versionId``;
activation only flips ``active`` and refuses a webhook path another active workflow holds.
"""

from __future__ import annotations

import re
import secrets
import string
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from ragspine.errors import RagspineError
from ragspine.workflows.convert import WEBHOOK, dify_to_n8n, n8n_to_dify
from ragspine.workflows.dsl import DEFAULT_DSL_VERSION, canonical_dsl
from ragspine.workflows.surfaces.errors import WorkflowConflictError, WorkflowNotFoundError, WorkflowRequestError
from ragspine.workflows.surfaces.n8n_body import WorkflowBody, check_body
from ragspine.workflows.surfaces.ports import WorkflowStore
from ragspine.workflows.surfaces.records import StoredWorkflow, WorkflowPage

MAX_LIMIT = 250
DEFAULT_LIMIT = 100
_ID_ALPHABET = string.ascii_letters + string.digits


def new_workflow_id() -> str:
    """A 16-character alphanumeric id, shaped like n8n's."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(16))


CURSOR_PATTERN = r"^[A-Za-z0-9]{1,64}$"  # what the n8n route publishes: any such cursor is valid


def encode_cursor(after: str) -> str:
    """The cursor for "continue after this id" (opaque to clients; ids are alphanumeric, see new_workflow_id)."""
    return after


def decode_cursor(cursor: str) -> str:
    """The id a cursor continues after (an id that no longer exists still orders the page).

    Raises:
        WorkflowRequestError: the cursor is not 1 to 64 letters and digits.
    """
    if not re.fullmatch(CURSOR_PATTERN, cursor):
        raise WorkflowRequestError("request/query/cursor", "is not a valid cursor (1 to 64 letters and digits)")
    return cursor


def webhook_trigger(nodes: list[Any]) -> tuple[str | None, str | None]:
    """``(path, method)`` of the first enabled n8n webhook node, or ``(None, None)``."""
    for node in nodes:
        if isinstance(node, Mapping) and node.get("type") == WEBHOOK and node.get("disabled") is not True:
            raw = node.get("parameters")
            params: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
            path = str(params.get("path") or node.get("webhookId") or "").strip("/")
            method = str(params.get("httpMethod") or "GET").upper()
            return (path or None), method
    return None, None


def dify_mapping(document: Mapping[str, Any], *, dsl_version: str) -> dict[str, Any] | None:
    """The Dify DSL an n8n workflow converts to, or None when no node converts."""
    try:
        return n8n_to_dify(document, dsl_version=dsl_version).document
    except RagspineError:
        return None


@dataclass(frozen=True, slots=True)
class WorkflowRegistry:
    """CRUD, activation and paging of stored workflows; dependencies are injected."""

    store: WorkflowStore
    dsl_version: str = DEFAULT_DSL_VERSION
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    new_id: Callable[[], str] = new_workflow_id

    def get(self, workflow_id: str) -> StoredWorkflow:
        """The workflow with this id.

        Raises:
            WorkflowNotFoundError: no such workflow.
        """
        found = self.store.get(workflow_id)
        if found is None:
            raise WorkflowNotFoundError(f"no workflow has the id {workflow_id}")
        return found

    def create(self, body: Any) -> StoredWorkflow:
        """Validate an n8n body and store it as a new, inactive workflow.

        Raises:
            WorkflowRequestError: the body breaks n8n's schema (read-only, required or unknown fields).
        """
        now = self.clock()
        workflow = self._build(check_body(body), workflow_id=self.new_id(), created_at=now, active=False)
        self.store.create(workflow)
        return workflow

    def import_dify(self, document: Mapping[str, Any], *, name: str | None = None) -> StoredWorkflow:
        """Store a Dify DSL as a workflow: its n8n form for the CRUD API, the DSL itself for runs.

        Raises:
            WorkflowInvalidError: the document is not a workflow/advanced-chat app.
        """
        dify = canonical_dsl(document)
        converted = dify_to_n8n(dify).document
        path, method = webhook_trigger(converted["nodes"])
        now = self.clock()
        workflow = StoredWorkflow(id=self.new_id(), name=name or converted["name"], nodes=converted["nodes"],
                                  connections=converted["connections"], settings=converted["settings"],
                                  active=False, version_id=str(uuid.uuid4()), created_at=now, updated_at=now,
                                  dify_dsl=dify, webhook_path=path, webhook_method=method)
        self.store.create(workflow)
        return workflow

    def update(self, workflow_id: str, body: Any) -> StoredWorkflow:
        """Replace a workflow's content (PUT); a ``versionId`` in the body must still be current.

        Raises:
            WorkflowNotFoundError: no such workflow.
            WorkflowConflictError: stale ``versionId``, or the new webhook path is taken.
            WorkflowRequestError: the body breaks n8n's schema.
        """
        parsed = check_body(body, allow_version=True)
        current = self.get(workflow_id)
        expected = parsed.version_id or current.version_id
        if expected != current.version_id:
            raise WorkflowConflictError(f"workflow {workflow_id} is at version {current.version_id}, not {expected}")
        workflow = self._build(parsed, workflow_id=workflow_id, created_at=current.created_at, active=current.active)
        self._check_path_free(workflow)
        self.store.replace(workflow, expected_version=expected)
        return workflow

    def delete(self, workflow_id: str) -> StoredWorkflow:
        """Remove a workflow and return it.

        Raises:
            WorkflowNotFoundError: no such workflow.
        """
        removed = self.store.delete(workflow_id)
        if removed is None:
            raise WorkflowNotFoundError(f"no workflow has the id {workflow_id}")
        return removed

    def set_active(self, workflow_id: str, active: bool) -> StoredWorkflow:
        """Activate or deactivate; the ``versionId`` stays, ``updatedAt`` moves.

        Raises:
            WorkflowNotFoundError: no such workflow.
            WorkflowConflictError: another active workflow listens on the same webhook path.
        """
        current = self.get(workflow_id)
        if current.active is active:
            return current
        workflow = replace(current, active=active, updated_at=self.clock())
        self._check_path_free(workflow)
        self.store.replace(workflow, expected_version=current.version_id)
        return workflow

    def list_page(self, *, limit: int = DEFAULT_LIMIT,
                  cursor: str | None = None) -> tuple[WorkflowPage, str | None]:
        """One page ordered by id and the cursor of the next (None at the end).

        Raises:
            WorkflowRequestError: ``limit`` outside 1..250 or a cursor we did not issue.
        """
        if not 1 <= limit <= MAX_LIMIT:
            raise WorkflowRequestError("request/query/limit", f"must be between 1 and {MAX_LIMIT}")
        page = self.store.page(limit=limit, after=decode_cursor(cursor) if cursor else None)
        return page, encode_cursor(page.after) if page.after else None

    def _build(self, body: WorkflowBody, *, workflow_id: str, created_at: datetime, active: bool) -> StoredWorkflow:
        path, method = webhook_trigger(body.nodes)
        return StoredWorkflow(id=workflow_id, name=body.name, nodes=body.nodes, connections=body.connections,
                              settings=body.settings, active=active, version_id=str(uuid.uuid4()),
                              created_at=created_at, updated_at=self.clock(), extras=body.extras,
                              dify_dsl=dify_mapping(body.document(), dsl_version=self.dsl_version),
                              webhook_path=path, webhook_method=method)

    def _check_path_free(self, workflow: StoredWorkflow) -> None:
        path = workflow.active_path
        holder = self.store.find_active(path) if path else None
        if holder is not None and holder.id != workflow.id:
            raise WorkflowConflictError(f"webhook path {path!r} is already used by active workflow {holder.id}")
