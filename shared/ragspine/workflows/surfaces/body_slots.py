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

Shares cannot stop a sender using as many addresses and paths as there are slots, so a call that
finds every slot taken, and is within its shares, takes the slot of a slow reader instead (the
slowloris defence): one that has held its slot for its grace and sent less than ``min_rate`` bytes
a second on average since. Of those, it takes the one furthest behind the minimum rate (the bytes it
owes), so a trickler that has held its slot for long goes before a caller that has just come. The
reader is told (:attr:`SlotReader.preempted`) and its read ends; a reader at the minimum rate or
faster, or still within its grace, is never preempted.

A client address is suspect for ``SUSPECT_S`` once its reader was preempted, or its read ended
without the whole body (hung up or cut off) below the minimum rate, grace or not: a sender that
reconnects at once would otherwise hold a fresh slot for a whole grace each time, and four of them
keep every slot in grace. A suspect address's readers get only ``suspect_grace_s`` (a round trip),
so an honest caller behind it (a NAT) still has the time to send its body after its headers; and
none when they took a slow reader's slot, or tricklers taking each other's slots would keep every
slot within a fresh round trip. Any reader taking the last slot free gets a round trip too (addresses
never seen twice are never suspect), and no reader more than a round trip plus its declared length
at the minimum rate (a tiny body sent whole inside a whole grace is never cut short, so never suspect).
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ragspine.workflows.errors import WebhookBodiesBusyError, WebhookBodiesLimitError

DEFAULT_TOTAL = 4
DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024
DEFAULT_PATH_SHARE = 0.5  # one path may hold half the slots: the other half is always there for the others
DEFAULT_CLIENT_SHARE = 0.75  # one address may use more than one path's share, never every slot
# Apache httpd's mod_reqtimeout default for request bodies (body=20,MinRate=500): slower is an attack, not a link.
DEFAULT_MIN_RATE = 500.0
# A round trip and curl's one-second wait for "100 Continue": before that, a reader's rate says nothing yet.
DEFAULT_GRACE_S = 1.0
# How long an address whose reader was preempted reads without a grace: long beside the grace, short enough that
# an honest caller sharing the address (a NAT) soon has it back; its readers at the minimum rate are kept regardless.
SUSPECT_S = 60.0
# The grace of a suspect address's readers: one long round trip (curl's "100 Continue" answered at once), no more.
DEFAULT_SUSPECT_GRACE_S = 0.3
MAX_SUSPECTS = 10_000  # addresses remembered, least recently preempted forgotten first
MAX_TOTAL = 64  # small payload caps still leave the server threads for other routes
RETRY_AFTER_SECONDS = 1  # a body read lasts as long as its upload: come back soon


def share_of(total: int, share: float) -> int:
    """The slots ``share`` of ``total`` comes to: at least one, and fewer than ``total`` unless ``share`` is 1."""
    if not 0 < share <= 1:
        raise ValueError("a share of the webhook body slots is in (0, 1]")
    return total if share == 1 else max(1, min(total - 1, math.floor(total * share)))


