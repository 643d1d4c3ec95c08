"""One behaviour suite over SqliteWorkflowStore and DynamoWorkflowStore (moto, table from template.yaml)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ragspine.workflows.surfaces.errors import WorkflowConflictError, WorkflowNotFoundError
from ragspine.workflows.surfaces.keys import key_record
from ragspine.workflows.surfaces.ports import WorkflowStore
from ragspine.workflows.surfaces.records import KeyKind, StoredWorkflow
from ragspine.workflows.surfaces.registry import WorkflowRegistry
from tests.support.workflow_api import EVENT_APP_KEY, NOW, echo_n8n


@pytest.fixture(params=["sqlite", "dynamo"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> WorkflowStore:
    if request.param == "sqlite":
        from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore

        return SqliteWorkflowStore(tmp_path / "workflows.db")
    from ragspine.aws.dynamo_workflows import DynamoWorkflowStore

    table: str = request.getfixturevalue("workflows_table")
    client: Any = request.getfixturevalue("aws")
    return DynamoWorkflowStore(table, client=client)


def _workflow(store: WorkflowStore, workflow_id: str = "wf1", **body: Any) -> StoredWorkflow:
    return WorkflowRegistry(store, clock=lambda: NOW, new_id=lambda: workflow_id).create(echo_n8n(**body))


class TestWorkflows:
    def test_a_created_workflow_reads_back_equal(self, store: WorkflowStore) -> None:
        created = _workflow(store)
        assert store.get("wf1") == created and store.get("nope") is None

    def test_creating_an_existing_id_is_a_conflict(self, store: WorkflowStore) -> None:
        created = _workflow(store)
        with pytest.raises(WorkflowConflictError):
            store.create(created)

    def test_replace_checks_the_version(self, store: WorkflowStore) -> None:
        created = _workflow(store)
        renamed = replace(created, name="renamed", version_id="v2")
        store.replace(renamed, expected_version=created.version_id)
        assert store.get("wf1") == renamed
        with pytest.raises(WorkflowConflictError):
            store.replace(replace(renamed, version_id="v3"), expected_version=created.version_id)
        with pytest.raises(WorkflowNotFoundError):
            store.replace(replace(renamed, id="other"), expected_version="v2")

    def test_delete_returns_what_it_removed(self, store: WorkflowStore) -> None:
        created = _workflow(store)
        assert store.delete("wf1") == created
        assert store.delete("wf1") is None and store.get("wf1") is None

    def test_pages_are_in_id_order_with_a_continuation(self, store: WorkflowStore) -> None:
        for i in range(7):
            _workflow(store, f"wf{i}", name=f"w{i}")
        first = store.page(limit=3)
        second = store.page(limit=3, after=first.after)
        last = store.page(limit=3, after=second.after)
        assert [w.id for w in (*first.items, *second.items, *last.items)] == [f"wf{i}" for i in range(7)]
        assert (first.after, second.after, last.after) == ("wf2", "wf5", None)

    def test_only_active_workflows_answer_on_their_path(self, store: WorkflowStore) -> None:
        created = _workflow(store)
        assert store.find_active("summarise") is None
        store.replace(replace(created, active=True), expected_version=created.version_id)
        found = store.find_active("summarise")
        assert found is not None and found.id == "wf1"
        store.replace(replace(created, active=False), expected_version=created.version_id)
        assert store.find_active("summarise") is None


def test_key_records_round_trip(store: WorkflowStore) -> None:
    record = key_record(EVENT_APP_KEY, KeyKind.APP, created_at=NOW, workflow_id="wf1")
    store.put_key(record)
    assert store.get_key(record.key_id) == record and store.get_key("000000000000") is None
