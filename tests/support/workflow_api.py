"""Shared material for the workflow-surface tests: sample workflows, fixed keys and a wired test API."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragspine.llm.chat import Message
from ragspine.workflows.run.gate import ExecutionGate
from ragspine.workflows.surfaces.body_slots import (
    DEFAULT_CLIENT_SHARE,
    DEFAULT_MIN_RATE,
    DEFAULT_PATH_SHARE,
    BodySlots,
)
from ragspine.workflows.surfaces.components import WebhookPolicy, WorkflowComponents
from ragspine.workflows.surfaces.key_admin import create_app_key, create_n8n_key
from ragspine.workflows.surfaces.keys import key_record
from ragspine.workflows.surfaces.parse_budget import ParseBudget
from ragspine.workflows.surfaces.ports import RunStore, WorkflowStore
from ragspine.workflows.surfaces.rate_limit import TokenBucketLimiter
from ragspine.workflows.surfaces.records import KeyKind, StoredWorkflow
from ragspine.workflows.surfaces.registry import WorkflowRegistry
from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.fakes.llm import RecordingLLMProvider
from tests.support.cfn import REPO_ROOT

EVENTS_DIR = REPO_ROOT / "events"
# The keys the sample events in events/ carry; tests store their hashes, never the other way round.
EVENT_APP_KEY = "app-0a1b2c3d4e5f00112233445566778899aabbccddeeff00112233"
EVENT_N8N_KEY = "n8n_api_5f4e3d2c1b0affeeddccbbaa99887766554433221100ffeeddcc"
EVENT_WORKFLOW_ID = "Wf7sQ2kLm9XyZ3aB"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
LLM_REPLY = "A short summary."


def model_n8n(path: str = "ask") -> dict[str, Any]:
    """An n8n workflow (webhook -> model -> respond) that answers the model's reply to ``text`` as ``result``."""
    return {
        "name": "Ask the model by webhook", "settings": {"executionOrder": "v1"},
        "nodes": [
            {"id": "m1", "name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0],
             "parameters": {"httpMethod": "POST", "path": path, "responseMode": "responseNode", "options": {}}},
            {"id": "m2", "name": "Model", "type": "@n8n/n8n-nodes-langchain.openAi", "typeVersion": 1.8,
             "position": [300, 0],
             "parameters": {"resource": "text", "operation": "message", "options": {},
                            "modelId": {"__rl": True, "mode": "list", "value": "gpt-4o-mini"},
                            "messages": {"values": [{"content": "={{ $json.body.text }}", "role": "user"}]}}},
            {"id": "m3", "name": "Respond", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1,
             "position": [600, 0], "parameters": {"respondWith": "json", "options": {},
                                                  "responseBody": '={{ { "result": $json.message.content } }}'}},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Model", "type": "main", "index": 0}]]},
                        "Model": {"main": [[{"node": "Respond", "type": "main", "index": 0}]]}},
    }


def echo_n8n(path: str = "summarise", method: str = "POST", name: str = "Summarise by webhook") -> dict[str, Any]:
    """An n8n workflow (webhook -> Set -> respond) that echoes ``text``; it runs without any model."""
    event = json.loads((EVENTS_DIR / "workflow_n8n_create.json").read_text(encoding="utf-8"))
    body: dict[str, Any] = json.loads(event["body"])
    body["name"] = name
    body["nodes"][0]["parameters"].update(path=path, httpMethod=method)
    return body


def summarise_dsl() -> dict[str, Any]:
    """A Dify start -> llm -> end workflow taking ``text``."""
    from ragspine.workflows import description_from_text, scaffold_description

    return scaffold_description(description_from_text("Summarise {{text}} in one sentence")).document


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class WorkflowApi:
    """A TestClient over the local app whose workflow components are the test's own."""

    client: Any
    components: WorkflowComponents
    llm: RecordingLLMProvider
    app_key: str = ""
    n8n_key: str = ""
    dify_workflow: StoredWorkflow | None = None
    clock: FakeClock = field(default_factory=FakeClock)

    def dify(self, key: str | None = None) -> dict[str, str]:
        """Headers with a Bearer app key (this API's own by default)."""
        return {"Authorization": f"Bearer {key or self.app_key}"}

    def n8n(self, key: str | None = None) -> dict[str, str]:
        """Headers with an X-N8N-API-KEY (this API's own by default)."""
        return {"X-N8N-API-KEY": key or self.n8n_key}

    def close(self) -> None:
        """Close the client and the stores' connections (one per thread that used them)."""
        self.client.close()
        close_stores(self.components)


