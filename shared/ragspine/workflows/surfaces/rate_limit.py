"""A token bucket per key (webhook path), kept in process memory.

Each process (each warm Lambda instance, each local server) counts on its own, so the limit
is per instance, not global: it stops one caller hammering one path through one instance,
and the API Gateway stage throttle bounds the total. Buckets are created only for paths of
active workflows and the table is capped, so unknown paths cannot grow memory.

A call that held a body-reading slot until its deadline cut it off (408) is charged more than
one token (:meth:`TokenBucketLimiter.charge_held`): its path then waits about as long as the
slot was held, less a full bucket, before it is served again, so a sender that reconnects
after each 408 holds its slot little more than half the time. A sender that hangs up before the
deadline, after holding its slot for at least half of it, is charged the same way for the time
it held. A slow reader whose slot a waiting caller took is charged the tokens of the time it held
alone: it held only a slot nobody else needed until then, so a sender that keeps reconnecting
drains its path by a call's token each time, while one honest slow caller does not lock its
path out.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

MAX_KEYS = 10_000


class TokenBucketLimiter:
    """``burst`` calls at once per key, refilled at ``rate_per_minute``; thread-safe."""

    def __init__(self, *, rate_per_minute: int, burst: int, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = MAX_KEYS) -> None:
        if rate_per_minute < 1 or burst < 1 or max_keys < 1:
            raise ValueError("rate_per_minute, burst and max_keys must be at least 1")
        self._rate = rate_per_minute / 60.0
        self._burst = float(burst)
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def acquire(self, key: str) -> int:
        """Take one token for ``key``.

        Returns:
            0 when the call may proceed, else the whole seconds until a token is available.
        """
        with self._lock:
            now = self._clock()
            tokens, last = self._buckets.pop(key, (self._burst, now))
            tokens = min(self._burst, tokens + (now - last) * self._rate)
            wait = 0 if tokens >= 1.0 else max(1, math.ceil((1.0 - tokens) / self._rate))
            self._buckets[key] = (tokens - 1.0 if wait == 0 else tokens, now)
            self._trim()
            return wait

    def now(self) -> float:
        """The limiter's clock, in seconds: what a slot's holding time is measured by, so it is charged alike."""
        return self._clock()

    def charge_held(self, key: str, seconds: float, *, at_least_a_bucket: bool = True) -> None:
        """Charge ``key`` for a slot held ``seconds`` in vain: the tokens it earns in that time, and (unless
        ``at_least_a_bucket`` is False) at least a full bucket.

        The bucket may go below zero, so the path's next call waits until the charge is earned back.
        """
        with self._lock:
            now = self._clock()
            tokens, last = self._buckets.pop(key, (self._burst, now))
            tokens = min(self._burst, tokens + (now - last) * self._rate)
            charge = seconds * self._rate
            self._buckets[key] = (tokens - (max(self._burst, charge) if at_least_a_bucket else charge), now)
            self._trim()

    def _trim(self) -> None:
        while len(self._buckets) > self._max_keys:
            self._buckets.popitem(last=False)  # least recently used first
