"""The garbage collector while a function starts: held until its first request ends, then kept off what startup built.

A cold start of the ask function imports some thousand modules and, on its first request, builds the
Q&A engine: about 110,000 tracked objects that live as long as the process. With the default
thresholds the collector meanwhile runs some 220 young, 20 middle and one full collection, each
walking objects that are not garbage: about 70 ms of CPU per cold start (``gc.callbacks`` timing).
``hold_collections`` raises the young generation's threshold so that none of them runs;
``release_collections``, after the first request (or before a SnapStart snapshot), moves every object
alive into the permanent generation (``gc.freeze``), which no later collection walks, and puts the
thresholds back, so the next collections walk only what was made since.

What it costs: the cyclic garbage that startup leaves (about a thousand objects, some 0.3 MB:
classes and functions built and dropped while importing) is frozen with the rest and never freed.
A start allocating a million objects more than it frees is still collected.
"""

from __future__ import annotations

import gc
import threading

# Young collections happen after this many more allocations than frees of tracked objects: several
# times what a cold start makes, so none runs, yet a runaway first request is still collected.
HELD_YOUNG_THRESHOLD = 1_000_000

_lock = threading.Lock()
_held: tuple[int, int, int] | None = None  # the thresholds to put back while held


def hold_collections() -> None:
    """Hold the collector's collections until ``release_collections`` (a second hold changes nothing)."""
    global _held
    with _lock:
        if _held is not None:
            return
        _held = gc.get_threshold()
        young, middle, oldest = _held
        gc.set_threshold(max(young, HELD_YOUNG_THRESHOLD), middle, oldest)


def release_collections() -> None:
    """Freeze every object alive and put the thresholds back; nothing when no hold is on."""
    global _held
    if _held is None:  # every request after the first: one read
        return
    with _lock:
        if _held is None:
            return
        gc.freeze()
        gc.set_threshold(*_held)
        _held = None


def collections_held() -> bool:
    """Whether a hold is on."""
    return _held is not None
