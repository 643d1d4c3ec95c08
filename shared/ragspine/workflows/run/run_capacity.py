"""A bound on workflow runs in flight, and the threads they run on.

A run can wait for minutes (a slow model, a child slot, an HTTP node), so runs must not execute
on the server's shared worker threads: a burst of them would hold every thread and starve
``/v1/ask`` and the Gateway. Each run is admitted first, without waiting: at most ``total`` runs
in the process and ``per_key`` runs per caller key (an app's workflow, a webhook path). A run
that cannot start is refused at once (429 for a key over its share, 503 when the process is
full), never queued. An admitted run executes on this object's own threads, at most ``total``.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from ragspine.workflows.errors import WorkflowRunLimitError, WorkflowRunsBusyError

P = ParamSpec("P")
T = TypeVar("T")
DEFAULT_TOTAL = 8
DEFAULT_PER_KEY = 4
# A run usually lasts seconds: a refused caller is told to come back soon.
RETRY_AFTER_SECONDS = 2


class RunTicket:
    """One admitted run: submit its work once; the place is given back when the work ends.

    A ticket whose work never starts (a stream whose client left before its first read) gives its
    place back when it is released or, failing that, when it is garbage-collected.
    """

    def __init__(self, capacity: RunCapacity, key: str) -> None:
        self._capacity = capacity
        self._submitted = False
        self._release = weakref.finalize(self, capacity._give_back, key)

    def submit(self, work: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``work`` on the capacity's threads; the ticket's place is given back when it returns or raises."""
        if self._submitted:
            raise RuntimeError("a run ticket carries one run")
        self._submitted = True

        def run() -> T:  # refers to the ticket, so it is not collected (and its place given back) mid-run
            try:
                return work(*args, **kwargs)
            finally:
                self._release()

        try:
            return self._capacity._threads.submit(run)
        except BaseException:
            self._release()
            raise

    def release(self) -> None:
        """Give the place back without running (idempotent; a submitted run gives it back itself)."""
        if not self._submitted:
            self._release()


class RunCapacity:
    """Admission and threads for workflow runs: ``total`` in the process, ``per_key`` per caller key."""

    def __init__(self, total: int = DEFAULT_TOTAL, per_key: int = DEFAULT_PER_KEY) -> None:
        if total < 1 or per_key < 1:
            raise ValueError("run capacity needs at least one run in total and per key")
        self.total, self.per_key = total, min(per_key, total)
        self._lock = threading.RLock()  # admit counts through in_flight while it holds the lock
        self._in_flight: dict[str, int] = {}
        self._threads = ThreadPoolExecutor(max_workers=total, thread_name_prefix="workflow-run")

    def in_flight(self) -> int:
        """Runs admitted and not yet finished."""
        with self._lock:
            return sum(self._in_flight.values())

    def admit(self, key: str) -> RunTicket:
        """A ticket for one more run of ``key``, or a refusal at once.

        Raises:
            WorkflowRunLimitError: ``key`` already has ``per_key`` runs in flight (429).
            WorkflowRunsBusyError: the process already has ``total`` runs in flight (503).
        """
        with self._lock:
            mine = self._in_flight.get(key, 0)
            if mine >= self.per_key:
                raise WorkflowRunLimitError(
                    f"this caller already has {mine} workflow runs in flight (the limit is {self.per_key}); "
                    f"retry when one finishes", retry_after=RETRY_AFTER_SECONDS)
            if self.in_flight() >= self.total:
                raise WorkflowRunsBusyError(
                    f"the server already runs {self.total} workflows; retry in a few seconds",
                    retry_after=RETRY_AFTER_SECONDS)
            self._in_flight[key] = mine + 1
        return RunTicket(self, key)

    def _give_back(self, key: str) -> None:
        with self._lock:
            left = self._in_flight.get(key, 0) - 1
            if left > 0:
                self._in_flight[key] = left
            else:
                self._in_flight.pop(key, None)
