"""Workflow runs cannot starve ``/v1/ask`` or the Gateway: they run on their own bounded threads and extra runs are refused at once.

The real app runs in uvicorn on loopback. Every run's llm node waits on an event the test holds,
so runs stay in flight for as long as the test wants, with no timing involved. Before, each
blocking run (and each stream's reader) held one of the server's 40 worker threads, so 44 held
runs left ``/v1/ask`` and the Gateway waiting until a run ended. A full capacity refuses only
requests that would run: a client mistake (unknown path or key, closed gate) keeps its own answer.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import pytest

from ragspine.api.app import create_local_app
from ragspine.api.workflow_deps import workflow_components
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
from ragspine.llm.chat import Completion, Message
from ragspine.settings import Settings
from ragspine.workflows.run import ExecutionGate, RunCapacity
from ragspine.workflows.surfaces import WorkflowComponents
from ragspine.workflows.surfaces.key_admin import create_app_key, create_n8n_key
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.loopback import serve
from tests.support.workflow_api import close_stores, echo_n8n, make_components, summarise_dsl

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

# More than the server's shared worker threads (anyio's default limiter: 40 tokens).
MORE_THAN_WORKER_THREADS = 44
GATEWAY = "/internal/v1/knowledge"
# Bounds a broken build's hang; no assertion is made on how long anything takes.
PATIENCE = 60.0


class GatedModel:
    """A model whose every reply waits until the test opens the gate; counts the calls that reached it."""

    name = "gated"

    def __init__(self) -> None:
        self.gate = threading.Event()
        self._entered = threading.Semaphore(0)

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        self._entered.release()
        self.gate.wait(PATIENCE)
        return Completion("A short summary.", self.name)

    def wait_for_calls(self, count: int) -> None:
        for _ in range(count):
            assert self._entered.acquire(timeout=PATIENCE), "a run never reached its llm node"


@dataclass
class Served:
    app: Any
    base: str
    client: Any
    components: WorkflowComponents
    model: GatedModel
    app_keys: tuple[str, str]
    n8n_key: str

    def run(self, key: str, *, streaming: bool = False) -> dict[str, Any]:
        """A Dify run; streaming: the events' data objects read to the end, as a body ``{"events": [...]}``."""
        body = {"inputs": {"text": "hello"}, "user": "u1", "response_mode": "streaming" if streaming else "blocking"}
        headers = {"Authorization": f"Bearer {key}"}
        if not streaming:
            reply = self.client.post(f"{self.base}/v1/workflows/run", json=body, headers=headers)
            return {"status": reply.status_code, "headers": reply.headers, "json": reply.json()}
        with self.client.stream("POST", f"{self.base}/v1/workflows/run", json=body, headers=headers) as reply:
            if reply.headers["content-type"].startswith("text/event-stream"):
                events = [json.loads(line[5:]) for line in reply.iter_lines() if line.startswith("data:")]
                return {"status": reply.status_code, "headers": reply.headers, "events": events}
            reply.read()  # refused before the stream started: a plain JSON answer
            return {"status": reply.status_code, "headers": reply.headers, "json": reply.json(), "events": []}

    def webhook(self, path: str) -> Any:
        return self.client.post(f"{self.base}/webhook/{path}", json={"text": "x"})

    @contextmanager
    def gate_closed(self) -> Iterator[None]:
        """Requests served meanwhile see the execution gate closed; the runs in flight keep their places."""
        self.app.dependency_overrides[workflow_components] = lambda: replace(self.components,
                                                                            gate=ExecutionGate(enabled=False))
        try:
            yield
        finally:
            self.app.dependency_overrides[workflow_components] = lambda: self.components


def _served(settings: Settings, store: SqliteWorkflowStore, capacity: RunCapacity) -> Iterator[Served]:
    model = GatedModel()
    components = replace(make_components(store, enabled=True, llm=model), capacity=capacity)
    app = create_local_app()
    app.dependency_overrides[workflow_components] = lambda: components
    keys = (create_app_key(components, document=summarise_dsl()).plaintext,
            create_app_key(components, document=summarise_dsl()).plaintext)
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    with serve(app, name="run-capacity-uvicorn", log_level="error") as base, \
            httpx.Client(timeout=PATIENCE, limits=limits) as client:
        served = Served(app, base, client, components, model, keys, create_n8n_key(components).plaintext)
        try:
            yield served
        finally:
            model.gate.set()
    close_stores(components)


