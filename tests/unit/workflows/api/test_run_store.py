"""SqliteRunStore paging: any mix of owners, any page size, walks one owner's runs once, newest first."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.workflows.surfaces.run_records import RecordedStatus, RunRecord, RunSurface
from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore
from tests.support.workflow_api import NOW


def _run(n: int, *, owner: str = "webhook", workflow_id: str = "wf1", days_ago: int = 0) -> RunRecord:
    return RunRecord(id=f"run-{n}", workflow_id=workflow_id, surface=RunSurface.WEBHOOK, owner=owner,
                     status=RecordedStatus.RUNNING, inputs={"n": n}, created_at=NOW - timedelta(days=days_ago),
                     task_id=f"task-{n}", user="u")


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
