"""Ports of the workflow surfaces: where stored workflows and hashed API keys live.

Adapters: ``SqliteWorkflowStore`` (embedded, ``workflows.db`` under the data folder) and
``DynamoWorkflowStore`` (``ragspine.aws``). Both keep the same records and the same ordering,
so one behaviour suite runs over either.
"""

from __future__ import annotations

from typing import Protocol

from ragspine.workflows.surfaces.records import ApiKeyRecord, StoredWorkflow, WorkflowPage


class ApiKeyStore(Protocol):
    """Hashed API keys, looked up by their public key id."""

    def put_key(self, record: ApiKeyRecord) -> None:
        """Store a key record (the key itself is never stored).

        Raises:
            ProviderUnavailableError: the backing store failed.
        """
        ...

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        """The record with this key id, or None.

        Raises:
            ProviderUnavailableError: the backing store failed.
        """
        ...


class WorkflowStore(ApiKeyStore, Protocol):
    """Stored workflows with optimistic locking on ``version_id``, plus the API keys that open them."""

    def create(self, workflow: StoredWorkflow) -> None:
        """Insert a new workflow.

        Raises:
            WorkflowConflictError: a workflow with this id exists.
            ProviderUnavailableError: the backing store failed.
        """
        ...

    def replace(self, workflow: StoredWorkflow, *, expected_version: str) -> None:
        """Overwrite a workflow whose stored ``version_id`` is still ``expected_version``.

        Raises:
            WorkflowNotFoundError: no workflow has this id.
            WorkflowConflictError: the stored version changed meanwhile.
            ProviderUnavailableError: the backing store failed.
        """
        ...

    def get(self, workflow_id: str) -> StoredWorkflow | None:
        """The workflow with this id, or None."""
        ...

    def delete(self, workflow_id: str) -> StoredWorkflow | None:
        """Remove a workflow and return what was removed (None when it did not exist)."""
        ...

    def page(self, *, limit: int, after: str | None = None) -> WorkflowPage:
        """Up to ``limit`` workflows ordered by id, starting after the id ``after``.

        Returns:
            The items and, when more follow, the id to pass as ``after`` next time.
        """
        ...

    def find_active(self, path: str) -> StoredWorkflow | None:
        """The active workflow whose webhook listens on ``path``, or None."""
        ...
