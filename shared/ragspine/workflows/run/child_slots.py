"""A process-wide bound on concurrent template and code children.

Each child holds up to its memory limit (256 MiB by default) and a core while it runs; without
a bound, a burst of runs starts one child per worker thread at once. Every child starts through
:func:`child_slot`, which waits at most ``WAIT_SECONDS`` for one of ``SLOTS`` (the usable CPUs,
at least 2), then fails the node with :class:`WorkflowNodeBusyError` so the caller retries.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ragspine.workflows.errors import WorkflowNodeBusyError


def _usable_cpus() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


SLOTS = max(2, _usable_cpus())
WAIT_SECONDS = 10.0
_slots = threading.BoundedSemaphore(SLOTS)


@contextmanager
def child_slot(*, slots: threading.BoundedSemaphore | None = None, wait_seconds: float | None = None) -> Iterator[None]:
    """Hold one child slot while the block runs.

    Raises:
        WorkflowNodeBusyError: no slot came free within the wait.
    """
    pool = slots or _slots
    wait = WAIT_SECONDS if wait_seconds is None else wait_seconds
    if not pool.acquire(timeout=wait):
        raise WorkflowNodeBusyError(f"the server is busy: all {SLOTS} template and code workers stayed in use for "
                                    f"{wait:g} s; retry the run in a few seconds")
    try:
        yield
    finally:
        pool.release()
