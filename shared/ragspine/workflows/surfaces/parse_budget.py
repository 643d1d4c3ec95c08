"""A byte budget for the webhook bodies whose parsed values are alive at once.

Parsing JSON can cost far more memory than its bytes: 16 MiB of arrays nested 30 deep parse
to about 0.75 GB of Python lists, and that value lives as the run's inputs until the run ends.
The body-reading slots bound the raw bytes held at once, not what they parse to, so four such
bodies in parallel took about 3.3 GB. A body larger than ``small_bytes`` therefore takes its
size from this budget before it is parsed and gives it back when its run ends: large bodies
share ``budget_bytes`` (one body over the budget runs alone), in the order they arrived, each
waiting at most its deadline (then 503, retryable). Small bodies never wait: their parses are
cheap, so an ordinary call is not held behind a large one.

A body waiting its turn has been read and has given its reading slot back, so another sender is
read meanwhile; it still holds its raw bytes, so at most ``max_waiting`` bodies wait at once (as
many as there are reading slots) and one more is refused at once with the same 503: the raw bytes
held stay bounded by (reading slots + waiting bodies) x cap.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from ragspine.workflows.errors import WebhookBodiesBusyError

DEFAULT_BUDGET_BYTES = 16 * 1024 * 1024  # one body of the default webhook cap at a time
SMALL_BODY_BYTES = 256 * 1024  # parses to some tens of MB at worst: never waits
POLL_SECONDS = 0.02  # waiting is rare (large bodies only), so polling beats binding a primitive to one event loop
RETRY_AFTER_SECONDS = 5
DEFAULT_MAX_WAITING = 4  # as many as the default reading slots


class ParseBudget:
    """``budget_bytes`` of large webhook bodies parsed and running at once; first come, first served; thread-safe."""

    def __init__(self, budget_bytes: int = DEFAULT_BUDGET_BYTES, *, small_bytes: int = SMALL_BODY_BYTES,
                 max_waiting: int = DEFAULT_MAX_WAITING) -> None:
        if budget_bytes < 1 or small_bytes < 0 or max_waiting < 1:
            raise ValueError("the parse budget must be at least one byte, with room for one waiting body")
        self.budget_bytes = budget_bytes
        self.small_bytes = small_bytes
        self.max_waiting = max_waiting
        self._in_use = 0
        self._queue: deque[int] = deque()
        self._tickets = itertools.count()
        self._lock = threading.Lock()

    def held_bytes(self) -> int:
        """Bytes of large bodies being parsed or run now."""
        with self._lock:
            return self._in_use

    def waiting(self) -> int:
        """Large bodies waiting their turn for bytes of the budget now."""
        with self._lock:
            return len(self._queue)

    def take(self, size: int) -> bool:
        """Take ``size`` bytes at once if nobody waits before and they fit (or nothing is held); never waits."""
        with self._lock:
            if self._queue or not self._fits(size):
                return False
            self._in_use += size
            return True

    def give_back(self, size: int) -> None:
        """Return what :meth:`take` took."""
        with self._lock:
            self._in_use -= size

    @asynccontextmanager
    async def holding(self, size: int, *, wait_s: float) -> AsyncIterator[None]:
        """Hold ``size`` bytes of the budget (nothing for a small body), waiting at most ``wait_s`` for them.

        Raises:
            WebhookBodiesBusyError: the bytes did not come free within ``wait_s`` (503 with ``retry_after``).
        """
        if size <= self.small_bytes:
            yield
            return
        await self._wait_for(size, wait_s)
        try:
            yield
        finally:
            self.give_back(size)

    async def _wait_for(self, size: int, wait_s: float) -> None:
        with self._lock:
            if len(self._queue) >= self.max_waiting:
                raise WebhookBodiesBusyError(
                    f"the server is parsing other large webhook bodies and {len(self._queue)} more wait their "
                    "turn; retry in a moment", retry_after=RETRY_AFTER_SECONDS)
            ticket = next(self._tickets)
            self._queue.append(ticket)
        deadline = time.monotonic() + wait_s
        try:
            while not self._take_in_turn(ticket, size):
                if time.monotonic() >= deadline:
                    raise WebhookBodiesBusyError(
                        f"the server is parsing other large webhook bodies ({self.held_bytes():,} bytes of its "
                        f"{self.budget_bytes:,}-byte budget held; {size:,} more did not fit within {wait_s:g} s); "
                        "retry in a moment", retry_after=RETRY_AFTER_SECONDS)
                await asyncio.sleep(POLL_SECONDS)
        except BaseException:  # refused or cancelled (the client left): its place in the queue goes too
            with self._lock:
                if ticket in self._queue:
                    self._queue.remove(ticket)
            raise

    def _take_in_turn(self, ticket: int, size: int) -> bool:
        with self._lock:
            if self._queue[0] != ticket or not self._fits(size):
                return False
            self._queue.popleft()
            self._in_use += size
            return True

    def _fits(self, size: int) -> bool:
        return self._in_use == 0 or self._in_use + size <= self.budget_bytes
