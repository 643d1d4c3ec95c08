"""Ports of the workflow surfaces: where stored workflows, hashed API keys and recorded runs live.

Adapters: ``SqliteWorkflowStore`` (embedded, ``workflows.db`` under the data folder) and
``DynamoWorkflowStore`` (``ragspine.aws``). Both keep the same records and the same ordering,
so one behaviour suite runs over either.
"""

from __future__ import annotations

from typing import Protocol

from ragspine.workflows.surfaces.records import ApiKeyRecord, StoredWorkflow, WorkflowPage
from ragspine.workflows.surfaces.run_records import RecordedStatus, RunPage, RunRecord


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


class RunStore(Protocol):
    """Recorded workflow runs, numbered in the order they start, each readable only by its ``owner``.

    Every read takes the owner: a run recorded for one app is not found through another.
    """

    def start(self, run: RunRecord) -> RunRecord:
        """Record a run that starts, drop what the retention no longer keeps, and return it numbered.

        Raises:
            ProviderUnavailableError: the backing store failed.
        """
        ...

    def finish(self, run: RunRecord) -> bool:
        """Store a run's final state if it is still running; whether it was (a stopped run stays stopped)."""
        ...

    def get(self, run_id: str, *, owner: str) -> RunRecord | None:
        """The run with this id recorded for ``owner``, or None."""
        ...

    def get_seq(self, seq: int, *, owner: str) -> RunRecord | None:
        """The run with this number recorded for ``owner``, or None."""
        ...

    def find_task(self, task_id: str, *, owner: str) -> RunRecord | None:
        """The run a Dify task id belongs to, or None."""
        ...

    def page(self, *, owner: str, limit: int, before: int | None = None, workflow_id: str | None = None,
             statuses: tuple[RecordedStatus, ...] = ()) -> RunPage:
        """Up to ``limit`` runs of ``owner``, newest first, numbered below ``before``, optionally filtered."""
        ...

    def delete(self, seq: int, *, owner: str) -> RunRecord | None:
        """Remove a run and return it (None when ``owner`` has no run with this number)."""
        ...