@pytest.fixture
def roomy(settings: Settings, sqlite_store: SqliteWorkflowStore) -> Iterator[Served]:
    """Room for more runs than the server has worker threads."""
    yield from _served(settings, sqlite_store, RunCapacity(total=MORE_THAN_WORKER_THREADS,
                                                           per_key=MORE_THAN_WORKER_THREADS))


@pytest.fixture
def tight(settings: Settings, sqlite_store: SqliteWorkflowStore) -> Iterator[Served]:
    """Three runs in the process, two per key."""
    yield from _served(settings, sqlite_store, RunCapacity(total=3, per_key=2))


def _ask(served: Served) -> Any:
    return served.client.post(f"{served.base}/v1/ask", json={"question": "What was Japan's revenue in FY2024?"})


def _gateway_headers(settings: Settings) -> dict[str, str]:
    """A Gateway token (stored now) and an admin's assertion."""
    token, stored = new_token("run-capacity")
    get_knowledge_gateway().store.put_token(stored)
    assertion = sign_dev_assertion(dev_key(settings.data_dir), user="admin", roles=["knowledge-admin"],
                                   departments=[], domains=["internal"],
                                   issuer=settings.knowledge_assertion_issuer,
                                   audience=settings.knowledge_assertion_audience)
    return {"Authorization": f"Bearer {token}", "X-User-Assertion": assertion}


def test_ask_and_the_gateway_answer_while_more_runs_are_held_than_the_server_has_worker_threads(
        roomy: Served, settings: Settings) -> None:
    key = roomy.app_keys[0]
    gateway = _gateway_headers(settings)
    space = roomy.client.post(f"{roomy.base}{GATEWAY}/spaces", headers={**gateway, "Idempotency-Key": "space-1"},
                              json={"code": "held-runs", "name": "Held runs", "profileCode": "enterprise-long-document",
                                    "defaultSecurityDomainCode": "internal"})
    assert space.status_code == 201, space.text
    space_id = space.json()["data"]["knowledgeSpaceId"]
    with ThreadPoolExecutor(max_workers=MORE_THAN_WORKER_THREADS) as pool:
        runs = [pool.submit(roomy.run, key, streaming=i % 4 == 0) for i in range(MORE_THAN_WORKER_THREADS)]
        roomy.model.wait_for_calls(MORE_THAN_WORKER_THREADS)  # every run is inside its llm node now
        assert roomy.components.capacity.in_flight() == MORE_THAN_WORKER_THREADS
        asked = _ask(roomy)
        health = roomy.client.get(f"{roomy.base}/healthz")
        read = roomy.client.get(f"{roomy.base}{GATEWAY}/spaces/{space_id}", headers=gateway)
        assert not any(run.done() for run in runs)  # the runs were still held while these were answered
        roomy.model.gate.set()
        finished = [run.result(PATIENCE) for run in runs]
    assert asked.status_code == 200 and "answer" in asked.json()
    assert health.status_code == 200
    assert read.status_code == 200 and read.json()["data"]["knowledgeSpaceId"] == space_id
    for run in finished:
        assert run["status"] == 200
        last = run["events"][-1] if "events" in run else run["json"]
        assert (last["data"]["status"] if "data" in last else last["status"]) == "succeeded"


def _refusal(reply: dict[str, Any], status: int) -> dict[str, Any]:
    assert reply["status"] == status
    assert int(reply["headers"]["retry-after"]) > 0
    body: dict[str, Any] = reply["json"]
    assert body["retryable"] is True
    return body


