"""Full garbage collections are held while the service's runner runs an ingestion step.

A full collection walks every object of the process with the interpreter lock held; during a
large document's steps the process holds millions of them, so each one stopped the ask threads
for 65–250 ms. The runner holds them for the step's duration and gives the threshold back after.
"""

from __future__ import annotations

import gc
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine.ingestion.full_collections import HELD_OLDEST_THRESHOLD, full_collections_held
from ragspine.ingestion.operations import Operation, OperationKey, OperationStatus
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea
from ragspine.ingestion.steps import STEPS, Step, StepContext, StepFunction, StepResult, activate, file_hash
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from tests.fakes.facts import InMemoryFactStore
from tests.support.glossary import default_glossary


class FullCollections:
    """Counts the collector's full (oldest-generation) collections and how long each took."""

    def __init__(self) -> None:
        self.durations: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.durations.append(time.perf_counter() - self._started)

    def __enter__(self) -> FullCollections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self)


class TestTheHold:
    def test_the_threshold_is_raised_inside_and_given_back_after(self) -> None:
        before = gc.get_threshold()
        with full_collections_held():
            assert gc.get_threshold() == (*before[:2], max(before[2], HELD_OLDEST_THRESHOLD))
        assert gc.get_threshold() == before

    def test_the_threshold_comes_back_when_the_body_raises(self) -> None:
        before = gc.get_threshold()
        with pytest.raises(ValueError, match="bad step"), full_collections_held():
            raise ValueError("bad step")
        assert gc.get_threshold() == before

    def test_overlapping_steps_share_one_hold_and_the_last_to_end_gives_it_back(self) -> None:
        before = gc.get_threshold()
        first_inside, second_done, release = threading.Event(), threading.Event(), threading.Event()
        seen: list[tuple[int, int, int]] = []

        def long_step() -> None:
            with full_collections_held():
                first_inside.set()
                release.wait(10)

        def short_step() -> None:
            with full_collections_held():
                pass
            seen.append(gc.get_threshold())
            second_done.set()

        long_thread = threading.Thread(target=long_step)
        long_thread.start()
        first_inside.wait(10)
        short_thread = threading.Thread(target=short_step)
        short_thread.start()
        second_done.wait(10)
        assert seen == [(*before[:2], max(before[2], HELD_OLDEST_THRESHOLD))]  # the long step still holds
        release.set()
        long_thread.join()
        short_thread.join()
        assert gc.get_threshold() == before

    def test_a_cycle_dropped_during_a_step_is_collected_after_it(self) -> None:
        import weakref

        class Node:
            def __init__(self) -> None:
                self.other: Node = self

        with full_collections_held():
            cycle = Node()
            dropped = weakref.ref(cycle)
            for _ in range(3):
                gc.collect(1)  # the cycle survives into the oldest generation, unreachable
            del cycle
            gc.collect(1)
            assert dropped() is not None  # held: no full collection ran
        gc.collect()
        assert dropped() is None


def _report(paragraphs: int) -> str:
    rng = random.Random(2026)
    words = [f"term{n}" for n in range(5000)]
    return "# Annual report\n\n" + "\n\n".join(
        f"## Note {i}\n\n" + " ".join(rng.choice(words) for _ in range(80)) + f" Revenue was {i} million."
        for i in range(paragraphs))


def _done(step: Step) -> StepFunction:
    return lambda operation, context: StepResult(step, operation.id)


@pytest.fixture
def staged_for_activation(tmp_path: Path) -> Iterator[tuple[StepContext, str]]:
    """A 4 MB report's 8,000 passages, fetched, parsed, chunked and checked: ready to activate."""
    document = tmp_path / "report.md"
    document.write_text(_report(8000), encoding="utf-8")
    store = SqliteOperationStore(tmp_path / "operations.db")
    index = EmbeddedChunkIndex(tmp_path / "index.db")
    context = StepContext(operations=store, staging=SqliteStagingArea(store), facts=InMemoryFactStore(),
                          index=index, embedder=None, glossary=default_glossary(), max_bytes=50_000_000)
    draft = Operation(id="op-1", doc_id="report.md", version_id="v1", file_hash=file_hash(document.read_bytes()),
                      source=str(document))
    operation = store.create_or_get(OperationKey("report.md", "v1"), draft)[0]
    for step in list(Step)[:-1]:
        STEPS[step](store.get(operation.id) or operation, context)
    yield context, operation.id
    index.close()
    store.close()


def test_an_activation_keeps_full_collections_from_stopping_other_threads(
        staged_for_activation: tuple[StepContext, str]) -> None:
    """Activating 8,000 passages, with the collector on, through the service's runner. Without the hold a
    full collection ran during it and kept every other thread waiting for 86–150 ms of a ~3 s activation.
    Counted, not timed: how long a pause lasts depends on the machine's load, whether one runs does not."""
    context, operation_id = staged_for_activation
    runner = InProcessRunner(steps={**{step: _done(step) for step in list(Step)[:-1]}, Step.ACTIVATE: activate})
    gc.collect()
    with FullCollections() as full:
        operation = runner.run(operation_id, context=context)
    assert operation.status is OperationStatus.SUCCEEDED and operation.chunks_count == 8000
    assert full.durations == [], f"full collections of {[round(d * 1e3) for d in full.durations]} ms"
