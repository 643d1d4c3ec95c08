"""Webhooks: unauthenticated, so size cap, method allowlist, per-path rate limit and the gate all apply."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.workflow_api import WorkflowApi, build_api, echo_n8n

BASE = "/api/v1/workflows"


def _install(api: WorkflowApi, *, path: str = "summarise", method: str = "POST", activate: bool = True) -> str:
    body = api.client.post(BASE, json=echo_n8n(path=path, method=method), headers=api.n8n()).json()
    if activate:
        api.client.post(f"{BASE}/{body['id']}/activate", headers=api.n8n())
    return str(body["id"])


@pytest.fixture
def limited(sqlite_store: SqliteWorkflowStore) -> Iterator[WorkflowApi]:
    """Gate open, 64-byte payloads, GET/POST/DELETE only, bursts of 2."""
    built = build_api(sqlite_store, enabled=True, max_bytes=64, methods=("GET", "POST", "DELETE"), burst=2)
    _install(built)
    yield built
    built.close()


class TestRuns:
    def test_an_active_workflow_answers_with_its_outputs(self, limited: WorkflowApi) -> None:
        reply = limited.client.post("/webhook/summarise", json={"text": "hello"})
        assert reply.status_code == 200 and reply.json() == {"result": "hello"}
        assert reply.headers["x-workflow-run-id"]

    def test_get_takes_its_inputs_from_the_query(self, limited: WorkflowApi) -> None:
        _install(limited, path="by-get", method="GET")
        reply = limited.client.get("/webhook/by-get", params={"text": "from the query"})
        assert reply.status_code == 200 and reply.json() == {"result": "from the query"}

    def test_no_authentication_is_needed(self, limited: WorkflowApi) -> None:
        reply = limited.client.post("/webhook/summarise", json={"text": "x"}, headers={"Authorization": "junk"})
        assert reply.status_code == 200

    def test_a_body_that_is_not_an_object_is_400(self, limited: WorkflowApi) -> None:
        reply = limited.client.post("/webhook/summarise", json=["text"])
        assert reply.status_code == 400 and reply.json()["code"] == 400


class TestLimits:
    def test_a_payload_over_the_cap_is_413(self, limited: WorkflowApi) -> None:
        reply = limited.client.post("/webhook/summarise", json={"text": "x" * 100})
        assert reply.status_code == 413 and "limit is 64" in reply.json()["message"]

    def test_a_streamed_payload_over_the_cap_is_413_too(self, limited: WorkflowApi) -> None:
        chunks = iter([b'{"text": "', b"y" * 80, b'"}'])
        reply = limited.client.post("/webhook/summarise", content=chunks, headers={"Content-Type": "application/json"})
        assert reply.status_code == 413 and reply.json()["code"] == 413 and "exceeds 64 bytes" in reply.json()["message"]

    @pytest.mark.parametrize("method", ["PUT", "PATCH", "HEAD"])
    def test_methods_off_the_allowlist_are_405_with_allow(self, limited: WorkflowApi, method: str) -> None:
        reply = limited.client.request(method, "/webhook/summarise", json={"text": "x"})
        assert reply.status_code == 405 and reply.headers["allow"] == "DELETE, GET, POST"

    def test_an_allowed_method_the_workflow_does_not_listen_on_is_404(self, limited: WorkflowApi) -> None:
        assert limited.client.delete("/webhook/summarise").status_code == 404

    def test_the_third_call_of_a_burst_of_two_is_429_with_retry_after(self, limited: WorkflowApi) -> None:
        codes = [limited.client.post("/webhook/summarise", json={"text": "x"}).status_code for _ in range(3)]
        assert codes == [200, 200, 429]
        reply = limited.client.post("/webhook/summarise", json={"text": "x"})
        assert reply.headers["retry-after"] == "1" and reply.json()["code"] == 429

    def test_time_refills_the_bucket(self, limited: WorkflowApi) -> None:
        for _ in range(2):
            limited.client.post("/webhook/summarise", json={"text": "x"})
        limited.clock.now += 1
        assert limited.client.post("/webhook/summarise", json={"text": "x"}).status_code == 200

    def test_other_paths_have_their_own_bucket(self, limited: WorkflowApi) -> None:
        _install(limited, path="second")
        for _ in range(2):
            limited.client.post("/webhook/summarise", json={"text": "x"})
        assert limited.client.post("/webhook/second", json={"text": "x"}).status_code == 200


class TestRegistration:
    def test_unknown_paths_are_404(self, limited: WorkflowApi) -> None:
        reply = limited.client.post("/webhook/nothing-here", json={})
        assert reply.status_code == 404 and "not registered" in reply.json()["message"]

    def test_inactive_workflows_do_not_answer_until_activated(self, limited: WorkflowApi) -> None:
        wid = _install(limited, path="later", activate=False)
        assert limited.client.post("/webhook/later", json={"text": "x"}).status_code == 404
        limited.client.post(f"{BASE}/{wid}/activate", headers=limited.n8n())
        assert limited.client.post("/webhook/later", json={"text": "x"}).status_code == 200
        limited.client.post(f"{BASE}/{wid}/deactivate", headers=limited.n8n())
        assert limited.client.post("/webhook/later", json={"text": "x"}).status_code == 404


class TestGate:
    def test_a_closed_gate_refuses_every_webhook_with_403(self, sqlite_store: SqliteWorkflowStore) -> None:
        api = build_api(sqlite_store, enabled=False)
        _install(api)
        for path in ("summarise", "unknown"):
            reply = api.client.post(f"/webhook/{path}", json={"text": "x"})
            assert reply.status_code == 403 and "RAGSPINE_DIFY_RUN_ENABLED" in reply.json()["message"]
        api.close()
