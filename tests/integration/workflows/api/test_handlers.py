"""The workflow and webhook Lambda handlers answer the sample events in events/ (as sam local invoke would)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ragspine.aws.dynamo_workflows import DynamoWorkflowStore
from ragspine.settings import Settings, get_settings
from tests.conftest import FACTS_TABLE
from tests.support.process_caches import close_services
from tests.support.workflow_api import EVENT_WORKFLOW_ID, seed_event_fixtures

Reply = tuple[int, Any, dict[str, str]]
Invoke = Callable[[str], Reply]


@pytest.fixture
def deployed(settings: Settings, aws: Any, workflows_table: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The environment template.yaml gives the functions, over moto tables holding the events' fixtures."""
    monkeypatch.setenv("RAGSPINE_BACKEND", "aws")
    monkeypatch.setenv("RAGSPINE_FACTS_TABLE", FACTS_TABLE)
    monkeypatch.setenv("RAGSPINE_WORKFLOWS_TABLE", workflows_table)
    get_settings.cache_clear()
    close_services()
    seed_event_fixtures(DynamoWorkflowStore(workflows_table, client=aws))
    yield monkeypatch
    get_settings.cache_clear()
    close_services()


def _invoker(module_name: str, load_event: Any, lambda_context: Any) -> Invoke:
    module = importlib.import_module(module_name)

    def call(name: str) -> Reply:
        response = module.handler(load_event(name), lambda_context)
        headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        body = response.get("body") or ""
        parsed = json.loads(body) if headers.get("content-type", "").startswith("application/json") else body
        return response["statusCode"], parsed, headers

    return call


@pytest.fixture
def workflow(deployed: Any, load_event: Any, lambda_context: Any) -> Invoke:
    return _invoker("functions.workflow.app", load_event, lambda_context)


@pytest.fixture
def webhook(deployed: Any, load_event: Any, lambda_context: Any) -> Invoke:
    return _invoker("functions.webhook.app", load_event, lambda_context)


def _open_gate(deployed: Any) -> None:
    deployed.setenv("RAGSPINE_DIFY_RUN_ENABLED", "true")
    get_settings.cache_clear()
    close_services()


class TestOrdinaryEvents:
    @pytest.mark.parametrize("name", ["workflow_compile", "workflow_preview", "workflow_analyze", "workflow_convert",
                                      "workflow_scaffold", "workflow_catalog_search", "workflow_catalog_entry"])
    def test_each_ordinary_event_is_answered(self, workflow: Invoke, name: str) -> None:
        status, body, _ = workflow(name)
        assert status == 200, body

    def test_the_malformed_event_is_400_with_its_position(self, workflow: Invoke) -> None:
        status, body, _ = workflow("workflow_analyze_malformed")
        assert status == 400 and body["meta"]["error"]["fieldErrors"][0]["field"] == "3:1"


class TestDifyEvents:
    def test_runs_are_refused_while_the_gate_is_closed(self, workflow: Invoke) -> None:
        status, body, _ = workflow("workflow_dify_run")
        assert status == 403 and body["code"] == "app_unavailable"

    def test_a_blocking_run_with_the_gate_open(self, workflow: Invoke, deployed: Any) -> None:
        _open_gate(deployed)
        status, body, _ = workflow("workflow_dify_run")
        assert status == 200 and body["data"]["outputs"] == {"result": "Hello"}
        assert body["data"]["workflow_id"] == EVENT_WORKFLOW_ID

    def test_a_streaming_run_with_the_gate_open(self, workflow: Invoke, deployed: Any) -> None:
        _open_gate(deployed)
        status, body, headers = workflow("workflow_dify_run_streaming")
        assert status == 200 and headers["content-type"].startswith("text/event-stream")
        assert body.startswith("data: ") and '"event": "workflow_finished"' in body

    def test_no_key_is_401(self, workflow: Invoke) -> None:
        status, body, _ = workflow("workflow_dify_run_no_key")
        assert status == 401 and body["code"] == "unauthorized"

    @pytest.mark.parametrize("name", ["workflow_dify_parameters", "workflow_dify_info"])
    def test_metadata_events(self, workflow: Invoke, name: str) -> None:
        assert workflow(name)[0] == 200


class TestN8nEvents:
    def test_the_crud_events_in_lifecycle_order(self, workflow: Invoke) -> None:
        answers = {name: workflow(name) for name in ("workflow_n8n_list", "workflow_n8n_create", "workflow_n8n_get",
                                                     "workflow_n8n_update", "workflow_n8n_activate",
                                                     "workflow_n8n_deactivate", "workflow_n8n_delete")}
        assert {name: status for name, (status, _, _) in answers.items()} == dict.fromkeys(answers, 200)
        assert answers["workflow_n8n_update"][1]["name"] == "Summarise by webhook v2"
        assert answers["workflow_n8n_activate"][1]["active"] is True

    def test_create_with_active_is_400(self, workflow: Invoke) -> None:
        status, body, _ = workflow("workflow_n8n_create_active")
        assert status == 400 and body == {"message": "request/body/active is read-only"}


class TestWebhookEvents:
    def test_post_runs_the_active_workflow_once_the_gate_is_open(self, webhook: Invoke, workflow: Invoke,
                                                                 deployed: Any) -> None:
        assert webhook("webhook_post")[0] == 403  # gate closed: refused before any lookup
        _open_gate(deployed)
        assert webhook("webhook_post")[0] == 404  # not active yet
        workflow("workflow_n8n_activate")
        status, body, _ = webhook("webhook_post")
        assert status == 200 and body == {"result": "Please summarise this."}

    @pytest.mark.parametrize(("name", "expected"), [("webhook_get", 404), ("webhook_put", 405),
                                                    ("webhook_patch", 405), ("webhook_delete", 405),
                                                    ("webhook_head", 405)])
    def test_other_methods(self, webhook: Invoke, workflow: Invoke, deployed: Any, name: str, expected: int) -> None:
        _open_gate(deployed)
        workflow("workflow_n8n_activate")
        assert webhook(name)[0] == expected


class TestRunHistoryEvents:
    def test_a_webhook_run_is_an_execution_in_dynamodb(self, webhook: Invoke, workflow: Invoke,
                                                       deployed: Any) -> None:
        assert workflow("workflow_n8n_executions")[1] == {"data": [], "nextCursor": None}
        _open_gate(deployed)
        workflow("workflow_n8n_activate")
        assert webhook("webhook_post")[0] == 200
        status, body, _ = workflow("workflow_n8n_executions")
        assert status == 200 and [(e["id"], e["status"], e["mode"]) for e in body["data"]] == [(1, "success",
                                                                                                "webhook")]
        status, one, _ = workflow("workflow_n8n_execution")
        assert status == 200 and one["workflowId"] == EVENT_WORKFLOW_ID and "resultData" in one["data"]
        assert workflow("workflow_n8n_execution_delete")[0] == 200
        assert workflow("workflow_n8n_execution")[0] == 404

    def test_dify_run_detail_and_stop_events(self, workflow: Invoke, deployed: Any) -> None:
        status, body, _ = workflow("workflow_dify_run_detail")
        assert status == 404 and body["code"] == "not_found"
        assert workflow("workflow_dify_stop")[1] == {"result": "success"}
