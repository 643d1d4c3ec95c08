"""``sample_after_each``: the floor timed right after each unseen ask, the ask itself left out of the time."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))  # the bench's modules live beside run.py, not in a package

import timing  # noqa: E402


def test_each_floor_sample_follows_the_ask_of_the_same_input_and_times_the_floor_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN a clock that the ask moves by a million and the floor by ten (each reading adds one)
    now = [0]

    def clock() -> int:
        now[0] += 1
        return now[0]

    calls: list[tuple[str, int]] = []

    def ask(i: int) -> object:
        calls.append(("ask", i))
        now[0] += 1_000_000
        return i

    def floor(i: int) -> object:
        calls.append(("floor", i))
        now[0] += 10
        return i

    monkeypatch.setattr(timing, "perf_counter_ns", clock)
    # WHEN two warm-up rounds and three timed ones run
    samples = timing.sample_after_each(ask, floor, n=3, warmup=2)
    # THEN each floor call comes right after the ask of the same input, warm-up first
    assert calls == [(path, i) for i in (0, 1, 0, 1, 2) for path in ("ask", "floor")]
    # AND each sample is the floor's time alone (its ten and the second reading's one), one per timed round
    assert samples == [11, 11, 11]
