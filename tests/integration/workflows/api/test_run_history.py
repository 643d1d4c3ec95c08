"""Recorded runs read back: Dify's run detail per app, n8n's executions over the webhook runs."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from ragspine.workflows.surfaces.key_admin import create_app_key
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.fakes.llm import FailingLLMProvider
from tests.support.workflow_api import LLM_REPLY, NOW, WorkflowApi, build_api, echo_n8n, make_components, summarise_dsl

RUN = {"inputs": {"text": "The quarterly report is late."}, "user": "user-1", "response_mode": "blocking"}
EXECUTIONS = "/api/v1/executions"
DETAIL_KEYS = {"id", "workflow_id", "status", "inputs", "outputs", "error", "total_steps", "total_tokens",
               "created_at", "finished_at", "elapsed_time"}


def _blocking(api: WorkflowApi, key: str | None = None) -> str:
    reply = api.client.post("/v1/workflows/run", json=RUN, headers=api.dify(key))
    assert reply.status_code == 200, reply.text
    return str(reply.json()["workflow_run_id"])


def _detail(api: WorkflowApi, run_id: str, key: str | None = None) -> Any:
    return api.client.get(f"/v1/workflows/run/{run_id}", headers=api.dify(key))


def _hook(api: WorkflowApi, *, path: str = "summarise") -> str:
    body = api.client.post("/api/v1/workflows", json=echo_n8n(path=path, name=f"Echo {path}"),
                           headers=api.n8n()).json()
    assert api.client.post(f"/api/v1/workflows/{body['id']}/activate", headers=api.n8n()).status_code == 200
    return str(body["id"])


def _fire(api: WorkflowApi, text: str, *, path: str = "summarise") -> None:
    assert api.client.post(f"/webhook/{path}", json={"text": text}).status_code == 200


class TestDifyRunDetail:
    def test_a_blocking_run_reads_back_in_difys_shape(self, api: WorkflowApi) -> None:
        run_id = _blocking(api)
        reply = _detail(api, run_id)
        body = reply.json()
        assert reply.status_code == 200 and set(body) == DETAIL_KEYS
        assert (body["id"], body["workflow_id"], body["status"]) == (run_id, api.dify_workflow.id, "succeeded")
        assert body["inputs"] == RUN["inputs"] and body["outputs"] == {"result": LLM_REPLY}
        assert (body["error"], body["total_steps"], body["total_tokens"]) == (None, 3, 0)
        assert body["created_at"] == body["finished_at"] == int(NOW.timestamp())
        assert isinstance(body["elapsed_time"], float) and body["elapsed_time"] >= 0

    def test_a_streamed_run_reads_back_under_its_stream_run_id(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/run", json={**RUN, "response_mode": "streaming"}, headers=api.dify())
        events = [json.loads(c[len("data: "):]) for c in reply.text.split("\n\n") if c]
        run_id = events[-1]["workflow_run_id"]
        body = _detail(api, run_id).json()
        assert (body["status"], body["outputs"], body["total_steps"]) == ("succeeded", {"result": LLM_REPLY}, 3)
        assert body["inputs"] == RUN["inputs"]

    def test_an_unknown_run_is_404_in_difys_shape(self, api: WorkflowApi) -> None:
        reply = _detail(api, "0b0e7e4b-0000-4000-8000-000000000000")
        assert reply.status_code == 404
        body = reply.json()
        assert (body["code"], body["status"]) == ("not_found", 404) and "not found" in body["message"]

    def test_another_apps_run_is_404_and_shows_nothing_of_its_inputs(self, api: WorkflowApi) -> None:
        run_id = _blocking(api)
        other = create_app_key(api.components, document=summarise_dsl()).plaintext
        reply = _detail(api, run_id, other)
        assert reply.status_code == 404 and "quarterly" not in reply.text
        assert _detail(api, run_id).status_code == 200  # the owner still reads it

    def test_a_webhook_run_is_not_readable_with_an_app_key(self, api: WorkflowApi) -> None:
        _hook(api)
        run_id = api.client.post("/webhook/summarise", json={"text": "x"}).headers["x-workflow-run-id"]
        assert _detail(api, run_id).status_code == 404

    def test_a_run_that_fails_at_a_node_reads_back_failed(self, sqlite_store: SqliteWorkflowStore) -> None:
        from fastapi.testclient import TestClient

        from ragspine.api.app import create_local_app
        from ragspine.api.workflow_deps import workflow_components

        components = make_components(sqlite_store, enabled=True, llm=FailingLLMProvider())
        key = create_app_key(components, document=summarise_dsl()).plaintext
        app = create_local_app()
        app.dependency_overrides[workflow_components] = lambda: components
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            client = TestClient(app)
        ran = client.post("/v1/workflows/run", json=RUN, headers={"Authorization": f"Bearer {key}"}).json()
        body = client.get(f"/v1/workflows/run/{ran['workflow_run_id']}",
                          headers={"Authorization": f"Bearer {key}"}).json()
        assert (body["status"], body["outputs"], body["total_steps"]) == ("failed", {}, 2)
        assert body["error"] and body["error"] == ran["data"]["error"]

    def test_inputs_the_start_node_refuses_are_a_failed_run(self, api: WorkflowApi) -> None:
        reply = api.client.post("/v1/workflows/run", json={**RUN, "inputs": {"text": 5}}, headers=api.dify())
        assert reply.status_code == 400
        runs = api.components.runs
        assert runs is not None
        page = runs.page(owner=api.dify_workflow.id, limit=5)
        assert [(r.status.value, r.inputs) for r in page.items] == [("failed", {"text": 5})]
        assert "must be a string" in (page.items[0].error or "")

    def test_a_stop_marks_the_recorded_run_stopped_for_its_user_only(self, api: WorkflowApi) -> None:
        from ragspine.workflows.surfaces import run_log
        from ragspine.workflows.surfaces.run_records import RunSurface

        assert api.dify_workflow is not None
        running = run_log.record_start(api.components, api.dify_workflow, {"text": "x"}, surface=RunSurface.DIFY,
                                user="owner", task_id="task-1")
        stop = "/v1/workflows/tasks/task-1/stop"
        assert api.client.post(stop, json={"user": "intruder"}, headers=api.dify()).json() == {"result": "success"}
        assert _detail(api, running.id).json()["status"] == "running"
        assert api.client.post(stop, json={"user": "owner"}, headers=api.dify()).json() == {"result": "success"}
        body = _detail(api, running.id).json()
        assert (body["status"], body["error"]) == ("stopped", "stopped by the user")
        assert body["finished_at"] is not None


class TestN8nExecutions:
    def test_a_webhook_run_is_listed_in_n8ns_shape(self, api: WorkflowApi) -> None:
        workflow_id = _hook(api)
        _fire(api, "hello")
        reply = api.client.get(EXECUTIONS, headers=api.n8n())
        assert reply.status_code == 200
        body = reply.json()
        assert body["nextCursor"] is None and len(body["data"]) == 1
        execution = body["data"][0]
        assert isinstance(execution["id"], int) and "data" not in execution
        assert {k: execution[k] for k in ("finished", "mode", "status", "workflowId", "retryOf", "waitTill")} == {
            "finished": True, "mode": "webhook", "status": "success", "workflowId": workflow_id, "retryOf": None,
            "waitTill": None}
        assert execution["startedAt"] == execution["stoppedAt"] == "2026-11-30T09:00:00.000Z"

    def test_include_data_gives_each_nodes_output(self, api: WorkflowApi) -> None:
        _hook(api)
        _fire(api, "hello")
        listed = api.client.get(EXECUTIONS, params={"includeData": "true"}, headers=api.n8n()).json()["data"][0]
        result = listed["data"]["resultData"]
        outputs = {name: runs[0]["data"]["main"][0][0]["json"] for name, runs in result["runData"].items()}
        assert {"text": "hello"} in outputs.values() and {"result": "hello"} in outputs.values()
        assert result["lastNodeExecuted"] in result["runData"]
        one = api.client.get(f"{EXECUTIONS}/{listed['id']}", params={"includeData": "true"}, headers=api.n8n())
        assert one.status_code == 200 and one.json() == listed

    def test_dify_runs_are_not_executions(self, api: WorkflowApi) -> None:
        _blocking(api)
        assert api.client.get(EXECUTIONS, headers=api.n8n()).json() == {"data": [], "nextCursor": None}

    def test_pages_walk_every_run_newest_first(self, api: WorkflowApi) -> None:
        _hook(api)
        for n in range(5):
            _fire(api, f"run {n}")
        seen: list[int] = []
        cursor: str | None = None
        sizes = []
        while True:
            params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
            page = api.client.get(EXECUTIONS, params=params, headers=api.n8n()).json()
            sizes.append(len(page["data"]))
            seen.extend(e["id"] for e in page["data"])
            cursor = page["nextCursor"]
            if cursor is None:
                break
        assert sizes == [2, 2, 1] and seen == sorted(seen, reverse=True) and len(set(seen)) == 5

    def test_filters_by_workflow_and_status(self, api: WorkflowApi) -> None:
        first, second = _hook(api, path="one"), _hook(api, path="two")
        _fire(api, "a", path="one")
        _fire(api, "b", path="two")
        _fire(api, "c", path="two")

        def ids(**params: Any) -> list[str]:
            data = api.client.get(EXECUTIONS, params=params, headers=api.n8n()).json()["data"]
            return [e["workflowId"] for e in data]

        assert ids(workflowId=first) == [first] and ids(workflowId=second) == [second, second]
        assert len(ids(status="success")) == 3
        assert ids(status="error") == ids(status="waiting") == ids(status="canceled") == []

    def test_get_and_delete_one(self, api: WorkflowApi) -> None:
        _hook(api)
        _fire(api, "hello")
        execution_id = api.client.get(EXECUTIONS, headers=api.n8n()).json()["data"][0]["id"]
        deleted = api.client.delete(f"{EXECUTIONS}/{execution_id}", headers=api.n8n())
        assert deleted.status_code == 200 and deleted.json()["id"] == execution_id
        gone = api.client.get(f"{EXECUTIONS}/{execution_id}", headers=api.n8n())
        assert gone.status_code == 404 and gone.json() == {"message": f"execution {execution_id} not found"}
        assert api.client.delete(f"{EXECUTIONS}/{execution_id}", headers=api.n8n()).status_code == 404

    @pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 251}, {"cursor": "not-a-cursor"},
                                        {"status": "finished"}, {"includeData": "maybe"}])
    def test_bad_queries_are_400_in_n8ns_shape(self, api: WorkflowApi, params: dict[str, Any]) -> None:
        reply = api.client.get(EXECUTIONS, params=params, headers=api.n8n())
        assert reply.status_code == 400 and set(reply.json()) == {"message"}

    @pytest.mark.parametrize("execution_id", ["abc", "0", str(2**60)])
    def test_an_id_that_is_not_an_execution_number_is_400(self, api: WorkflowApi, execution_id: str) -> None:
        reply = api.client.get(f"{EXECUTIONS}/{execution_id}", headers=api.n8n())
        assert reply.status_code == 400 and set(reply.json()) == {"message"}

    @pytest.mark.parametrize("method", ["GET", "DELETE"])
    def test_every_route_needs_the_n8n_key(self, api: WorkflowApi, method: str) -> None:
        path = EXECUTIONS if method == "GET" else f"{EXECUTIONS}/1"
        reply = api.client.request(method, path)
        assert reply.status_code == 401 and reply.json() == {"message": "'X-N8N-API-KEY' header required"}
        assert api.client.request(method, path, headers=api.dify()).status_code == 401


@pytest.fixture
def retained(sqlite_store: SqliteWorkflowStore) -> Iterator[WorkflowApi]:
    """An API whose run store keeps three runs."""
    from ragspine.workflows.surfaces.run_records import RunRetention
    from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore

    built = build_api(sqlite_store, enabled=True,
                      runs=SqliteRunStore(sqlite_store.path, retention=RunRetention(max_runs=3)))
    yield built
    built.close()


def test_retention_keeps_the_newest_runs(retained: WorkflowApi) -> None:
    _hook(retained)
    for n in range(5):
        _fire(retained, f"run {n}")
    data = retained.client.get(EXECUTIONS, params={"includeData": "true"}, headers=retained.n8n()).json()["data"]
    texts = [next(r[0]["data"]["main"][0][0]["json"] for r in e["data"]["resultData"]["runData"].values())
             for e in data]
    assert texts == [{"text": "run 4"}, {"text": "run 3"}, {"text": "run 2"}]