def close_stores(components: WorkflowComponents) -> None:
    """Close the workflow and run stores of ``components`` (those that hold connections)."""
    for store in (components.store, components.runs):
        close = getattr(store, "close", None)
        if callable(close):
            close()


def make_components(store: WorkflowStore, *, enabled: bool = True, llm: Any = None,
                    methods: tuple[str, ...] = ("GET", "POST"), max_bytes: int = 4096, burst: int = 100,
                    clock: Callable[[], float] | None = None, runs: RunStore | None = None,
                    bodies: int = 4, body_timeout_s: float = 30.0, path_share: float = DEFAULT_PATH_SHARE,
                    client_share: float = DEFAULT_CLIENT_SHARE, min_rate: float = DEFAULT_MIN_RATE,
                    grace_s: float | None = None, parse_budget: ParseBudget | None = None) -> WorkflowComponents:
    """Components over ``store`` with the gate, webhook limits and model the test asks for.

    Runs are recorded in ``runs``, or beside a SQLite workflow store in the same file. Body readers are never
    preempted before ``grace_s`` of ``clock`` (the whole body deadline unless given).
    """
    limiter = TokenBucketLimiter(rate_per_minute=60, burst=burst, clock=clock or time.monotonic)
    if runs is None and isinstance(store, SqliteWorkflowStore):
        runs = SqliteRunStore(store.path)
    return WorkflowComponents(store=store, runs=runs, gate=ExecutionGate(enabled=enabled), llm=llm,
                              webhook=WebhookPolicy(max_bytes=max_bytes, methods=frozenset(methods),
                                                    body_timeout_s=body_timeout_s),
                              limiter=limiter, clock=lambda: NOW,
                              body_slots=BodySlots(bodies, path_share=path_share, client_share=client_share,
                                                   min_rate=min_rate,
                                                   grace_s=body_timeout_s if grace_s is None else grace_s,
                                                   clock=clock or time.monotonic),
                              parse_budget=parse_budget or ParseBudget())


def build_api(store: WorkflowStore, *, enabled: bool = True,
              replies: Sequence[str] | Callable[[Sequence[Message]], str] = (LLM_REPLY,), **limits: Any) -> WorkflowApi:
    """The local app with a fake model (answering ``replies``), an app key over a summarise workflow, and an n8n key."""
    from fastapi.testclient import TestClient

    from ragspine.api.app import create_local_app
    from ragspine.api.workflow_deps import workflow_components

    llm = RecordingLLMProvider(replies)
    clock = FakeClock()
    components = make_components(store, enabled=enabled, llm=llm, clock=clock, **limits)
    app = create_local_app()
    app.dependency_overrides[workflow_components] = lambda: components
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(app)
    app_key = create_app_key(components, document=summarise_dsl())
    return WorkflowApi(client=client, components=components, llm=llm, app_key=app_key.plaintext,
                       n8n_key=create_n8n_key(components).plaintext, dify_workflow=app_key.workflow, clock=clock)


def seed_event_fixtures(store: WorkflowStore) -> StoredWorkflow:
    """Store the workflow and the key hashes the sample events expect (the app key opens that workflow)."""
    registry = WorkflowRegistry(store, clock=lambda: NOW, new_id=lambda: EVENT_WORKFLOW_ID)
    workflow = registry.create(echo_n8n())
    store.put_key(key_record(EVENT_APP_KEY, KeyKind.APP, created_at=NOW, workflow_id=workflow.id))
    store.put_key(key_record(EVENT_N8N_KEY, KeyKind.N8N, created_at=NOW))
    return workflow


def corpus_files() -> list[Path]:
    """The third-party Dify and n8n exports beside the project, if present."""
    corpus = REPO_ROOT.parent / "shared" / "corpus"
    return sorted([*corpus.glob("dify/*.yml"), *corpus.glob("n8n/*.json")]) if corpus.is_dir() else []
