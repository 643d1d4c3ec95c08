"""Latency sampling and summaries shared by the benchmarks (nanosecond samples, µs summaries)."""

from __future__ import annotations

import math
import statistics
from time import perf_counter_ns
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def percentile(samples: list[int], pct: float) -> float:
    """Nearest-rank percentile of ``samples`` (need not be sorted)."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return float(ordered[rank - 1])


def summarize_ns(samples: list[int]) -> dict[str, float]:
    """p50, p99, mean, min and max in microseconds."""
    return {
        "p50_us": round(percentile(samples, 50) / 1000, 3),
        "p99_us": round(percentile(samples, 99) / 1000, 3),
        "mean_us": round(statistics.fmean(samples) / 1000, 3),
        "min_us": round(min(samples) / 1000, 3),
        "max_us": round(max(samples) / 1000, 3),
        "n": len(samples),
    }


def sample_interleaved(calls: Mapping[str, Callable[[int], object]], *, n: int, warmup: int,
                       block: int = 1000) -> dict[str, list[int]]:
    """Time ``n`` calls of each path, alternating paths every ``block`` calls.

    Alternating in blocks spreads machine noise (other processes, frequency changes) over
    every path instead of letting it land on whichever ran last. Each call receives its
    iteration number, so a path cycles through its inputs with ``i % len(inputs)``.
    """
    for call in calls.values():
        for i in range(warmup):
            call(i)
    samples: dict[str, list[int]] = {name: [] for name in calls}
    for start in range(0, n, block):
        stop = min(n, start + block)
        for name, call in calls.items():
            out = samples[name]
            for i in range(start, stop):
                began = perf_counter_ns()
                call(i)
                out.append(perf_counter_ns() - began)
    return samples


def sample_after_each(prior: Callable[[int], object], timed: Callable[[int], object], *, n: int,
                      warmup: int) -> list[int]:
    """Time ``timed(i)`` right after each untimed ``prior(i)``: a call in the cache state another call leaves."""
    for i in range(warmup):
        prior(i)
        timed(i)
    samples = []
    for i in range(n):
        prior(i)
        began = perf_counter_ns()
        timed(i)
        samples.append(perf_counter_ns() - began)
    return samples
