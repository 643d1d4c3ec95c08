"""A real third-party Dify client (dify-client-python, from PyPI) against our Dify-compatible API over a real socket.

The app runs in uvicorn on 127.0.0.1 (a free port) with a stored start -> llm -> end workflow and
its app key; the client runs it blocking and streaming and parses every event into its own typed
models, which is what a Dify integration would do. The client has no method for the run detail,
so the detail is read through its own request machinery (auth header, error mapping) and parsed
into its run model.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from ragspine.settings import Settings
from ragspine.workflows.surfaces.key_admin import create_app_key
from ragspine.workflows.surfaces.sqlite_runs import SqliteRunStore
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.fakes.llm import RecordingLLMProvider
from tests.support.loopback import serve
from tests.support.workflow_api import LLM_REPLY, make_components, summarise_dsl

dify_client = pytest.importorskip("dify_client")
pytest.importorskip("uvicorn")
from dify_client import models  # noqa: E402


@dataclass(frozen=True)
class DifyServer:
    """Where the app listens, and the app key of its stored workflow."""

    base_url: str
    app_key: str
    workflow_id: str
    model_free: threading.Event


@pytest.fixture
def dify_server(settings: Settings, tmp_path: Any) -> Iterator[DifyServer]:
    from ragspine.api.app import create_local_app
    from ragspine.api.workflow_deps import workflow_components

    model_free = threading.Event()
    model_free.set()

    def reply(_: Any) -> str:  # a model that answers once the test lets it (the stop test holds it)
        model_free.wait(timeout=30)
        return LLM_REPLY

    store = SqliteWorkflowStore(tmp_path / "workflows.db")
    runs = SqliteRunStore(store.path)
    components = make_components(store, enabled=True, llm=RecordingLLMProvider(reply), runs=runs)
    key = create_app_key(components, document=summarise_dsl())
    app = create_local_app()
    app.dependency_overrides[workflow_components] = lambda: components
    with serve(app, name="dify-client-uvicorn") as base_url:
        yield DifyServer(f"{base_url}/v1", key.plaintext, key.workflow.id, model_free)
        model_free.set()
    runs.close()
    store.close()

def _client(server: DifyServer) -> Any:
    return dify_client.Client(api_key=server.app_key, api_base=server.base_url)


def _run_detail(server: DifyServer, run_id: str) -> Any:
    client = _client(server)
    reply = client.request(client._prepare_url("/workflows/run/{run_id}", run_id=run_id), "GET")
    return models.WorkflowFinishedData.model_validate(reply.json()), reply.json()


def test_a_blocking_run_parses_into_the_clients_models(dify_server: DifyServer) -> None:
    request = models.WorkflowsRunRequest(inputs={"text": "A long report."}, response_mode=models.ResponseMode.BLOCKING,
                                         user="client-test")
    reply = _client(dify_server).run_workflows(request)
    assert isinstance(reply, models.WorkflowsRunResponse)
    assert reply.data.status == models.WorkflowStatus.SUCCEEDED and reply.data.workflow_id == dify_server.workflow_id
    assert reply.data.outputs and LLM_REPLY in reply.data.outputs.values()
    assert reply.workflow_run_id == reply.data.id and reply.task_id
    detail, raw = _run_detail(dify_server, reply.workflow_run_id)
    assert (detail.id, detail.status, detail.outputs) == (reply.data.id, reply.data.status, reply.data.outputs)
    assert raw["inputs"] == {"text": "A long report."} and detail.total_steps == 3


def test_an_unknown_run_raises_the_clients_not_found_error(dify_server: DifyServer) -> None:
    from dify_client import errors

    with pytest.raises(errors.DifyResourceNotFound) as caught:
        _run_detail(dify_server, "5d3c1a52-0000-4000-8000-000000000000")
    assert caught.value.status == 404 and caught.value.code == "not_found"


def test_a_streamed_run_parses_every_event(dify_server: DifyServer) -> None:
    request = models.WorkflowsRunRequest(inputs={"text": "A long report."},
                                         response_mode=models.ResponseMode.STREAMING, user="client-test")
    events = list(_client(dify_server).run_workflows(request))
    names = [str(e.event) for e in events]
    assert names[0] == "workflow_started" and names[-1] == "workflow_finished"
    assert names.count("node_started") == names.count("node_finished") == 3 and "text_chunk" in names
    expected = {"workflow_started": models.WorkflowStartedData, "node_started": models.NodeStartedData,
                "node_finished": models.NodeFinishedData, "workflow_finished": models.WorkflowFinishedData}
    typed: list[Any] = []
    for event in events:
        name = str(event.event)
        if name in expected:
            # The client's untagged union leaves some events as dicts (as it does with Dify's own); its typed
            # model must still accept each one, required fields and enums included.
            data = event.data
            typed.append(data if isinstance(data, expected[name]) else expected[name].model_validate(data))
        else:
            assert isinstance(event, models.TextChunkStreamResponse) and event.data.text == LLM_REPLY
    assert len({e.task_id for e in events}) == 1 and len({e.workflow_run_id for e in events}) == 1
    assert {t.status for t in typed if isinstance(t, models.NodeFinishedData)} == {models.WorkflowStatus.SUCCEEDED}
    finished = typed[-1]
    assert finished.status == models.WorkflowStatus.SUCCEEDED and LLM_REPLY in (finished.outputs or {}).values()
    detail, _ = _run_detail(dify_server, events[0].workflow_run_id)
    assert detail.status == models.WorkflowStatus.SUCCEEDED and detail.outputs == finished.outputs


def test_a_wrong_key_raises_the_clients_unauthorized_error(dify_server: DifyServer) -> None:
    from dify_client import errors

    client = dify_client.Client(api_key="app-not-a-key", api_base=dify_server.base_url)
    request = models.WorkflowsRunRequest(inputs={"text": "x"}, response_mode=models.ResponseMode.BLOCKING, user="u")
    with pytest.raises(errors.DifyAPIError) as caught:
        client.run_workflows(request)
    assert caught.value.status == 401 and caught.value.code == "unauthorized"


def test_the_client_stops_a_streamed_run(dify_server: DifyServer) -> None:
    dify_server.model_free.clear()  # the llm node waits, so the run is still going when we stop it
    client = _client(dify_server)
    request = models.WorkflowsRunRequest(inputs={"text": "A long report."},
                                         response_mode=models.ResponseMode.STREAMING, user="client-test")
    stream = iter(client.run_workflows(request))
    started = next(stream)
    assert str(started.event) == "workflow_started"
    stopped = client.stop_workflows(started.task_id, models.StopRequest(user="client-test"))
    assert isinstance(stopped, models.StopResponse) and stopped.result == "success"
    rest = list(stream)
    last = rest[-1]
    assert str(last.event) == "workflow_finished"
    finished = models.WorkflowFinishedData.model_validate(last.data if isinstance(last.data, dict)
                                                          else last.data.model_dump())
    assert finished.status == models.WorkflowStatus.STOPPED and not finished.outputs
    assert "text_chunk" not in [str(e.event) for e in rest]
    dify_server.model_free.set()  # the held node finishes in its thread; the record stays stopped
    detail, _ = _run_detail(dify_server, started.workflow_run_id)
    assert detail.status == models.WorkflowStatus.STOPPED and detail.error == "stopped by the user"


def test_another_user_cannot_stop_the_run(dify_server: DifyServer) -> None:
    dify_server.model_free.clear()
    client = _client(dify_server)
    request = models.WorkflowsRunRequest(inputs={"text": "A long report."},
                                         response_mode=models.ResponseMode.STREAMING, user="owner")
    stream = iter(client.run_workflows(request))
    started = next(stream)
    assert client.stop_workflows(started.task_id, models.StopRequest(user="someone-else")).result == "success"
    dify_server.model_free.set()
    last = list(stream)[-1]
    assert str(last.event) == "workflow_finished"
    assert models.WorkflowFinishedData.model_validate(
        last.data if isinstance(last.data, dict) else last.data.model_dump()).status == models.WorkflowStatus.SUCCEEDED
    assert _run_detail(dify_server, started.workflow_run_id)[0].status == models.WorkflowStatus.SUCCEEDED
