"""Each surface takes its peer's body limit (configurable) and refuses a larger body in its own format."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from ragspine.settings import Settings, get_settings
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.process_caches import close_services
from tests.support.workflow_api import WorkflowApi, build_api, echo_n8n

BASE = "/api/v1/workflows"


def _api(store: SqliteWorkflowStore, monkeypatch: pytest.MonkeyPatch, **env: str) -> WorkflowApi:
    for name, value in env.items():
        monkeypatch.setenv(f"RAGSPINE_{name}", value)
    get_settings.cache_clear()
    close_services()
    return build_api(store, enabled=True, max_bytes=1024 * 1024)


@pytest.fixture
def limited(settings: Settings, sqlite_store: SqliteWorkflowStore,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkflowApi]:
    built = _api(sqlite_store, monkeypatch, N8N_MAX_BODY_BYTES="4096", DIFY_MAX_BODY_BYTES="4096",
                 WORKFLOW_WEBHOOK_MAX_BYTES="4096")
    yield built
    built.close()


def _large_n8n(size: int) -> dict[str, object]:
    body = echo_n8n()
    body["nodes"][1]["notes"] = "x" * size  # an operator's note, as real exports carry
    return body


def test_an_80_kb_n8n_workflow_is_accepted_by_default(api: WorkflowApi) -> None:
    body = _large_n8n(80_000)
    assert len(json.dumps(body)) > 80_000 > get_settings().max_body_bytes
    reply = api.client.post(BASE, json=body, headers=api.n8n())
    assert reply.status_code == 200, reply.text
    assert reply.json()["nodes"][1]["notes"] == "x" * 80_000


def test_the_default_limits_are_the_peers(api: WorkflowApi) -> None:
    configured = get_settings()
    assert configured.n8n_max_body_bytes == configured.workflow_webhook_max_bytes == 16 * 1024 * 1024
    assert configured.dify_max_body_bytes == 100 * 1024 * 1024


def test_a_dify_run_larger_than_the_engine_limit_runs(api: WorkflowApi) -> None:
    # The form's text is capped at 4000 characters; the large part is the caller's trace id and user.
    body = {"inputs": {"text": "short"}, "user": "u" * 200, "response_mode": "blocking", "trace_id": "t" * 90_000}
    assert len(json.dumps(body)) > get_settings().max_body_bytes
    reply = api.client.post("/v1/workflows/run", headers=api.dify(), json=body)
    assert reply.status_code == 200, reply.text
    assert reply.json()["data"]["status"] == "succeeded"


def test_the_engine_routes_keep_the_small_limit(api: WorkflowApi) -> None:
    reply = api.client.post("/v1/ask", content=b"x" * (get_settings().max_body_bytes + 1),
                            headers={"Content-Type": "application/json"})
    assert reply.status_code == 413 and reply.json()["meta"]["error"]["code"] == "KNOWLEDGE_INVALID_INPUT"


class TestConfiguredLimits:
    def test_n8n_refuses_a_larger_body_in_its_own_shape(self, limited: WorkflowApi) -> None:
        reply = limited.client.post(BASE, json=_large_n8n(5000), headers=limited.n8n())
        assert reply.status_code == 413 and list(reply.json()) == ["message"]
        assert "limit is 4096" in reply.json()["message"]

    def test_dify_refuses_a_larger_body_in_its_own_shape(self, limited: WorkflowApi) -> None:
        reply = limited.client.post("/v1/workflows/run", headers=limited.dify(),
                                    json={"inputs": {"text": "y" * 5000}, "user": "u1"})
        assert reply.status_code == 413
        assert reply.json() == {"code": "invalid_param", "status": 413,
                                "message": reply.json()["message"]} and "4096" in reply.json()["message"]

    def test_webhooks_refuse_a_larger_body_in_their_own_shape(self, limited: WorkflowApi) -> None:
        reply = limited.client.post("/webhook/summarise", content=b"{}" + b" " * 5000,
                                    headers={"Content-Type": "application/json"})
        assert reply.status_code == 413 and reply.json()["code"] == 413


def _chunked(body: bytes, size: int = 1000) -> Iterator[bytes]:
    """The body as a chunked upload: no Content-Length for the limit to read."""
    for start in range(0, len(body), size):
        yield body[start:start + size]


class TestChunkedBodies:
    """Leaving Content-Length out (Transfer-Encoding: chunked) does not get a body past the limit."""

    def test_the_engine_limit_holds_without_a_content_length(self, api: WorkflowApi) -> None:
        body = json.dumps({"question": "x" * (get_settings().max_body_bytes + 1)}).encode()
        reply = api.client.post("/v1/ask", content=_chunked(body), headers={"Content-Type": "application/json"})
        assert reply.status_code == 413, reply.text
        assert reply.json()["meta"]["error"]["code"] == "KNOWLEDGE_INVALID_INPUT"
        assert "exceeds the limit of 65536 bytes" in reply.json()["meta"]["error"]["message"]

    def test_n8n_refuses_a_larger_chunked_body_in_its_own_shape(self, limited: WorkflowApi) -> None:
        reply = limited.client.post(BASE, content=_chunked(json.dumps(_large_n8n(5000)).encode()),
                                    headers={**limited.n8n(), "Content-Type": "application/json"})
        assert reply.status_code == 413 and list(reply.json()) == ["message"]
        assert "limit of 4096" in reply.json()["message"]

    def test_a_chunked_body_within_the_limit_reaches_the_route(self, api: WorkflowApi) -> None:
        reply = api.client.post(BASE, content=_chunked(json.dumps(_large_n8n(80_000)).encode()),
                                headers={**api.n8n(), "Content-Type": "application/json"})
        assert reply.status_code == 200, reply.text
        assert reply.json()["nodes"][1]["notes"] == "x" * 80_000
