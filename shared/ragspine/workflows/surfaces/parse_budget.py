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
held stay bounded by (reading slots + waiting bodies) x cap. Those places are shared as the reading
slots are: one path may take at most ``per_path`` of them and one client address ``per_client``
(429 over its share, at once), so one sender of large bodies cannot keep another path's body from
waiting. A waiter whose sender has hung up (``gone``) gives its place up and is not run: nobody
reads its answer, and a sender that hangs up retries as a rule, so running it would run it twice.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from ragspine.workflows.errors import WebhookBodiesBusyError, WebhookBodiesLimitError
from ragspine.workflows.surfaces.body_slots import DEFAULT_CLIENT_SHARE, DEFAULT_PATH_SHARE, share_of

DEFAULT_BUDGET_BYTES = 16 * 1024 * 1024  # one body of the default webhook cap at a time
SMALL_BODY_BYTES = 256 * 1024  # parses to some tens of MB at worst: never waits
POLL_SECONDS = 0.02  # waiting is rare (large bodies only), so polling beats binding a primitive to one event loop
RETRY_AFTER_SECONDS = 5
DEFAULT_MAX_WAITING = 4  # as many as the default reading slots


class SenderGone(Exception):
    """The sender of a waiting body hung up: its place is given up and its body is not run."""


class ParseBudget:
    """``budget_bytes`` of large webhook bodies parsed and running at once; first come, first served; thread-safe."""

    def __init__(self, budget_bytes: int = DEFAULT_BUDGET_BYTES, *, small_bytes: int = SMALL_BODY_BYTES,
                 max_waiting: int = DEFAULT_MAX_WAITING, path_share: float = DEFAULT_PATH_SHARE,
                 client_share: float = DEFAULT_CLIENT_SHARE) -> None:
        if budget_bytes < 1 or small_bytes < 0 or max_waiting < 1:
            raise ValueError("the parse budget must be at least one byte, with room for one waiting body")
        self.budget_bytes = budget_bytes
        self.small_bytes = small_bytes
        self.max_waiting = max_waiting
        self.per_path = share_of(max_waiting, path_share)
        self.per_client = share_of(max_waiting, client_share)
        self._in_use = 0
        self._queue: deque[int] = deque()
        self._waiters: dict[int, tuple[str, str]] = {}  # ticket -> (path, client)
        self._by_path: Counter[str] = Counter()
        self._by_client: Counter[str] = Counter()
        self._tickets = itertools.count()
        self._lock = threading.Lock()

    def held_bytes(self) -> int:
        """Bytes of large bodies being parsed or run now."""
        with self._lock:
            return self._in_use

    def waiting(self, *, path: str | None = None, client: str | None = None) -> int:
        """Large bodies waiting their turn for bytes of the budget now: all of them, or those of ``path`` or
        ``client``."""
        with self._lock:
            if path is not None:
                return self._by_path[path]
            return len(self._queue) if client is None else self._by_client[client]

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
    async def holding(self, size: int, *, wait_s: float, path: str = "", client: str = "",
                      gone: Callable[[], bool] | None = None) -> AsyncIterator[None]:
        """Hold ``size`` bytes of the budget (nothing for a small body), waiting at most ``wait_s`` for them in a
        place of ``path`` and ``client``; ``gone`` says whether the sender has hung up meanwhile.

        Raises:
            WebhookBodiesBusyError: every waiting place is taken, or the bytes did not come free within ``wait_s``
                (503 with ``retry_after``).
            WebhookBodiesLimitError: ``path`` or ``client`` already has its share of the waiting places (429).
            SenderGone: the sender hung up while its body waited.
        """
        if size <= self.small_bytes:
            yield
            return
        await self._wait_for(size, wait_s, path, client, gone)
        try:
            yield
        finally:
            self.give_back(size)

    async def _wait_for(self, size: int, wait_s: float, path: str, client: str,
                        gone: Callable[[], bool] | None) -> None:
        if self.take(size):  # nobody waits and it fits: no place is needed
            return
        with self._lock:
            self._check_room(path, client)
            ticket = next(self._tickets)
            self._queue.append(ticket)
            self._waiters[ticket] = (path, client)
            self._by_path[path] += 1
            self._by_client[client] += 1
        deadline = time.monotonic() + wait_s
        try:
            while not self._take_in_turn(ticket, size):
                if gone is not None and gone():
                    raise SenderGone("the sender hung up while its body waited for the parse budget")
                if time.monotonic() >= deadline:
                    raise WebhookBodiesBusyError(
                        f"the server is parsing other large webhook bodies ({self.held_bytes():,} bytes of its "
                        f"{self.budget_bytes:,}-byte budget held; {size:,} more did not fit within {wait_s:g} s); "
                        "retry in a moment", retry_after=RETRY_AFTER_SECONDS)
                await asyncio.sleep(POLL_SECONDS)
        except BaseException:  # refused, cancelled or its sender gone: its place in the queue goes too
            with self._lock:
                if ticket in self._queue:
                    self._queue.remove(ticket)
                    self._leave(ticket)
            raise

    def _check_room(self, path: str, client: str) -> None:
        if len(self._queue) >= self.max_waiting:
            raise WebhookBodiesBusyError(
                f"the server is parsing other large webhook bodies and {len(self._queue)} more wait their "
                "turn; retry in a moment", retry_after=RETRY_AFTER_SECONDS)
        if self._by_path[path] >= self.per_path:
            raise WebhookBodiesLimitError(
                f"webhook {path!r} already has {self.per_path} large bodies waiting to be parsed (its share of the "
                f"server's {self.max_waiting} places); retry in a moment", retry_after=RETRY_AFTER_SECONDS)
        if self._by_client[client] >= self.per_client:
            raise WebhookBodiesLimitError(
                f"this client already has {self.per_client} large webhook bodies waiting to be parsed (its share "
                f"of the server's {self.max_waiting} places); retry in a moment", retry_after=RETRY_AFTER_SECONDS)

    def _take_in_turn(self, ticket: int, size: int) -> bool:
        with self._lock:
            if self._queue[0] != ticket or not self._fits(size):
                return False
            self._queue.popleft()
            self._leave(ticket)
            self._in_use += size
            return True

    def _leave(self, ticket: int) -> None:
        path, client = self._waiters.pop(ticket)
        for counts, key in ((self._by_path, path), (self._by_client, client)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]  # only waiters are kept: the table never outgrows the places

    def _fits(self, size: int) -> bool:
        return self._in_use == 0 or self._in_use + size <= self.budget_bytes
