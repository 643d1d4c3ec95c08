"""Runs obey the gate before anything else, and webhooks apply their controls in a fixed order."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from ragspine.errors import PayloadTooLargeError
from ragspine.workflows.errors import WorkflowInputError, WorkflowRunDisabledError
from ragspine.workflows.surfaces.errors import (
    WebhookMethodNotAllowedError,
    WebhookRateLimitedError,
    WorkflowNotFoundError,
    WorkflowNotRunnableError,
)
from ragspine.workflows.surfaces.registry import WorkflowRegistry
from ragspine.workflows.surfaces.runs import run_stored, trigger_webhook, webhook_inputs
from tests.fakes.llm import RecordingLLMProvider
from tests.fakes.workflow_store import InMemoryWorkflowStore
from tests.support.workflow_api import NOW, FakeClock, echo_n8n, make_components

BODY = json.dumps({"text": "hello"}).encode()


@pytest.fixture
def store() -> InMemoryWorkflowStore:
    store = InMemoryWorkflowStore()
    registry = WorkflowRegistry(store, clock=lambda: NOW, new_id=lambda: "wf1")
    registry.set_active(registry.create(echo_n8n()).id, True)
    return store


class TestGate:
    def test_a_closed_gate_refuses_before_the_workflow_is_even_compiled(self, store: InMemoryWorkflowStore) -> None:
        # GIVEN a stored workflow with no runnable mapping and a closed gate
        broken = replace(store.workflows["wf1"], dify_dsl=None)
        llm = RecordingLLMProvider(["x"])
        # WHEN it is run THEN the gate answers, not the missing mapping, and no model is called
        with pytest.raises(WorkflowRunDisabledError):
            run_stored(broken, {}, components=make_components(store, enabled=False, llm=llm))
        assert llm.calls == []

    def test_an_open_gate_reaches_the_mapping_check(self, store: InMemoryWorkflowStore) -> None:
        broken = replace(store.workflows["wf1"], dify_dsl=None)
        with pytest.raises(WorkflowNotRunnableError):
            run_stored(broken, {}, components=make_components(store))

    def test_an_open_gate_runs_the_workflow(self, store: InMemoryWorkflowStore) -> None:
        result = run_stored(store.workflows["wf1"], {"text": "hi"}, components=make_components(store))
        assert dict(result.outputs) == {"result": "hi"}


class TestWebhookOrder:
    def test_method_comes_first(self, store: InMemoryWorkflowStore) -> None:
        components = make_components(store, enabled=False, max_bytes=1)
        with pytest.raises(WebhookMethodNotAllowedError) as caught:
            trigger_webhook("summarise", "PUT", BODY, {}, components=components)
        assert caught.value.allowed == ("GET", "POST")

    def test_size_comes_before_the_gate(self, store: InMemoryWorkflowStore) -> None:
        with pytest.raises(PayloadTooLargeError):
            trigger_webhook("summarise", "POST", BODY, {}, components=make_components(store, enabled=False, max_bytes=4))

    def test_the_gate_comes_before_the_lookup(self, store: InMemoryWorkflowStore) -> None:
        store.calls.clear()
        with pytest.raises(WorkflowRunDisabledError):
            trigger_webhook("unknown", "POST", BODY, {}, components=make_components(store, enabled=False))
        assert not any(call.startswith("find_active") for call in store.calls)

    @pytest.mark.parametrize(("path", "method"), [("unknown", "POST"), ("summarise", "GET")])
    def test_unknown_paths_and_other_methods_are_not_registered(self, store: InMemoryWorkflowStore, path: str,
                                                               method: str) -> None:
        with pytest.raises(WorkflowNotFoundError, match="not registered"):
            trigger_webhook(path, method, BODY, {}, components=make_components(store))

    def test_the_rate_limit_applies_to_the_known_path(self, store: InMemoryWorkflowStore) -> None:
        components = make_components(store, burst=1, clock=FakeClock())
        trigger_webhook("summarise", "POST", BODY, {}, components=components)
        with pytest.raises(WebhookRateLimitedError) as caught:
            trigger_webhook("/summarise/", "POST", BODY, {}, components=components)
        assert caught.value.retry_after == 1  # 60 per minute: one token a second


class TestInputs:
    def test_the_json_body_overlays_the_query(self) -> None:
        assert webhook_inputs("POST", b'{"a": 2}', {"a": "1", "b": "x"}) == {"a": 2, "b": "x"}

    def test_get_bodies_are_ignored(self) -> None:
        assert webhook_inputs("GET", b"not json", {"q": "1"}) == {"q": "1"}

    @pytest.mark.parametrize("payload", [b"[1]", b"{broken", b"\xff"])
    def test_a_body_that_is_not_a_json_object_is_refused(self, payload: bytes) -> None:
        with pytest.raises(WorkflowInputError):
            webhook_inputs("POST", payload, {})
