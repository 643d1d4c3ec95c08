"""One behaviour suite, two runners: the in-process runner (embedded) and the state machine (AWS, moto).

``harness`` is parametrized over both. Each offers the same calls, so every test states the
behaviour once and both runners must show it: same statuses, retry counts, attempts, codes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest

from ragspine.bootstrap import build_ingest_context, get_services
from ragspine.facts.ports import FactStore
from ragspine.ingestion import steps
from ragspine.ingestion.operations import Operation, OperationStore
from ragspine.ingestion.retry import RetryPolicy
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import Step, StepContext, StepFunction
from ragspine.ingestion.submission import DocumentMeta, submit
from ragspine.settings import Settings
from tests.support.state_machine import StateMachinePipeline, moto_ingest_pipeline


class Harness(Protocol):
    """What the suite does with a runner."""

    calls: Counter[str]

    def ingest(self, name: str, body: bytes) -> Operation:
        """Submit one document (a file, or an S3 upload) and run it to its end state."""
        ...

    @property
    def operations(self) -> OperationStore:
        """Where the runner records operations."""
        ...

    @property
    def facts(self) -> FactStore:
        """The fact store activation writes to."""
        ...


class InProcessHarness:
    """Files under a folder, ``submit`` and ``InProcessRunner`` with the shared retry policy (no sleeping)."""

    def __init__(self, folder: Path, calls: Counter[str]) -> None:
        self._folder = folder
        self.calls = calls

    @property
    def context(self) -> StepContext:
        return build_ingest_context(get_services())

    @property
    def operations(self) -> OperationStore:
        return self.context.operations

    @property
    def facts(self) -> FactStore:
        return get_services().facts

    def ingest(self, name: str, body: bytes) -> Operation:
        path = self._folder / name
        path.write_bytes(body)
        context = self.context
        operation, _ = submit(path, operations=context.operations, meta=DocumentMeta())
        return InProcessRunner(RetryPolicy(), sleep=lambda _: None).run(operation.id, context=context)


class StateMachineHarness:
    """S3 uploads under uploads/, the trigger Lambda, and the ASL executed by moto."""

    def __init__(self, pipeline: StateMachinePipeline, calls: Counter[str]) -> None:
        self.pipeline = pipeline
        self.calls = calls

    @property
    def operations(self) -> OperationStore:
        return self.pipeline.context.operations

    @property
    def facts(self) -> FactStore:
        return get_services().facts

    def ingest(self, name: str, body: bytes) -> Operation:
        return self.pipeline.trigger_and_wait(self.pipeline.upload(f"uploads/{name}", body))


def _counting(step: Step, real: StepFunction, calls: Counter[str]) -> StepFunction:
    def counted(operation: Operation, context: StepContext) -> Any:
        calls[step.value] += 1
        return real(operation, context)

    return counted


@pytest.fixture(params=["in_process", "state_machine"])
def harness(request: pytest.FixtureRequest, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            load_event: Callable[[str], dict[str, Any]], lambda_context: Any) -> Iterator[Harness]:
    calls: Counter[str] = Counter()
    for step in Step:
        monkeypatch.setitem(steps.STEPS, step, _counting(step, steps.STEPS[step], calls))
    if request.param == "in_process":
        folder = tmp_path / "docs"
        folder.mkdir()
        yield InProcessHarness(folder, calls)
        return
    with moto_ingest_pipeline(monkeypatch, load_event, lambda_context) as pipeline:
        yield StateMachineHarness(pipeline, calls)
