"""A bound on anonymous webhook bodies being read at once, shared fairly between paths and clients.

Each webhook body may be as large as the payload cap, and reading it means holding it. Before a
body is read, the request takes one of ``total`` slots without waiting; over that, it is refused at
once (503 with Retry-After) and its body is never read. Memory in flight is therefore at most
``total`` x the payload cap, whatever the number of callers. :meth:`BodySlots.for_budget` derives
``total`` from a byte budget.

One webhook path may hold at most ``per_path`` of the slots and one client address at most
``per_client`` (both a share of ``total``, fewer than all of them once there are two): senders that
trickle their bodies to one path, and reconnect each time the deadline cuts them off, then hold only
their path's share, and every other path still finds a slot. A call over its share is refused at
once (429 with Retry-After), before its body is read.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from ragspine.workflows.errors import WebhookBodiesBusyError, WebhookBodiesLimitError

DEFAULT_TOTAL = 4
DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024
DEFAULT_PATH_SHARE = 0.5  # one path may hold half the slots: the other half is always there for the others
DEFAULT_CLIENT_SHARE = 0.75  # one address may use more than one path's share, never every slot
MAX_TOTAL = 64  # small payload caps still leave the server threads for other routes
RETRY_AFTER_SECONDS = 1  # a body read lasts as long as its upload: come back soon


def share_of(total: int, share: float) -> int:
    """The slots ``share`` of ``total`` comes to: at least one, and fewer than ``total`` unless ``share`` is 1."""
    if not 0 < share <= 1:
        raise ValueError("a share of the webhook body slots is in (0, 1]")
    return total if share == 1 else max(1, min(total - 1, math.floor(total * share)))


class BodySlots:
    """``total`` webhook bodies read at once in this process, a share per path and per client; never waits."""

    def __init__(self, total: int = DEFAULT_TOTAL, *, path_share: float = DEFAULT_PATH_SHARE,
                 client_share: float = DEFAULT_CLIENT_SHARE) -> None:
        if total < 1:
            raise ValueError("at least one webhook body must be readable at once")
        self.total = total
        self.per_path = share_of(total, path_share)
        self.per_client = share_of(total, client_share)
        self._taken = 0
        self._by_path: Counter[str] = Counter()
        self._by_client: Counter[str] = Counter()
        self._lock = threading.Lock()

    @classmethod
    def for_budget(cls, max_body_bytes: int, budget_bytes: int = DEFAULT_BUDGET_BYTES, *,
                   path_share: float = DEFAULT_PATH_SHARE, client_share: float = DEFAULT_CLIENT_SHARE) -> BodySlots:
        """As many slots as bodies of ``max_body_bytes`` fit in ``budget_bytes`` (at least 1, at most MAX_TOTAL)."""
        return cls(max(1, min(MAX_TOTAL, budget_bytes // max(1, max_body_bytes))), path_share=path_share,
                   client_share=client_share)

    def held(self, *, path: str | None = None) -> int:
        """Slots held now: all of them, or those of one ``path``."""
        with self._lock:
            return self._taken if path is None else self._by_path[path]

    @contextmanager
    def reading(self, *, path: str, client: str) -> Iterator[None]:
        """Hold one slot for ``path`` and ``client`` while a body is read.

        Raises:
            WebhookBodiesBusyError: every slot is taken (503 with ``retry_after``).
            WebhookBodiesLimitError: a slot is free but ``path`` or ``client`` already holds its share (429 with
                ``retry_after``). Both before anything is read.
        """
        with self._lock:
            if self._taken >= self.total:
                raise WebhookBodiesBusyError(
                    f"the server already reads {self.total} webhook bodies; retry in a moment",
                    retry_after=RETRY_AFTER_SECONDS)
            if self._by_path[path] >= self.per_path:
                raise WebhookBodiesLimitError(
                    f"webhook {path!r} already has {self.per_path} bodies being read (its share of the "
                    f"server's {self.total}); retry in a moment", retry_after=RETRY_AFTER_SECONDS)
            if self._by_client[client] >= self.per_client:
                raise WebhookBodiesLimitError(
                    f"this client already sends {self.per_client} webhook bodies (its share of the server's "
                    f"{self.total}); retry in a moment", retry_after=RETRY_AFTER_SECONDS)
            self._taken += 1
            self._by_path[path] += 1
            self._by_client[client] += 1
        try:
            yield
        finally:
            with self._lock:
                self._taken -= 1
                for counts, key in ((self._by_path, path), (self._by_client, client)):
                    counts[key] -= 1
                    if counts[key] <= 0:
                        del counts[key]  # only holders are kept: the table never outgrows the slots
