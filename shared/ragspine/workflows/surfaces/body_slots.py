"""A bound on anonymous webhook bodies being read at once, so their memory in flight is bounded.

Each webhook body may be as large as the payload cap, and reading it means holding it. Before a
body is read, the request takes one of ``total`` slots without waiting; over that, it is refused at
once (503 with Retry-After) and its body is never read. Memory in flight is therefore at most
``total`` x the payload cap, whatever the number of callers. :meth:`BodySlots.for_budget` derives
``total`` from a byte budget.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from ragspine.workflows.errors import WebhookBodiesBusyError

DEFAULT_TOTAL = 4
DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024
MAX_TOTAL = 64  # small payload caps still leave the server threads for other routes
RETRY_AFTER_SECONDS = 1  # a body read lasts as long as its upload: come back soon


class BodySlots:
    """``total`` webhook bodies read at once in this process; thread-safe, never waits."""

    def __init__(self, total: int = DEFAULT_TOTAL) -> None:
        if total < 1:
            raise ValueError("at least one webhook body must be readable at once")
        self.total = total
        self._taken = 0
        self._lock = threading.Lock()

    @classmethod
    def for_budget(cls, max_body_bytes: int, budget_bytes: int = DEFAULT_BUDGET_BYTES) -> BodySlots:
        """As many slots as bodies of ``max_body_bytes`` fit in ``budget_bytes`` (at least 1, at most MAX_TOTAL)."""
        return cls(max(1, min(MAX_TOTAL, budget_bytes // max(1, max_body_bytes))))

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold one slot while a body is read.

        Raises:
            WebhookBodiesBusyError: every slot is taken (503 with ``retry_after``), before anything is read.
        """
        with self._lock:
            if self._taken >= self.total:
                raise WebhookBodiesBusyError(
                    f"the server already reads {self.total} webhook bodies; retry in a moment",
                    retry_after=RETRY_AFTER_SECONDS)
            self._taken += 1
        try:
            yield
        finally:
            with self._lock:
                self._taken -= 1
