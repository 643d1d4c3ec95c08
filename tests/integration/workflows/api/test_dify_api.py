"""The Dify-compatible API: Bearer app keys on every route, blocking and streaming runs, the gate both ways."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.workflow_api import EVENT_APP_KEY, LLM_REPLY, WorkflowApi

RUN = {"inputs": {"text": "The quarterly report is late."}, "user": "user-1"}
ROUTES = [("POST", "/v1/workflows/run", RUN), ("GET", "/v1/parameters", None), ("GET", "/v1/info", None)]
MISSING = "Authorization header must be provided and start with 'Bearer'"


def _call(api: WorkflowApi, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    return api.client.request(method, path, json=body, headers=headers)


def _events(text: str) -> list[dict[str, Any]]:
    chunks = [c for c in text.split("\n\n") if c]
    assert all(c.startswith("data: ") for c in chunks), text
    return [json.loads(c[len("data: "):]) for c in chunks]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=[r[1] for r in ROUTES])
class TestAuthOnEveryRoute:
    def test_no_header_is_401_with_difys_message(self, api: WorkflowApi, method: str, path: str, body: Any) -> None:
        reply = _call(api, method, path, body, {})
        assert reply.status_code == 401
        assert reply.json() == {"code": "unauthorized", "message": MISSING, "status": 401}

    @pytest.mark.parametrize("header", ["Basic dXNlcjpwYXNz", "Bearer", "Token app-abc"])
    def test_another_scheme_is_401(self, api: WorkflowApi, method: str, path: str, body: Any, header: str) -> None:
        reply = _call(api, method, path, body, {"Authorization": header})
        assert reply.status_code == 401 and reply.json()["message"] == MISSING

    @pytest.mark.parametrize("key", ["app-nonsense", EVENT_APP_KEY, "n8n"])
    def test_a_wrong_key_is_401(self, api: WorkflowApi, method: str, path: str, body: Any, key: str) -> None:
        presented = api.n8n_key if key == "n8n" else key
        reply = _call(api, method, path, body, api.dify(presented))
        assert reply.status_code == 401
        assert reply.json() == {"code": "unauthorized", "message": "Access token is invalid", "status": 401}

    def test_the_right_key_is_served(self, api: WorkflowApi, method: str, path: str, body: Any) -> None:
        assert _call(api, method, path, body, api.dify()).status_code == 200


class TestBlockingRun:
    def test_a_run_answers_difys_blocking_shape_with_the_models_text(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/run", json={**RUN, "response_mode": "blocking"}, headers=api.dify())
        body = reply.json()
        assert reply.status_code == 200 and set(body) == {"task_id", "workflow_run_id", "data"}
        data = body["data"]
        assert data["id"] == body["workflow_run_id"] and data["workflow_id"] == api.dify_workflow.id
        assert (data["status"], data["outputs"], data["error"], data["total_steps"]) == (
            "succeeded", {"result": LLM_REPLY}, None, 3)
        assert "The quarterly report is late." in api.llm.prompts[0]

    @pytest.mark.parametrize("body", [{"user": "u"}, {"inputs": {"text": "x"}}, {**RUN, "response_mode": "sync"},
                                      {**RUN, "files": [{"type": "image"}]}])
    def test_a_malformed_request_is_invalid_param(self, api: WorkflowApi, body: dict[str, Any]) -> None:
        reply = api.client.post("/v1/workflows/run", json=body, headers=api.dify())
        assert reply.status_code == 400 and reply.json()["code"] == "invalid_param"

    def test_missing_inputs_are_invalid_param_and_reach_no_model(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/run", json={"inputs": {}, "user": "u"}, headers=api.dify())
        assert reply.status_code == 400
        assert reply.json() == {"code": "invalid_param", "message": "input 'text' is required", "status": 400}
        assert api.llm.calls == []

    def test_a_key_whose_workflow_was_deleted_is_404(self, api: WorkflowApi) -> None:
        api.components.store.delete(api.dify_workflow.id)
        reply = api.client.post("/v1/workflows/run", json=RUN, headers=api.dify())
        assert reply.status_code == 404 and reply.json()["code"] == "not_found"


class TestStreamingRun:
    def test_events_follow_difys_names_and_framing(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/run", json={**RUN, "response_mode": "streaming"}, headers=api.dify())
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/event-stream")
        events = _events(reply.text)
        names = [e["event"] for e in events]
        assert names == ["workflow_started", "node_started", "node_finished", "node_started", "node_finished",
                         "text_chunk", "node_started", "node_finished", "workflow_finished"]
        assert len({e["workflow_run_id"] for e in events}) == 1 and len({e["task_id"] for e in events}) == 1
        assert events[5]["data"]["text"] == LLM_REPLY
        assert [e["data"]["index"] for e in events if e["event"] == "node_finished"] == [1, 2, 3]
        finished = events[-1]["data"]
        assert (finished["status"], finished["outputs"], finished["total_steps"]) == (
            "succeeded", {"result": LLM_REPLY}, 3)

    def test_bad_inputs_end_the_stream_with_an_error_event(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/run", json={"inputs": {}, "user": "u", "response_mode": "streaming"},
                                headers=api.dify())
        last = _events(reply.text)[-1]
        assert (last["event"], last["status"], last["code"]) == ("error", 400, "invalid_param")


class TestGateClosed:
    @pytest.mark.parametrize("mode", ["blocking", "streaming"])
    def test_every_run_is_refused_with_403_and_no_model_call(self, closed_api: WorkflowApi, mode: str) -> None:
        reply = closed_api.client.post("/v1/workflows/run", json={**RUN, "response_mode": mode},
                                       headers=closed_api.dify())
        assert reply.status_code == 403 and reply.headers["content-type"] == "application/json"
        body = reply.json()
        assert (body["code"], body["status"]) == ("app_unavailable", 403)
        assert "RAGSPINE_DIFY_RUN_ENABLED" in body["message"]
        assert closed_api.llm.calls == []

    def test_auth_is_still_checked_first(self, closed_api: WorkflowApi) -> None:
        assert closed_api.client.post("/v1/workflows/run", json=RUN).status_code == 401

    def test_reading_parameters_and_info_does_not_need_the_gate(self, closed_api: WorkflowApi) -> None:
        assert closed_api.client.get("/v1/info", headers=closed_api.dify()).status_code == 200


class TestAppMetadata:
    def test_parameters_list_the_start_inputs_as_difys_form(self, api: WorkflowApi) -> None:
        body = api.client.get("/v1/parameters", headers=api.dify()).json()
        assert body["user_input_form"] == [{"paragraph": {"label": "text", "variable": "text", "required": True,
                                                          "default": "", "max_length": 4000}}]
        assert body["file_upload"]["enabled"] is False and "system_parameters" in body

    def test_info_names_the_app_and_its_mode(self, api: WorkflowApi) -> None:
        body = api.client.get("/v1/info", headers=api.dify()).json()
        assert body == {"name": api.dify_workflow.name, "description": "Summarise {{text}} in one sentence",
                        "tags": [], "mode": "workflow", "author_name": ""}
