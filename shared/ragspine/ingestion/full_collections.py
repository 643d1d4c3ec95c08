"""Hold the garbage collector's full collections while an ingestion step runs beside the routes.

A step of a large document builds millions of short-lived objects in the service's process
(decoded chunks, terms and their ids, rows to write). The collector's oldest generation is
collected whenever enough objects have survived into it, and a full collection walks every
tracked object of the process with the interpreter lock held: 65–250 ms per collection during a
2,000-page PDF, in which no ask thread runs, whichever thread triggered it. While a step runs,
the oldest generation's threshold is raised so high that it is not reached; the two young
generations are still collected as usual (they only walk recent objects, so their pauses stay
short). When the last step running in the process ends, the threshold comes back, and the next
full collection finds the step's objects already freed by their reference counts.

What this costs: cyclic garbage that reached the oldest generation during a step waits for the
step's end (a step is bounded by the parse budget and the operation's size limits); nothing is
kept past it. The thresholds are process-wide, so concurrent steps share one hold, counted.

A full collection still runs soon after the hold ends, and then it walks every object the service
built at startup (its modules, classes, routes and settings: over 100,000), which are never
garbage: 85-290 ms with the lock held, right after activation, in whichever ask allocated next.
``freeze_startup_heap`` moves those objects, once per process, when the local service starts,
into the collector's permanent generation, so every later collection walks only what was made
since (a few thousand objects when nothing is ingesting).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ragspine.ingestion.process_hold import CountedHold

# Full collections happen after this many collections of the middle generation: with the default
# thresholds (700, 10), some seven billion allocations, so never within one step.
HELD_OLDEST_THRESHOLD = 1_000_000

_lock = threading.Lock()
_startup_frozen = False


def _hold_back_full_collections() -> Callable[[], None]:
    young, middle, oldest = gc.get_threshold()
    gc.set_threshold(young, middle, max(oldest, HELD_OLDEST_THRESHOLD))

    def restore() -> None:
        now_young, now_middle, _ = gc.get_threshold()
        gc.set_threshold(now_young, now_middle, oldest)
    return restore


_HOLD = CountedHold(_hold_back_full_collections)


@contextmanager
def full_collections_held() -> Iterator[None]:
    """Run the body with full collections held back; the process's own threshold comes back after."""
    with _HOLD.held():
        yield


def freeze_startup_heap() -> None:
    """Collect once, then keep every object alive now out of all later collections (first call only).

    Only the first call in a process freezes: what a later call would freeze (a second app in a
    test process) may become cyclic garbage, which a frozen object never is collected as.
    """
    global _startup_frozen
    with _lock:
        if _startup_frozen:
            return
        _startup_frozen = True
    gc.collect()
    gc.freeze()
