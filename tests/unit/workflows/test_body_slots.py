"""Webhook body-reading slots: a bounded number at once, refused (never queued) over it, given back on exit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.workflows.errors import WebhookBodiesBusyError
from ragspine.workflows.surfaces.body_slots import MAX_TOTAL, BodySlots

MIB = 1024 * 1024


def test_a_read_over_the_slots_is_refused_with_retry_after_and_a_freed_slot_serves_again() -> None:
    slots = BodySlots(2)
    with slots.reading(), slots.reading():
        with pytest.raises(WebhookBodiesBusyError) as refused, slots.reading():
            pass
        assert refused.value.http_status == 503 and refused.value.retry_after >= 1
    with slots.reading(), slots.reading():  # both given back
        pass


def test_a_read_that_fails_gives_its_slot_back() -> None:
    slots = BodySlots(1)
    with pytest.raises(ValueError), slots.reading():
        raise ValueError("the client left")
    with slots.reading():  # given back
        pass


@given(max_body=st.integers(1, 2 * 1024 * MIB), budget=st.integers(1, 1024 * MIB))
def test_the_slots_for_a_budget_hold_the_bodies_in_flight_within_it(max_body: int, budget: int) -> None:
    slots = BodySlots.for_budget(max_body, budget)
    assert 1 <= slots.total <= MAX_TOTAL
    if slots.total > 1:
        assert slots.total * max_body <= budget


def test_the_default_webhook_cap_gets_four_slots_of_sixteen_mib() -> None:
    assert BodySlots.for_budget(16 * MIB).total == 4
