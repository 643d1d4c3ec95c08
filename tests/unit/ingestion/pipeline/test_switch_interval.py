"""The interpreter switches threads every 0.5 ms while the service's runner runs an ingestion step.

A route's thread waits up to one switch interval each time it takes the interpreter lock back from a
step's thread; at the default 5 ms an ask during activation waited that at every SQLite call and
thread hand-over. Checked by what each step sees, not by timing.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.ingestion.operations import Operation, OperationKey, OperationStatus
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea
from ragspine.ingestion.steps import Step, StepContext, StepFunction, StepResult, file_hash
from ragspine.ingestion.switch_interval import STEP_SWITCH_INTERVAL_S, short_switch_interval
from tests.fakes.facts import InMemoryFactStore
from tests.support.glossary import default_glossary


def test_the_interval_is_short_inside_and_given_back_after() -> None:
    before = sys.getswitchinterval()
    with short_switch_interval():
        assert sys.getswitchinterval() == pytest.approx(min(before, STEP_SWITCH_INTERVAL_S))
    assert sys.getswitchinterval() == before


def test_the_interval_comes_back_when_the_body_raises() -> None:
    before = sys.getswitchinterval()
    with pytest.raises(ValueError, match="bad step"), short_switch_interval():
        raise ValueError("bad step")
    assert sys.getswitchinterval() == before


def test_overlapping_steps_share_one_hold_and_the_last_to_end_gives_it_back() -> None:
    before = sys.getswitchinterval()
    inside, release = threading.Event(), threading.Event()

    def long_step() -> None:
        with short_switch_interval():
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=long_step)
    thread.start()
    inside.wait(10)
    with short_switch_interval():
        pass
    still = sys.getswitchinterval()  # the long step still holds
    release.set()
    thread.join()
    assert still == pytest.approx(min(before, STEP_SWITCH_INTERVAL_S))
    assert sys.getswitchinterval() == before


@pytest.fixture
def operation(tmp_path: Path) -> Iterator[tuple[StepContext, str]]:
    document = tmp_path / "report.md"
    document.write_text("# Report\n\nRevenue was 5 million.\n", encoding="utf-8")
    store = SqliteOperationStore(tmp_path / "operations.db")
    context = StepContext(operations=store, staging=SqliteStagingArea(store), facts=InMemoryFactStore(),
                          index=None, embedder=None, glossary=default_glossary(), max_bytes=1_000_000)
    draft = Operation(id="op-1", doc_id="report.md", version_id="v1", file_hash=file_hash(document.read_bytes()),
                      source=str(document))
    yield context, store.create_or_get(OperationKey("report.md", "v1"), draft)[0].id
    store.close()


def test_every_step_the_runner_runs_sees_the_short_interval(operation: tuple[StepContext, str]) -> None:
    context, operation_id = operation
    seen: dict[Step, float] = {}

    def noting(step: Step) -> StepFunction:
        def run(current: Operation, _context: StepContext) -> StepResult:
            seen[step] = sys.getswitchinterval()
            return StepResult(step, current.id)
        return run

    before = sys.getswitchinterval()
    done = InProcessRunner(steps={step: noting(step) for step in Step}).run(operation_id, context=context)
    assert done.status is OperationStatus.SUCCEEDED
    assert seen == {step: pytest.approx(min(before, STEP_SWITCH_INTERVAL_S)) for step in Step}
    assert sys.getswitchinterval() == before
