"""The int8 kernel on one onnxruntime thread and on two, by wall time, on a machine other work shares.

A benchmark helper, not a test. The two sessions' batches alternate, so both see the same load;
before each pair the 1-minute load average and the free cores (``llm/cores.py``, what the service
counts when its model loads) are read and kept with the pair. Three figures come out:

- ``wall_ratio``: two threads' wall seconds over one thread's, every pair: what this machine gave
  at its load, mostly time spent waiting for a core when none is free;
- ``wall_ratio_free``: the same over the pairs that began with two cores free (None when none did:
  a free core was never seen, so nothing was measured of an idle machine);
- ``calling_thread_ratio``: the CPU seconds of the thread that runs the session (``time.thread_time``)
  on two threads, over the process's CPU seconds on one. onnxruntime's calling thread takes a share
  of every parallel loop and runs every serial step, so on two free cores the wall time is about
  its CPU time: a derived estimate, not a measurement. It is over the idle machine's wall time when
  the pool's thread was starved of a core (the calling thread then runs that thread's share too:
  ``worker_share`` says how much the pool's thread did) and under it by the waits for the pool
  thread's last share; CPU time does not count the waits for a core, so the load moves it little.
"""

from __future__ import annotations

import os
import time
from typing import Any

BATCH = 8  # the background embedder's batch (retrieval/dense_backfill.py DEFAULT_BATCH)


def _batches(texts: list[str]) -> list[list[str]]:
    ordered = sorted(texts, key=len)
    return [ordered[i:i + BATCH] for i in range(0, len(ordered), BATCH)]


def _timed(embedder: Any, batch: list[str]) -> tuple[float, float, float]:
    """Wall, process CPU and calling-thread CPU seconds of one batch."""
    wall, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
    embedder.embed(batch)
    return time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - own


def thread_walls(one: Any, two: Any, texts: list[str], *, cores: int = 2) -> list[dict[str, float]]:
    """One thread's and two threads' batches of ``texts`` alternating, with the load read at each pair."""
    from ragspine.llm.cores import free_cores

    pairs: list[dict[str, float]] = []
    for batch in _batches(texts):
        load = os.getloadavg()[0]
        free = free_cores(cores, load)
        wall_1, cpu_1, _ = _timed(one, batch)
        wall_2, cpu_2, own_2 = _timed(two, batch)
        pairs.append({"load": load, "free_cores": free, "wall_1": wall_1, "cpu_1": cpu_1,
                      "wall_2": wall_2, "cpu_2": cpu_2, "calling_thread_2": own_2})
    return pairs


def summarise(pairs: list[dict[str, float]], cores: int) -> dict[str, Any]:
    """The ratios of ``thread_walls`` from its pairs."""
    def total(key: str, chosen: list[dict[str, float]]) -> float:
        return sum(pair[key] for pair in chosen)

    free = [pair for pair in pairs if pair["free_cores"] >= cores]
    loads = [pair["load"] for pair in pairs]
    return {
        "pairs": len(pairs), "pairs_with_free_cores": len(free),
        "load_average": {"lowest": round(min(loads), 2), "highest": round(max(loads), 2)} if loads else None,
        "wall_s": {"one": round(total("wall_1", pairs), 2), "two": round(total("wall_2", pairs), 2)},
        "cpu_s": {"one": round(total("cpu_1", pairs), 2), "two": round(total("cpu_2", pairs), 2),
                  "two_calling_thread": round(total("calling_thread_2", pairs), 2)},
        "wall_ratio": _ratio(total("wall_2", pairs), total("wall_1", pairs)),
        "wall_ratio_free": _ratio(total("wall_2", free), total("wall_1", free)) if free else None,
        "calling_thread_ratio": _ratio(total("calling_thread_2", pairs), total("cpu_1", pairs)),
        "worker_share": _ratio(total("cpu_2", pairs) - total("calling_thread_2", pairs), total("cpu_2", pairs)),
    }


def _ratio(numerator: float, denominator: float) -> float | None:
    return round(numerator / denominator, 3) if denominator > 0 else None
