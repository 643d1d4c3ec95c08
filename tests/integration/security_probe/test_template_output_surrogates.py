"""Outside probe: a template whose output holds a lone surrogate must end as the run's own result, never a 500.

Jinja string literals accept ``\\udfff`` escapes, so any app key holder can make a template node
return text that is not valid UTF-8. The child's reply carries it as a JSON escape; the service then
fails to store the finished run and to encode the reply, and answers the opaque, retryable 500 while
the run stays ``running`` in the store for good.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ragspine.settings import Settings
from ragspine.workflows.surfaces.key_admin import create_app_key
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.workflow_api import WorkflowApi, build_api
from tests.unit.workflows.samples import dsl, edge, end, start, template

SURROGATE_TEMPLATES = {
    "lone-low": "{{ '\\udfff' }}",
    "lone-high-repeated": "{{ 'ok ' ~ '\\ud800' * 3 }}",
}


@pytest.fixture
def api(settings: Settings, tmp_path: Path) -> Iterator[WorkflowApi]:
    store = SqliteWorkflowStore(tmp_path / "workflows.db")
    built = build_api(store, enabled=True)
    yield built
    built.close()
    store.close()


def _runs_left_running(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM workflow_run WHERE status = 'running'").fetchone()[0])


@pytest.mark.parametrize("name", sorted(SURROGATE_TEMPLATES))
def test_a_template_that_outputs_a_lone_surrogate_is_not_a_500(api: WorkflowApi, tmp_path: Path, name: str) -> None:
    document = dsl([start(), template("t", SURROGATE_TEMPLATES[name]), end(("out", ["t", "output"]))],
                   [edge("start", "t"), edge("t", "end")])
    key = create_app_key(api.components, document=document).plaintext
    client = TestClient(api.client.app, raise_server_exceptions=False)
    reply = client.post("/v1/workflows/run", json={"inputs": {}, "user": "u", "response_mode": "blocking"},
                            headers=api.dify(key))
    assert reply.status_code == 200, reply.text
    assert reply.json()["data"]["status"] in {"succeeded", "failed"}
    assert _runs_left_running(tmp_path / "workflows.db") == 0
