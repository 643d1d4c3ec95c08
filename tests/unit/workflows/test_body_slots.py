"""Webhook body-reading slots: a bounded number at once, a share per path and per client, refused (never queued)
over either, given back on exit."""

from __future__ import annotations

from contextlib import ExitStack, suppress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.workflows.errors import WebhookBodiesBusyError, WebhookBodiesLimitError
from ragspine.workflows.surfaces.body_slots import MAX_TOTAL, BodySlots, share_of

MIB = 1024 * 1024


def test_a_read_over_the_slots_is_refused_with_retry_after_and_a_freed_slot_serves_again() -> None:
    slots = BodySlots(2)
    with slots.reading(path="a", client="x"), slots.reading(path="b", client="y"):
        with pytest.raises(WebhookBodiesBusyError) as refused, slots.reading(path="c", client="z"):
            pass
        assert refused.value.http_status == 503 and refused.value.retry_after >= 1
    with slots.reading(path="a", client="x"), slots.reading(path="b", client="y"):  # both given back
        assert slots.held() == 2


def test_a_read_that_fails_gives_its_slot_back() -> None:
    slots = BodySlots(1)
    with pytest.raises(ValueError), slots.reading(path="a", client="x"):
        raise ValueError("the client left")
    with slots.reading(path="a", client="x"):  # given back
        assert slots.held(path="a") == 1


@given(max_body=st.integers(1, 2 * 1024 * MIB), budget=st.integers(1, 1024 * MIB))
def test_the_slots_for_a_budget_hold_the_bodies_in_flight_within_it(max_body: int, budget: int) -> None:
    slots = BodySlots.for_budget(max_body, budget)
    assert 1 <= slots.total <= MAX_TOTAL
    if slots.total > 1:
        assert slots.total * max_body <= budget


def test_the_default_webhook_cap_gets_four_slots_of_sixteen_mib() -> None:
    assert BodySlots.for_budget(16 * MIB).total == 4


def test_one_path_holds_at_most_its_share_and_another_path_still_finds_a_slot() -> None:
    slots = BodySlots(4)  # the default shares: half per path, three quarters per client
    with slots.reading(path="a", client="x"), slots.reading(path="a", client="y"):
        with pytest.raises(WebhookBodiesLimitError) as refused, slots.reading(path="a", client="z"):
            pass
        assert refused.value.http_status == 429 and refused.value.retry_after >= 1
        assert slots.held(path="a") == 2
        with slots.reading(path="b", client="x"):
            assert slots.held() == 3


def test_one_client_holds_at_most_its_share_whatever_the_paths() -> None:
    slots = BodySlots(4)
    with slots.reading(path="a", client="x"), slots.reading(path="b", client="x"), slots.reading(path="c", client="x"):
        with pytest.raises(WebhookBodiesLimitError, match="this client"), slots.reading(path="d", client="x"):
            pass
        with slots.reading(path="d", client="y"):  # another address takes the last slot
            assert slots.held() == 4


@given(total=st.integers(1, MAX_TOTAL), share=st.floats(0.01, 1.0))
def test_a_share_is_at_least_one_slot_and_never_every_slot_unless_it_is_all(total: int, share: float) -> None:
    slots = share_of(total, share)
    assert 1 <= slots <= total
    if total > 1 and share < 1:
        assert slots < total  # another path (or client) always finds one


@given(holders=st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("xyz")), max_size=12))
def test_the_shares_hold_whatever_the_order_of_callers(holders: list[tuple[str, str]]) -> None:
    slots = BodySlots(4)
    with ExitStack() as held:
        for path, client in holders:
            with suppress(WebhookBodiesBusyError, WebhookBodiesLimitError):
                held.enter_context(slots.reading(path=path, client=client))
            assert slots.held() <= 4
            assert all(slots.held(path=p) <= slots.per_path for p in "abc")
    assert slots.held() == 0  # every slot given back
