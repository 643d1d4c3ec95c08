"""``InMemoryWorkflowStore``: the WorkflowStore port in dicts, recording every call."""

from __future__ import annotations

from ragspine.workflows.surfaces.errors import WorkflowConflictError, WorkflowNotFoundError
from ragspine.workflows.surfaces.ports import WorkflowStore
from ragspine.workflows.surfaces.records import ApiKeyRecord, StoredWorkflow, WorkflowPage


class InMemoryWorkflowStore:
    """Workflows and key records in dicts, with the adapters' optimistic locking and id order."""

    def __init__(self) -> None:
        self.workflows: dict[str, StoredWorkflow] = {}
        self.keys: dict[str, ApiKeyRecord] = {}
        self.calls: list[str] = []

    def create(self, workflow: StoredWorkflow) -> None:
        self.calls.append(f"create {workflow.id}")
        if workflow.id in self.workflows:
            raise WorkflowConflictError(f"a workflow with id {workflow.id} exists")
        self.workflows[workflow.id] = workflow

    def replace(self, workflow: StoredWorkflow, *, expected_version: str) -> None:
        self.calls.append(f"replace {workflow.id}")
        current = self.workflows.get(workflow.id)
        if current is None:
            raise WorkflowNotFoundError(f"no workflow has the id {workflow.id}")
        if current.version_id != expected_version:
            raise WorkflowConflictError(f"workflow {workflow.id} changed")
        self.workflows[workflow.id] = workflow

    def get(self, workflow_id: str) -> StoredWorkflow | None:
        self.calls.append(f"get {workflow_id}")
        return self.workflows.get(workflow_id)

    def delete(self, workflow_id: str) -> StoredWorkflow | None:
        self.calls.append(f"delete {workflow_id}")
        return self.workflows.pop(workflow_id, None)

    def page(self, *, limit: int, after: str | None = None) -> WorkflowPage:
        self.calls.append(f"page {limit} {after}")
        ids = sorted(i for i in self.workflows if after is None or i > after)
        items = tuple(self.workflows[i] for i in ids[:limit])
        return WorkflowPage(items=items, after=items[-1].id if len(ids) > limit else None)

    def find_active(self, path: str) -> StoredWorkflow | None:
        self.calls.append(f"find_active {path}")
        return next((self.workflows[i] for i in sorted(self.workflows) if self.workflows[i].active_path == path), None)

    def put_key(self, record: ApiKeyRecord) -> None:
        self.calls.append(f"put_key {record.key_id}")
        self.keys[record.key_id] = record

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        self.calls.append(f"get_key {key_id}")
        return self.keys.get(key_id)


def _typed(store: InMemoryWorkflowStore) -> WorkflowStore:
    """Type-checks that the fake implements the port (mypy fails here if it drifts)."""
    return store
