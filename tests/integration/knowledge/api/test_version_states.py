"""A version's states on its way to READY, and when a waiting automatic retry runs again, on both backends.

CREATED while its operation waits for a runner; UPLOADING while ``fetch`` brings the bytes into
the pipeline; UPLOADED once they are staged; INGESTING from the parsed document on; READY when
it is activated. ``nextRetryAt`` is set while a step waits for an automatic retry: the failure's
time plus the retry policy's backoff (2 s before the first retry), and null otherwise.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from ragspine.api.knowledge_views import iso
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.errors import ProviderUnavailableError
from ragspine.ingestion.operations import Operation
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction, StepResult
from tests.support.knowledge_api import Gateway

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)

WAIT_S = 60  # a bound on each hand-off between the test and a run, never a timing assertion


class Gate:
    """One hand-off: the run signals ``reached`` and waits for ``go``."""

    def __init__(self) -> None:
        self.reached, self.go = threading.Event(), threading.Event()

    def pass_through(self) -> None:
        self.reached.set()
        assert self.go.wait(WAIT_S), "the test never let the run go on"

    def open_after(self, look: Callable[[], None]) -> None:
        assert self.reached.wait(WAIT_S), "the run never reached this point"
        look()
        self.go.set()


class Controls:
    """Gates before the run starts and inside chosen steps, a failing index, and the retry wait."""

    def __init__(self, paused: tuple[Step, ...] = (), index_failures: int = 0) -> None:
        self.start = Gate()
        self.steps = {step: Gate() for step in paused}
        self.waiting = Gate()
        self.index_failures = index_failures
        self.real = dict(STEPS)

    def step_table(self) -> dict[Step, StepFunction]:
        def wrap(step: Step) -> StepFunction:
            def run(operation: Operation, context: StepContext) -> StepResult:
                if step in self.steps:
                    self.steps[step].pass_through()
                if step is Step.CHECK_INDEX and self.index_failures > 0:
                    self.index_failures -= 1
                    raise ProviderUnavailableError("the chunk index is unreachable")
                return self.real[step](operation, context)

            return run

        return {step: wrap(step) for step in Step}

    def retry_wait(self, seconds: float) -> None:
        self.waiting.pass_through()

    def release(self) -> None:
        for gate in (self.start, self.waiting, *self.steps.values()):
            gate.go.set()


class _HeldRunner:
    """The embedded launcher's runner, held at the gate until the test has looked at the PENDING operation."""

    def __init__(self, controls: Controls) -> None:
        self._controls = controls
        self._runner = InProcessRunner(steps=controls.step_table(), sleep=controls.retry_wait)

    def run(self, operation_id: str, *, context: StepContext) -> Operation:
        self._controls.start.pass_through()
        return self._runner.run(operation_id, context=context)


def install(gateway: Gateway, backend: str, controls: Controls, monkeypatch: pytest.MonkeyPatch) -> None:
    if backend == "embedded":
        get_knowledge_gateway().launcher.runner = _HeldRunner(controls)  # type: ignore[attr-defined]
        return
    for step, function in controls.step_table().items():
        monkeypatch.setitem(STEPS, step, function)
    stack = gateway.stack
    worker = stack.handlers["WorkerFunction"]
    started: set[str] = set()

    def held_worker(event: dict[str, Any], context: Any) -> Any:
        if event["operation_id"] not in started:  # the execution's first Task: hold before the run starts
            started.add(event["operation_id"])
            controls.start.pass_through()
        return worker(event, context)

    monkeypatch.setitem(stack.handlers, "WorkerFunction", held_worker)
    stack.retry_sleep = controls.retry_wait


def test_a_version_is_created_uploading_uploaded_ingesting_then_ready(gateway: Gateway, backend: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    controls = Controls(paused=(Step.FETCH, Step.PARSE, Step.EXTRACT_FACTS))
    install(gateway, backend, controls, monkeypatch)
    try:
        change = gateway.upload(gateway.create_space()["knowledgeSpaceId"])
        seen: list[tuple[str, str]] = []

        def look() -> None:
            candidate = gateway.document(change["documentId"])["candidateVersion"]
            seen.append((candidate["status"], gateway.operation(change["operationId"])["status"]))

        controls.start.open_after(look)
        for step in (Step.FETCH, Step.PARSE, Step.EXTRACT_FACTS):
            controls.steps[step].open_after(look)
        gateway.settle()
    finally:
        controls.release()
    assert seen == [("CREATED", "PENDING"), ("UPLOADING", "RUNNING"), ("UPLOADED", "RUNNING"),
                    ("INGESTING", "RUNNING")]
    detail = gateway.document(change["documentId"])
    assert detail["activeVersion"]["status"] == "READY" and detail["candidateVersion"] is None


def test_next_retry_at_is_set_while_a_step_waits_for_its_automatic_retry(gateway: Gateway, backend: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    controls = Controls(index_failures=1)
    controls.start.go.set()
    install(gateway, backend, controls, monkeypatch)
    try:
        change = gateway.upload(gateway.create_space()["knowledgeSpaceId"])
        waiting: dict[str, Any] = {}

        def look() -> None:
            waiting["operation"] = gateway.operation(change["operationId"])
            waiting["run"] = get_knowledge_gateway().ingestion.get(change["operationId"])

        controls.waiting.open_after(look)
        gateway.settle()
    finally:
        controls.release()
    operation, run = waiting["operation"], waiting["run"]
    assert operation["status"] == "RUNNING" and run is not None and run.failed_at is not None
    assert operation["nextRetryAt"] == iso(run.failed_at + timedelta(seconds=2))  # RetryPolicy: 2 s, then 4, 8, 16
    done = gateway.operation(change["operationId"])
    assert (done["status"], done["nextRetryAt"], done["retryCount"]) == ("SUCCEEDED", None, 1)
