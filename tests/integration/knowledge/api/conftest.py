"""The Gateway over HTTP with a fresh state and a client holding a real token, on either backend.

``backend`` is ``embedded`` (the local app: knowledge.db, files in the data folder, the in-process
runner in a worker thread) unless a module is marked ``both_backends``: its tests then run on each of
``BACKENDS`` (a test that parametrizes ``backend`` itself keeps its own values); ``aws`` is the
Knowledge Lambda's own app on the stack of template.yaml under moto (the knowledge and ingest
tables in DynamoDB, presigned S3 uploads, each operation one execution of the real ingest state
machine whose Tasks run the worker in-process).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ragspine.api.app import create_local_app
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.errors import ProviderUnavailableError
from ragspine.ingestion.operations import Operation
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction, StepResult
from ragspine.settings import Settings, get_settings
from tests.support.knowledge_api import Gateway, issue_token
from tests.support.process_caches import close_knowledge_gateway
from tests.support.stack import deploy_stack, wait_for_executions

BACKENDS = ["embedded", "aws"]


def _parametrized_names(mark: pytest.Mark) -> list[str]:
    names = mark.args[0] if mark.args else mark.kwargs["argnames"]
    return [name.strip() for name in names.split(",")] if isinstance(names, str) else list(names)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test of a module marked ``both_backends`` on every backend."""
    if "backend" not in metafunc.fixturenames or metafunc.definition.get_closest_marker("both_backends") is None:
        return
    if any("backend" in _parametrized_names(mark) for mark in metafunc.definition.iter_markers("parametrize")):
        return  # the test chose its backends (e.g. embedded only)
    metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The embedded default, or the backend ``pytest_generate_tests`` gave this test."""
    return str(getattr(request, "param", "embedded"))


@pytest.fixture(scope="module")
def osmem() -> Iterator[str]:
    """The search domain of the AWS backend: one osmem-server per module (each stack has its own index)."""
    pytest.importorskip("osmem_server", reason="osmem-server (PyPI) stands in for the OpenSearch domain")
    from osmem_server import OsmemServer

    server = OsmemServer.start(addr="127.0.0.1:0")
    yield str(server.url)
    server.close()


@pytest.fixture
def gateway(settings: Settings, backend: str, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest,
            load_event: Callable[[str], dict[str, Any]], lambda_context: Any) -> Iterator[Gateway]:
    """An admin client of a fresh Gateway."""
    close_knowledge_gateway()
    if backend == "embedded":
        with TestClient(create_local_app(settings), raise_server_exceptions=False) as client:
            gw = Gateway(client, settings, issue_token())
            yield gw
            gw.settle()
        close_knowledge_gateway()
        return
    # Development assertions (HS256) here: identity in production has its own tests (whole_stack).
    with deploy_stack(monkeypatch, load_event, lambda_context, search_endpoint=request.getfixturevalue("osmem"),
                      extra_environment={"RAGSPINE_ENV": "test"}) as stack:
        app = importlib.import_module("functions.knowledge.app")._app
        with TestClient(app, raise_server_exceptions=False) as client:
            gw = Gateway(client, get_settings(), issue_token(), settler=lambda: wait_for_executions(stack), stack=stack)
            yield gw
            gw.settle()


@dataclass
class Runs:
    """Controls over the Gateway's ingestion runs: hold them before fetch, or make the index unavailable."""

    hold: threading.Event = field(default_factory=threading.Event)
    index_down: bool = False
    real: dict[Step, StepFunction] = field(default_factory=lambda: dict(STEPS))

    def __post_init__(self) -> None:
        self.hold.set()

    def steps(self) -> dict[Step, StepFunction]:
        def fetch(operation: Operation, context: StepContext) -> StepResult:
            assert self.hold.wait(timeout=60), "a test held a run and never released it"
            return self.real[Step.FETCH](operation, context)

        def index(operation: Operation, context: StepContext) -> StepResult:
            if self.index_down:
                raise ProviderUnavailableError("the chunk index is unreachable")
            return self.real[Step.CHECK_INDEX](operation, context)

        return {**self.real, Step.FETCH: fetch, Step.CHECK_INDEX: index}


@pytest.fixture
def runs(gateway: Gateway, backend: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runs]:
    """Runs with controlled steps and no backoff sleeps (the runner's retry policy itself is unchanged).

    Embedded: the launcher's runner gets the steps; aws: the worker's step table (the state machine's
    waits are skipped by the stack).
    """
    controls = Runs()
    if backend == "embedded":
        launcher = get_knowledge_gateway().launcher
        launcher.runner = InProcessRunner(steps=controls.steps(), sleep=lambda _: None)  # type: ignore[attr-defined]
    else:
        for step, function in controls.steps().items():
            monkeypatch.setitem(STEPS, step, function)
    yield controls
    controls.hold.set()
