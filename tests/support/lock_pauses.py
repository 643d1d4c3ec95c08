"""How long a call keeps other threads waiting: the longest gap a ticking thread sees while it runs."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Paused(Generic[T]):
    value: T
    longest_s: float  # the longest time the ticking thread was kept from running
    call_s: float

    def message(self, what: str) -> str:
        return f"a pause of {self.longest_s * 1e3:.0f} ms in a {self.call_s * 1e3:.0f} ms {what}"


def longest_pause(call: Callable[[], T], *, collecting: bool = False) -> Paused[T]:
    """Run ``call`` beside a thread that ticks every half millisecond.

    Garbage collection is off during the call unless ``collecting``: a full collection over a large
    heap is a pause of its own, whoever triggers it, and without it this measures what the call
    itself holds the interpreter lock for. With it, the collector's pauses count too.
    """
    ticks: list[float] = []
    done = threading.Event()

    def tick() -> None:
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.02)
    was_enabled = gc.isenabled()
    if not collecting:
        gc.disable()
    try:
        began = time.perf_counter()
        value = call()
        ended = time.perf_counter()
    finally:
        if was_enabled:
            gc.enable()
        done.set()
        ticker.join()
    during = [began, *(t for t in ticks if began <= t <= ended), ended]
    longest = max(b - a for a, b in zip(during, during[1:], strict=False))
    return Paused(value, longest, ended - began)