class SlotReader:
    """One body being read under a slot: its path, client, progress, and whether a waiting caller took the slot."""

    def __init__(self, path: str, client: str, clock: Callable[[], float], *, min_rate: float,
                 grace_s: float) -> None:
        self.path = path
        self.client = client
        self._clock = clock
        self.started = clock()
        self.min_rate = min_rate
        self.grace_s = grace_s  # a round trip only for a suspect address
        self.received = 0  # bytes of the body read so far (the router counts each chunk)
        self.cut_short = False  # the read ended without the whole body: the sender hung up or the deadline came
        self.done = False  # no longer reading (a small body keeps the slot for its parse): never preempted
        self.preempted = False
        self._on_preempt: Callable[[], None] | None = None

    def held_s(self) -> float:
        """Seconds this reader has held its slot."""
        return self._clock() - self.started

    def short_of_rate(self) -> bool:
        """Below the minimum rate on average since it took its slot, grace or not."""
        return self.received < self.min_rate * self.held_s()

    def below_rate(self) -> bool:
        """Past its grace, and below the minimum rate on average since it took its slot (however its read ended)."""
        return self.held_s() >= self.grace_s and self.short_of_rate()

    def owed(self) -> float:
        """Bytes this reader is behind the minimum rate: how long it has been slow, and how slow."""
        return self.min_rate * self.held_s() - self.received

    def is_slow(self) -> bool:
        """Still reading, past its grace, and below the minimum rate on average since it took its slot."""
        return not self.done and self.below_rate()

    def on_preempt(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (at once if already preempted) when a waiting caller takes this slot."""
        self._on_preempt = callback
        if self.preempted:
            callback()

    def mark_preempted(self) -> None:
        """A waiting caller took this reader's slot (called by :class:`BodySlots`, which has released it)."""
        self.preempted = True
        if self._on_preempt is not None:
            self._on_preempt()


class BodySlots:
    """``total`` webhook bodies read at once in this process, a share per path and per client; never waits."""

    def __init__(self, total: int = DEFAULT_TOTAL, *, path_share: float = DEFAULT_PATH_SHARE,
                 client_share: float = DEFAULT_CLIENT_SHARE, min_rate: float = DEFAULT_MIN_RATE,
                 grace_s: float = DEFAULT_GRACE_S, suspect_grace_s: float = DEFAULT_SUSPECT_GRACE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if total < 1:
            raise ValueError("at least one webhook body must be readable at once")
        if min_rate < 0 or grace_s < 0 or suspect_grace_s < 0:
            raise ValueError("the minimum body rate and its graces are not negative")
        self.total = total
        self.per_path = share_of(total, path_share)
        self.per_client = share_of(total, client_share)
        self.min_rate = min_rate
        self.grace_s = grace_s
        self.suspect_grace_s = min(suspect_grace_s, grace_s)
        self._clock = clock
        self._readers: set[SlotReader] = set()
        self._by_path: Counter[str] = Counter()
        self._by_client: Counter[str] = Counter()
        self._suspects: OrderedDict[str, float] = OrderedDict()  # address -> until when it reads without a grace
        self._lock = threading.Lock()

    @classmethod
    def for_budget(cls, max_body_bytes: int, budget_bytes: int = DEFAULT_BUDGET_BYTES, *,
                   path_share: float = DEFAULT_PATH_SHARE, client_share: float = DEFAULT_CLIENT_SHARE,
                   min_rate: float = DEFAULT_MIN_RATE, grace_s: float = DEFAULT_GRACE_S) -> BodySlots:
        """As many slots as bodies of ``max_body_bytes`` fit in ``budget_bytes`` (at least 1, at most MAX_TOTAL)."""
        return cls(max(1, min(MAX_TOTAL, budget_bytes // max(1, max_body_bytes))), path_share=path_share,
                   client_share=client_share, min_rate=min_rate, grace_s=grace_s)

    def held(self, *, path: str | None = None, client: str | None = None) -> int:
        """Slots held now: all of them, or those of one ``path`` or one ``client``."""
        with self._lock:
            if path is not None:
                return self._by_path[path]
            return len(self._readers) if client is None else self._by_client[client]

    @contextmanager
    def reading(self, *, path: str, client: str, declared: int | None = None) -> Iterator[SlotReader]:
        """Hold one slot for ``path`` and ``client`` while a body is read, taking a slow reader's if need be.

        ``declared`` is the body's Content-Length when it has one: its grace is then at most a round trip plus
        the time those bytes take at the minimum rate.

        Raises:
            WebhookBodiesBusyError: every slot is taken and no slow reader's leaving would admit the call (503 with
                ``retry_after``).
            WebhookBodiesLimitError: ``path`` or ``client`` already holds its share (429 with ``retry_after``). Both
                before anything is read.
        """
        with self._lock:
            refusal = self._refusal(path, client, leaving=None)
            if refusal is not None:
                # Only a full server is taken from: a call over its own share stays refused (the share holds).
                victim = self._slowest_making_room(path, client) if isinstance(refusal, WebhookBodiesBusyError) \
                    else None
                if victim is None:
                    raise refusal
                self._release(victim)
                self._suspect(victim.client)
                victim.mark_preempted()
            now = self._clock()
            grace_s = self.grace_s
            if self._suspects.get(client, now) > now:
                # A suspect that took a slow reader's slot gets no grace: tricklers taking each other's slots
                # would otherwise keep every slot within a fresh round trip.
                grace_s = 0.0 if refusal is not None else self.suspect_grace_s
            elif len(self._readers) + 1 >= self.total:
                # Taking the last slot: a round trip only, or senders from addresses never seen twice, each
                # hanging up within a whole grace, would keep every slot in grace.
                grace_s = min(grace_s, self.suspect_grace_s)
            if declared is not None and self.min_rate > 0:
                # A tiny body sent whole just inside a whole grace is as slow as a trickle, and never cut short.
                grace_s = min(grace_s, self.suspect_grace_s + declared / self.min_rate)
            reader = SlotReader(path, client, self._clock, min_rate=self.min_rate, grace_s=grace_s)
            self._readers.add(reader)
            self._by_path[path] += 1
            self._by_client[client] += 1
        try:
            yield reader
        finally:
            with self._lock:
                if reader in self._readers:  # a preempted reader's slot is already someone else's
                    self._release(reader)
                    if reader.cut_short and reader.short_of_rate():  # hanging up within the grace is no way out
                        self._suspect(client)

    def _refusal(self, path: str, client: str, *,
                 leaving: SlotReader | None) -> WebhookBodiesBusyError | WebhookBodiesLimitError | None:
        """Why a call of ``path`` from ``client`` finds no slot (once ``leaving`` has gone), or None."""
        if len(self._readers) - (leaving is not None) >= self.total:
            return WebhookBodiesBusyError(
                f"the server already reads {self.total} webhook bodies; retry in a moment",
                retry_after=RETRY_AFTER_SECONDS)
        if self._by_path[path] - (leaving is not None and leaving.path == path) >= self.per_path:
            return WebhookBodiesLimitError(
                f"webhook {path!r} already has {self.per_path} bodies being read (its share of the "
                f"server's {self.total}); retry in a moment", retry_after=RETRY_AFTER_SECONDS)
        if self._by_client[client] - (leaving is not None and leaving.client == client) >= self.per_client:
            return WebhookBodiesLimitError(
                f"this client already sends {self.per_client} webhook bodies (its share of the server's "
                f"{self.total}); retry in a moment", retry_after=RETRY_AFTER_SECONDS)
        return None

    def _slowest_making_room(self, path: str, client: str) -> SlotReader | None:
        """The slow reader whose leaving admits the call: the one owing the most bytes to the minimum rate (slow the
        longest), then the one on the path or client holding most slots; None when none is slow or would make room."""
        room = [reader for reader in self._readers
                if reader.is_slow() and self._refusal(path, client, leaving=reader) is None]
        if not room:
            return None
        return max(room, key=lambda reader: (reader.owed(),
                                             max(self._by_path[reader.path], self._by_client[reader.client])))

    def _suspect(self, client: str) -> None:
        self._suspects.pop(client, None)
        self._suspects[client] = self._clock() + SUSPECT_S
        while len(self._suspects) > MAX_SUSPECTS:
            self._suspects.popitem(last=False)

    def _release(self, reader: SlotReader) -> None:
        self._readers.discard(reader)
        for counts, key in ((self._by_path, reader.path), (self._by_client, reader.client)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]  # only holders are kept: the table never outgrows the slots
