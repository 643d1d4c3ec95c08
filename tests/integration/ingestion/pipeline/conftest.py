"""Fixtures: the embedded services under tmp_path and an ``ingest`` helper over the in-process runner."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from ragspine.bootstrap import Services, build_ingest_context, get_services
from ragspine.ingestion.operations import Operation
from ragspine.ingestion.retry import RetryPolicy
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction
from ragspine.ingestion.submission import DocumentMeta, submit
from ragspine.settings import Settings

Ingest = Callable[..., Operation]


@pytest.fixture
def services(settings: Settings) -> Services:
    return get_services()


@pytest.fixture
def context(services: Services) -> StepContext:
    return build_ingest_context(services)


@pytest.fixture
def ingest(context: StepContext) -> Ingest:
    """Submit one file and run it; ``steps`` replaces some step functions (to inject failures)."""

    def run(path: Path, *, doc_id: str | None = None, meta: DocumentMeta | None = None,
            steps: Mapping[Step, StepFunction] | None = None) -> Operation:
        operation, _ = submit(path, operations=context.operations, meta=meta or DocumentMeta(), doc_id=doc_id)
        runner = InProcessRunner(RetryPolicy(), steps={**STEPS, **(steps or {})}, sleep=lambda _: None)
        return runner.run(operation.id, context=context)

    return run
