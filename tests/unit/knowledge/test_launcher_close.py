"""Closing the local operation launcher ends its worker threads, so their database connections close."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from ragspine.knowledge.local_runtime import ThreadOperationLauncher


class _Runner:
    def __init__(self) -> None:
        self.ran: list[str] = []

    def run(self, operation_id: str, *, context: Any) -> None:
        self.ran.append(operation_id)


def test_close_finishes_the_queued_runs_and_ends_the_worker_threads() -> None:
    after: list[str] = []
    runner = _Runner()
    launcher = ThreadOperationLauncher(lambda: None, after=after.append, runner=runner,  # type: ignore[arg-type,return-value]
                                       workers=2, operations=_NoSpaces())
    before = set(threading.enumerate())
    for n in range(4):
        launcher.start(f"op-{n}")
    workers = [t for t in threading.enumerate() if t not in before]
    assert len(workers) == 2
    launcher.close()
    assert sorted(runner.ran) == ["op-0", "op-1", "op-2", "op-3"] and sorted(after) == sorted(runner.ran)
    assert not any(t.is_alive() for t in workers)
    with pytest.raises(RuntimeError, match="closed"):
        launcher.start("op-4")


class _NoSpaces:
    def get(self, operation_id: str) -> None:
        return None
