"""The local app with the Gateway mounted, a fresh data folder, and a client holding a real token."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from fastapi.testclient import TestClient

from ragspine.api.app import create_local_app
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.errors import ProviderUnavailableError
from ragspine.ingestion.operations import Operation
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction, StepResult
from ragspine.settings import Settings
from tests.support.knowledge_api import Gateway, issue_token


@pytest.fixture
def gateway(settings: Settings) -> Iterator[Gateway]:
    """An admin client of a fresh Gateway."""
    get_knowledge_gateway.cache_clear()
    with TestClient(create_local_app(settings), raise_server_exceptions=False) as client:
        gw = Gateway(client, settings, issue_token())
        yield gw
        gw.settle()
    get_knowledge_gateway.cache_clear()


@dataclass
class Runs:
    """Controls over the Gateway's ingestion runs: hold them before fetch, or make the index unavailable."""

    hold: threading.Event = field(default_factory=threading.Event)
    index_down: bool = False

    def __post_init__(self) -> None:
        self.hold.set()

    def steps(self) -> dict[Step, StepFunction]:
        def fetch(operation: Operation, context: StepContext) -> StepResult:
            assert self.hold.wait(timeout=60), "a test held a run and never released it"
            return STEPS[Step.FETCH](operation, context)

        def index(operation: Operation, context: StepContext) -> StepResult:
            if self.index_down:
                raise ProviderUnavailableError("the chunk index is unreachable")
            return STEPS[Step.INDEX](operation, context)

        return {**STEPS, Step.FETCH: fetch, Step.INDEX: index}


@pytest.fixture
def runs(gateway: Gateway) -> Iterator[Runs]:
    """Runs with controlled steps and no backoff sleeps (the runner's retry policy itself is unchanged)."""
    controls = Runs()
    launcher = get_knowledge_gateway().launcher
    launcher.runner = InProcessRunner(steps=controls.steps(), sleep=lambda _: None)  # type: ignore[attr-defined]
    yield controls
    controls.hold.set()
