"""SqliteRunStore: numbering, owner scoping, finish-once, retention by count and age, and cursor paging."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.workflows.surfaces.run_records import RecordedStatus, RunRecord, RunRetention, RunSurface
from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore
from tests.support.workflow_api import NOW


def _run(n: int, *, owner: str = "webhook", workflow_id: str = "wf1", days_ago: int = 0) -> RunRecord:
    return RunRecord(id=f"run-{n}", workflow_id=workflow_id, surface=RunSurface.WEBHOOK, owner=owner,
                     status=RecordedStatus.RUNNING, inputs={"n": n}, created_at=NOW - timedelta(days=days_ago),
                     task_id=f"task-{n}", user="u")


def test_runs_are_numbered_and_read_back_only_by_their_owner(tmp_path: Path) -> None:
    store = SqliteRunStore(tmp_path / "runs.db")
    first, second = store.start(_run(1)), store.start(_run(2, owner="appA"))
    assert (first.seq, second.seq) == (1, 2)
    assert store.get("run-2", owner="appA") == second and store.get("run-2", owner="appB") is None
    assert store.get_seq(2, owner="webhook") is None and store.find_task("task-2", owner="webhook") is None
    assert store.delete(2, owner="webhook") is None and store.get("run-2", owner="appA") is not None


def test_a_run_finishes_once_and_a_stopped_run_stays_stopped(tmp_path: Path) -> None:
    store = SqliteRunStore(tmp_path / "runs.db")
    run = store.start(_run(1))
    assert store.finish(replace(run, status=RecordedStatus.STOPPED, finished_at=NOW))
    assert not store.finish(replace(run, status=RecordedStatus.SUCCEEDED, outputs={"late": True}, finished_at=NOW))
    stored = store.get("run-1", owner="webhook")
    assert stored is not None and (stored.status, stored.outputs) == (RecordedStatus.STOPPED, {})


def test_retention_drops_runs_beyond_the_count_and_the_age(tmp_path: Path) -> None:
    store = SqliteRunStore(tmp_path / "runs.db", retention=RunRetention(max_runs=3, max_age_days=7))
    store.start(_run(1, days_ago=8))  # already too old: pruned by the next start
    for n in range(2, 7):
        store.start(_run(n))
    kept = [r.id for r in store.page(owner="webhook", limit=10).items]
    assert kept == ["run-6", "run-5", "run-4"]
    assert store.start(_run(7)).seq == 7  # numbers are never reused after pruning


@settings(max_examples=40, deadline=None)
@given(total=st.integers(min_value=0, max_value=25), limit=st.integers(min_value=1, max_value=8),
       owners=st.lists(st.sampled_from(["webhook", "appA"]), min_size=25, max_size=25))
def test_paging_walks_an_owners_runs_once_newest_first(total: int, limit: int, owners: list[str]) -> None:
    store = SqliteRunStore(":memory:")
    for n in range(total):
        store.start(_run(n, owner=owners[n]))
    seen: list[int] = []
    before: int | None = None
    while True:
        page = store.page(owner="webhook", limit=limit, before=before)
        assert len(page.items) <= limit
        seen.extend(r.seq for r in page.items)
        if page.before is None:
            break
        before = page.before
    expected = [n + 1 for n in range(total) if owners[n] == "webhook"]
    assert seen == sorted(expected, reverse=True)
