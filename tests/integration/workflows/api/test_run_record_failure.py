"""A run whose final state cannot be stored still ends: recorded ``failed`` with a clear error, never left running."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.workflows.surfaces.run_records import RecordedStatus, RunRecord
from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.workflow_api import WorkflowApi, build_api

RUN = {"inputs": {"text": "The quarterly report is late."}, "user": "user-1", "response_mode": "blocking"}


class FailingFinishStore(SqliteRunStore):
    """The real SQLite run store, with a storage fault injected into writing a succeeded run's final state."""

    def finish(self, run: RunRecord) -> bool:
        if run.status is RecordedStatus.SUCCEEDED:
            raise sqlite3.OperationalError("disk I/O error")
        return super().finish(run)


@pytest.fixture
def failing_api(sqlite_store: SqliteWorkflowStore, tmp_path: Path) -> Iterator[WorkflowApi]:
    built = build_api(sqlite_store, enabled=True, runs=FailingFinishStore(tmp_path / "runs.db"))
    yield built
    built.close()


def _recorded(api: WorkflowApi, run_id: str) -> RunRecord:
    assert api.components.runs is not None and api.dify_workflow is not None
    record = api.components.runs.get(run_id, owner=api.dify_workflow.id)
    assert record is not None
    return record


def test_a_blocking_run_whose_result_cannot_be_stored_is_recorded_failed_and_answered_failed(
        failing_api: WorkflowApi) -> None:
    reply = failing_api.client.post("/v1/workflows/run", json=RUN, headers=failing_api.dify())
    assert reply.status_code == 200, reply.text
    data = reply.json()["data"]
    assert data["status"] == "failed" and data["outputs"] == {}
    assert "could not be stored (OperationalError)" in data["error"] and "run it again" in data["error"]
    assert "disk I/O" not in data["error"]  # the storage's own text stays in the log
    record = _recorded(failing_api, data["id"])
    assert (record.status, record.error) == (RecordedStatus.FAILED, data["error"])


def test_a_streamed_run_whose_result_cannot_be_stored_finishes_failed(failing_api: WorkflowApi) -> None:
    reply = failing_api.client.post("/v1/workflows/run", json={**RUN, "response_mode": "streaming"},
                                    headers=failing_api.dify())
    events = [json.loads(c[len("data: "):]) for c in reply.text.split("\n\n") if c]
    assert events[-1]["event"] == "workflow_finished"
    finished = events[-1]["data"]
    assert finished["status"] == "failed" and "could not be stored" in finished["error"]
    assert _recorded(failing_api, finished["id"]).status is RecordedStatus.FAILED

