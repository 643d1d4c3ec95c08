"""The per-path token bucket: a burst, then one call per refill interval, per path."""

from __future__ import annotations

import pytest

from ragspine.workflows.surfaces.rate_limit import TokenBucketLimiter
from tests.support.workflow_api import FakeClock


def test_a_burst_passes_then_the_next_call_waits_for_a_token() -> None:
    clock = FakeClock()
    limiter = TokenBucketLimiter(rate_per_minute=6, burst=2, clock=clock)
    assert [limiter.acquire("p"), limiter.acquire("p")] == [0, 0]
    assert limiter.acquire("p") == 10  # one token every 10 s


def test_time_refills_the_bucket() -> None:
    clock = FakeClock()
    limiter = TokenBucketLimiter(rate_per_minute=6, burst=1, clock=clock)
    assert limiter.acquire("p") == 0 and limiter.acquire("p") == 10
    clock.now += 4
    assert limiter.acquire("p") == 6
    clock.now += 6
    assert limiter.acquire("p") == 0


def test_paths_have_their_own_buckets() -> None:
    limiter = TokenBucketLimiter(rate_per_minute=1, burst=1, clock=FakeClock())
    assert limiter.acquire("a") == 0 and limiter.acquire("b") == 0
    assert limiter.acquire("a") > 0


def test_a_slot_held_until_its_deadline_costs_its_path_the_time_it_held_it() -> None:
    clock = FakeClock()
    limiter = TokenBucketLimiter(rate_per_minute=60, burst=10, clock=clock)  # one token a second
    assert limiter.acquire("p") == 0  # the call that then held its slot for 30 s in vain
    limiter.charge_held("p", 30.0)
    assert limiter.acquire("p") == 22  # 9 tokens left, 30 charged: 22 s until one is earned back
    assert limiter.acquire("q") == 0  # the charge is the path's alone
    clock.now += 22
    assert limiter.acquire("p") == 0


def test_a_slot_held_briefly_in_vain_still_costs_a_full_bucket() -> None:
    limiter = TokenBucketLimiter(rate_per_minute=60, burst=3, clock=FakeClock())
    assert limiter.acquire("p") == 0
    limiter.charge_held("p", 0.5)  # 0.5 s is worth half a token; the charge is at least the burst
    assert limiter.acquire("p") == 2


def test_a_slot_taken_by_a_waiting_caller_costs_the_time_held_alone() -> None:
    limiter = TokenBucketLimiter(rate_per_minute=60, burst=3, clock=FakeClock())
    assert limiter.acquire("p") == 0
    limiter.charge_held("p", 0.5, at_least_a_bucket=False)  # half a token of the 2 left: one more call now
    assert limiter.acquire("p") == 0
    assert limiter.acquire("p") == 1  # half a token left: one second until a whole one is earned back


def test_the_table_of_buckets_is_capped() -> None:
    limiter = TokenBucketLimiter(rate_per_minute=1, burst=1, clock=FakeClock(), max_keys=2)
    for key in ("a", "b", "c"):
        limiter.acquire(key)
    assert limiter.acquire("a") == 0  # "a" was evicted, so it starts full again


def test_nonsense_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        TokenBucketLimiter(rate_per_minute=0, burst=1)
