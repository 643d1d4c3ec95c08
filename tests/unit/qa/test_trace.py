"""The answer's trace gives each stage's time in milliseconds to the microsecond, and the whole ask's."""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.trace import TraceRecorder


@given(st.integers(min_value=1, max_value=4))
def test_each_stage_is_timed_in_milliseconds_to_the_microsecond(stages: int) -> None:
    trace = TraceRecorder.begin(12, "0" * 16, time.perf_counter())
    for i in range(stages):
        sum(range(1000 * i))  # some work in the stage
        trace.stage(f"s{i}")
    trace.skip(("cached", "also_cached"))
    emitted = trace.finish(route="structured", status="found", slots={}, fact_ids=[], chunk_ids=[])
    timings = emitted["timings_ms"]
    assert isinstance(timings, dict)
    assert list(timings) == [*(f"s{i}" for i in range(stages)), "cached", "also_cached", "total"]
    assert timings["also_cached"] == 0.0  # closed at once with the stage before it
    for value in timings.values():
        assert isinstance(value, float) and 0.0 <= value < 60_000
        assert abs(value * 1000 - round(value * 1000)) < 1e-6  # three decimals of a millisecond at most
    assert timings["total"] >= sum(timings[f"s{i}"] for i in range(stages)) - 0.001 * stages
