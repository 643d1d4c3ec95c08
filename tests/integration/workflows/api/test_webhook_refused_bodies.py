"""A webhook body the workflow refuses leaves only a bounded excerpt in the run record.

Webhooks are unauthenticated: anyone may send up to the payload cap. A run whose start node
refuses the inputs is still recorded (failed), but what it keeps of the body is an excerpt,
so three refused 1 MiB bodies cost kilobytes of storage, not megabytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.workflows.surfaces.run_log import EXCERPT_KEY, REFUSED_EXCERPT_CHARS
from ragspine.workflows.surfaces.run_records import RecordedStatus
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.workflow_api import WorkflowApi, build_api, echo_n8n

MIB = 1024 * 1024


@pytest.fixture
def api4(sqlite_store: SqliteWorkflowStore) -> Iterator[WorkflowApi]:
    """Gate open, 4 MiB webhook payloads, the echo workflow active on POST /webhook/summarise."""
    built = build_api(sqlite_store, enabled=True, max_bytes=4 * MIB)
    created = built.client.post("/api/v1/workflows", json=echo_n8n(), headers=built.n8n()).json()
    built.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=built.n8n())
    yield built
    built.close()


def _webhook_runs(api: WorkflowApi) -> list[dict[str, object]]:
    reply = api.client.get("/api/v1/executions", params={"includeData": "true"}, headers=api.n8n())
    assert reply.status_code == 200, reply.text
    runs: list[dict[str, object]] = reply.json()["data"]
    return runs


REFUSED = [{"text": "x" * MIB}, {"text": 5, "padding": "y" * MIB}, {"unexpected": "z" * MIB}]


def test_refused_bodies_are_recorded_as_bounded_excerpts(api4: WorkflowApi,
                                                         sqlite_store: SqliteWorkflowStore) -> None:
    for body in REFUSED:
        assert api4.client.post("/webhook/summarise", json=body).status_code == 400
    assert Path(sqlite_store.path).stat().st_size < 256 * 1024  # was above 3 MiB: each body stored whole
    page = api4.components.runs.page(owner="webhook", limit=10)  # type: ignore[union-attr]
    assert len(page.items) == 3
    for run in page.items:
        assert run.status is RecordedStatus.FAILED
        excerpt = run.inputs[EXCERPT_KEY]
        assert excerpt["truncated"] is True and excerpt["bytes"] > MIB
        assert len(excerpt["text"]) <= REFUSED_EXCERPT_CHARS
        assert len(json.dumps(run.inputs)) < 2 * REFUSED_EXCERPT_CHARS
    assert len(json.dumps(_webhook_runs(api4))) < 32 * 1024


def test_a_small_refused_body_is_kept_whole_and_an_accepted_one_too(api4: WorkflowApi) -> None:
    assert api4.client.post("/webhook/summarise", json={"text": 5}).status_code == 400
    assert api4.client.post("/webhook/summarise", json={"text": "hello"}).status_code == 200
    page = api4.components.runs.page(owner="webhook", limit=10)  # type: ignore[union-attr]
    assert sorted(json.dumps(r.inputs) for r in page.items) == ['{"text": "hello"}', '{"text": 5}']
