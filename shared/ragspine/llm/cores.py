"""How many cores an embedder may take: this process's CPU affinity, less what other work keeps busy."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity: a container's or taskset's share), at least 1."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def free_cores(cores: int | None = None, load: float | None = None, *, own_busy: int = 0) -> int:
    """The usable cores not busy with other work now: ``cores`` less the 1-minute load average, rounded.

    At least 1, at most ``cores``; an unknown load counts as a busy machine. ``own_busy`` is work of
    the caller's own that the load average counts, given back. The onnxruntime kernel takes this many
    intra-op threads when it loads, so an idle two-core laptop embeds on both cores and a busy
    machine on one.
    """
    cores = cores if cores is not None else usable_cores()
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:
            load = float(cores)
    return max(1, min(cores, round(cores - load + own_busy)))