def test_runs_past_the_capacity_are_refused_at_once_and_ask_still_answers(tight: Served) -> None:
    first, second = tight.app_keys
    with ThreadPoolExecutor(max_workers=3) as pool:
        held: list[Future[dict[str, Any]]] = [pool.submit(tight.run, first), pool.submit(tight.run, first),
                                              pool.submit(tight.run, second, streaming=True)]
        tight.model.wait_for_calls(3)

        over_share = _refusal(tight.run(first), 429)
        assert over_share["code"] == "too_many_requests" and over_share["status"] == 429
        full = _refusal(tight.run(second), 503)
        assert full["code"] == "too_many_requests" and "workflows" in full["message"]
        stream_refused = tight.run(second, streaming=True)  # refused before any event: a plain JSON answer
        assert stream_refused["status"] == 503 and stream_refused["events"] == []

        asked = _ask(tight)
        assert asked.status_code == 200
        assert not any(run.done() for run in held)
        tight.model.gate.set()
        results = [run.result(PATIENCE) for run in held]
    assert [r["status"] for r in results] == [200, 200, 200]
    assert results[2]["events"][-1]["event"] == "workflow_finished"


def test_a_webhook_past_the_capacity_gets_the_webhook_refusal(tight: Served) -> None:
    n8n = {"X-N8N-API-KEY": tight.n8n_key}
    created = tight.client.post(f"{tight.base}/api/v1/workflows", json=echo_n8n(path="summarise"), headers=n8n)
    tight.client.post(f"{tight.base}/api/v1/workflows/{created.json()['id']}/activate", headers=n8n)
    first, second = tight.app_keys
    with ThreadPoolExecutor(max_workers=3) as pool:
        held = [pool.submit(tight.run, first), pool.submit(tight.run, first), pool.submit(tight.run, second)]
        tight.model.wait_for_calls(3)
        reply = tight.client.post(f"{tight.base}/webhook/summarise", json={"text": "x"})
        body = _refusal({"status": reply.status_code, "headers": reply.headers, "json": reply.json()}, 503)
        assert body["code"] == 503
        tight.model.gate.set()
        assert [run.result(PATIENCE)["status"] for run in held] == [200, 200, 200]
    reply = tight.client.post(f"{tight.base}/webhook/summarise", json={"text": "x"})
    assert reply.status_code == 200 and reply.json() == {"result": "x"}  # the places came back


def _activate_webhook(served: Served, path: str) -> None:
    n8n = {"X-N8N-API-KEY": served.n8n_key}
    created = served.client.post(f"{served.base}/api/v1/workflows", json=echo_n8n(path=path), headers=n8n)
    activated = served.client.post(f"{served.base}/api/v1/workflows/{created.json()['id']}/activate", headers=n8n)
    assert activated.status_code == 200, activated.text


def test_client_mistakes_get_their_own_answer_while_the_capacity_is_full(tight: Served) -> None:
    _activate_webhook(tight, "summarise")
    first, second = tight.app_keys
    orphan = create_app_key(tight.components, document=summarise_dsl())
    assert orphan.workflow is not None
    tight.components.store.delete(orphan.workflow.id)
    with ThreadPoolExecutor(max_workers=3) as pool:
        held = [pool.submit(tight.run, first), pool.submit(tight.run, first), pool.submit(tight.run, second)]
        tight.model.wait_for_calls(3)  # the process is full, and the first key is at its share
        unknown_path = tight.webhook("nobody-listens")
        unknown_key = tight.run("app-" + "0" * 48)
        deleted_app = tight.run(orphan.plaintext)
        with tight.gate_closed():
            closed = {"webhook": tight.webhook("summarise"), "blocking": tight.run(second),
                      "streaming": tight.run(second, streaming=True), "at its share": tight.run(first)}
        assert not any(run.done() for run in held)
        assert tight.components.capacity.in_flight() == 3
        tight.model.gate.set()
        assert [run.result(PATIENCE)["status"] for run in held] == [200, 200, 200]
    assert unknown_path.status_code == 404 and "not registered" in unknown_path.json()["message"]
    assert unknown_key["status"] == 401 and unknown_key["json"]["code"] == "unauthorized"
    assert deleted_app["status"] == 404 and deleted_app["json"]["code"] == "not_found"
    webhook = closed.pop("webhook")
    assert webhook.status_code == 403 and "RAGSPINE_DIFY_RUN_ENABLED" in webhook.json()["message"]
    for mode, reply in closed.items():
        assert (reply["status"], reply["json"]["code"]) == (403, "app_unavailable"), mode
        assert "retry-after" not in reply["headers"], mode
