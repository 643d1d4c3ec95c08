"""One behaviour suite over SqliteRunStore and DynamoRunStore (moto, the WorkflowsTable of template.yaml)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ragspine.workflows.surfaces.ports import RunStore
from ragspine.workflows.surfaces.run_records import RecordedStatus, RunRecord, RunRetention, RunSurface
from tests.support.workflow_api import NOW


@pytest.fixture(params=["sqlite", "dynamo"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    def make(retention: RunRetention | None = None) -> RunStore:
        if request.param == "sqlite":
            from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore

            return SqliteRunStore(tmp_path / "runs.db", retention=retention)
        from ragspine.aws.dynamo_runs import DynamoRunStore

        table: str = request.getfixturevalue("workflows_table")
        return DynamoRunStore(table, retention=retention, client=request.getfixturevalue("aws"))

    return make


def _run(n: int, *, owner: str = "webhook", workflow_id: str = "wf1", days_ago: int = 0,
         status: RecordedStatus = RecordedStatus.RUNNING) -> RunRecord:
    return RunRecord(id=f"run-{n}", workflow_id=workflow_id, surface=RunSurface.WEBHOOK, owner=owner,
                     status=status, inputs={"n": n}, created_at=NOW - timedelta(days=days_ago),
                     task_id=f"task-{n}", user="u")


def test_runs_are_numbered_and_read_back_only_by_their_owner(make_store: Any) -> None:
    store = make_store()
    first, second = store.start(_run(1)), store.start(_run(2, owner="appA"))
    assert (first.seq, second.seq) == (1, 2)
    assert store.get("run-2", owner="appA") == second and store.get("run-2", owner="appB") is None
    assert store.get_seq(2, owner="webhook") is None and store.find_task("task-2", owner="webhook") is None
    assert store.delete(2, owner="webhook") is None and store.get("run-2", owner="appA") is not None


def test_a_run_finishes_once_and_a_stopped_run_stays_stopped(make_store: Any) -> None:
    store = make_store()
    run = store.start(_run(1))
    assert store.finish(replace(run, status=RecordedStatus.STOPPED, finished_at=NOW))
    assert not store.finish(replace(run, status=RecordedStatus.SUCCEEDED, outputs={"late": True}, finished_at=NOW))
    stored = store.get("run-1", owner="webhook")
    assert stored is not None and (stored.status, stored.outputs) == (RecordedStatus.STOPPED, {})


def test_retention_drops_runs_beyond_the_count_and_the_age(make_store: Any) -> None:
    store = make_store(RunRetention(max_runs=3, max_age_days=7))
    store.start(_run(1, days_ago=8))  # already too old: pruned by the next start
    for n in range(2, 7):
        store.start(_run(n))
    kept = [r.id for r in store.page(owner="webhook", limit=10).items]
    assert kept == ["run-6", "run-5", "run-4"]
    assert store.start(_run(7)).seq == 7  # numbers are never reused after pruning



def test_pages_filter_by_workflow_and_status_and_continue_below_a_cursor(make_store: Any) -> None:
    store = make_store()
    for n in range(1, 8):
        started = store.start(_run(n, workflow_id="wfA" if n % 2 else "wfB"))
        if n % 3 == 0:
            store.finish(replace(started, status=RecordedStatus.SUCCEEDED, finished_at=NOW))
    first = store.page(owner="webhook", limit=2, workflow_id="wfA")
    assert [r.seq for r in first.items] == [7, 5] and first.before == 5
    rest = store.page(owner="webhook", limit=2, workflow_id="wfA", before=first.before)
    assert [r.seq for r in rest.items] == [3, 1] and rest.before is None
    done = store.page(owner="webhook", limit=10, statuses=(RecordedStatus.SUCCEEDED,))
    assert [r.seq for r in done.items] == [6, 3]
    assert store.find_task("task-6", owner="webhook") == done.items[0]
    assert store.delete(6, owner="webhook") == done.items[0]
    assert store.get("run-6", owner="webhook") is None and store.find_task("task-6", owner="webhook") is None
