"""Webhook body-reading slots: a bounded number at once, a share per path and per client, refused (never queued)
over either, given back on exit; a call finding every slot taken takes a slow reader's."""

from __future__ import annotations

from contextlib import ExitStack, suppress
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.workflows.errors import WebhookBodiesBusyError, WebhookBodiesLimitError
from ragspine.workflows.surfaces.body_slots import (
    DEFAULT_SUSPECT_GRACE_S,
    MAX_TOTAL,
    SUSPECT_S,
    BodySlots,
    SlotReader,
    share_of,
)

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


class _Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_call_finding_every_slot_taken_by_slow_readers_takes_the_slowest_on_the_busiest_path() -> None:
    clock = _Clock()
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=clock)
    with ExitStack() as held:
        # Two addresses trickling to two paths: within every share, all four slots taken.
        senders = [("a", "x", 1), ("a", "x", 1), ("b", "x", 1), ("b", "y", 900)]
        readers = []
        for path, client, sent in senders:
            reader = held.enter_context(slots.reading(path=path, client=client))
            reader.received = sent
            readers.append(reader)
            clock.now += 1.0
        # Each past its one-second grace, below 500 bytes a second on average.
        cut: list[SlotReader] = []
        for reader in readers:
            reader.on_preempt(partial(cut.append, reader))
        honest = held.enter_context(slots.reading(path="c", client="z"))
        # Client x holds three slots: of its readers, the slowest (1 byte in the longest hold) gives its slot.
        assert cut == [readers[0]] and readers[0].preempted
        assert not any(reader.preempted for reader in readers[1:])
        assert slots.held() == 4 and slots.held(path="a") == 1 and slots.held(client="x") == 2
        assert slots.held(path="c") == 1 and not honest.preempted
    assert slots.held() == 0  # the preempted reader's exit gives back nothing twice


@pytest.mark.parametrize("progress", [
    pytest.param([(4.0, 2000), (3.0, 1500), (2.0, 1000), (1.5, 750)], id="at-the-minimum-rate"),
    pytest.param([(0.9, 0), (0.6, 0), (0.3, 0), (0.0, 0)], id="within-the-grace"),
])
def test_readers_at_the_minimum_rate_or_within_their_grace_keep_their_slots(
        progress: list[tuple[float, int]]) -> None:
    clock = _Clock()
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=clock)
    with ExitStack() as held:
        readers = []
        for (path, client), (age, sent) in zip([("a", "x"), ("a", "y"), ("b", "x"), ("b", "y")], progress,
                                               strict=True):
            clock.now = 100.0 - age
            reader = held.enter_context(slots.reading(path=path, client=client))
            reader.received = sent
            readers.append(reader)
        clock.now = 100.0
        with pytest.raises(WebhookBodiesBusyError), slots.reading(path="c", client="z"):
            pass
        assert slots.held() == 4 and not any(reader.preempted for reader in readers)


def test_a_reader_whose_body_has_arrived_is_not_preempted_while_it_is_parsed() -> None:
    clock = _Clock()
    slots = BodySlots(1, min_rate=500, grace_s=1.0, clock=clock)
    with slots.reading(path="a", client="x") as parsing:
        parsing.received, parsing.done = 10, True
        clock.now += 60.0
        with pytest.raises(WebhookBodiesBusyError), slots.reading(path="b", client="y"):
            pass
        assert not parsing.preempted


def test_an_address_whose_reader_was_preempted_reads_with_a_round_trip_of_grace_for_a_while() -> None:
    clock = _Clock()
    slots = BodySlots(2, min_rate=500, grace_s=1.0, path_share=1, client_share=1, clock=clock)
    with ExitStack() as held:
        slow = held.enter_context(slots.reading(path="a", client="x"))
        held.enter_context(slots.reading(path="b", client="y")).received = 5000  # y keeps up the minimum rate
        clock.now += 2.0
        held.enter_context(slots.reading(path="c", client="z"))  # takes x's slot: x stalled past its grace
        assert slow.preempted
        # x reconnects at once and gets the slot back when z is done; a moment later a new call comes.
    with ExitStack() as held:
        fresh = held.enter_context(slots.reading(path="b", client="y"))
        again = held.enter_context(slots.reading(path="a", client="x"))
        clock.now += 0.4  # x past its round trip, y well within its grace, neither at the minimum rate
        held.enter_context(slots.reading(path="c", client="z"))
        assert again.grace_s == DEFAULT_SUSPECT_GRACE_S and again.preempted and not fresh.preempted
    clock.now += SUSPECT_S  # the address is trusted with a grace again
    with ExitStack() as held:
        later = held.enter_context(slots.reading(path="a", client="x"))
        held.enter_context(slots.reading(path="b", client="y")).received = 5000  # y keeps up the minimum rate
        clock.now += 0.4
        with pytest.raises(WebhookBodiesBusyError), slots.reading(path="c", client="z"):
            pass
        assert not later.preempted


def test_a_sender_hanging_up_within_its_grace_below_the_rate_gets_only_a_round_trip_of_grace_after() -> None:
    clock = _Clock()
    slots = BodySlots(2, min_rate=500, grace_s=1.0, path_share=1, client_share=1, clock=clock)
    with slots.reading(path="a", client="x") as cycler:
        cycler.received = 1  # "{", then nothing
        clock.now += 0.8
        cycler.cut_short = True  # it hangs up within its grace, and comes back at once
    with slots.reading(path="b", client="y") as fast:
        fast.received, fast.cut_short = 2000, True  # hung up too, but at the minimum rate: not suspect
    with ExitStack() as held:
        other = held.enter_context(slots.reading(path="b", client="y"))
        again = held.enter_context(slots.reading(path="a", client="x"))
        again.received = other.received = 1
        clock.now += 0.4  # past a round trip, well within a grace
        honest = held.enter_context(slots.reading(path="c", client="z"))
        assert again.preempted and not other.preempted and not honest.preempted


def test_a_suspect_address_taking_a_slow_readers_slot_gets_no_grace() -> None:
    """Tricklers taking each other's slots would otherwise keep every slot within a fresh round trip."""
    clock = _Clock()
    slots = BodySlots(2, min_rate=500, grace_s=1.0, path_share=1, client_share=1, clock=clock)
    with ExitStack() as held:
        slow = held.enter_context(slots.reading(path="a", client="x"))
        other = held.enter_context(slots.reading(path="b", client="y"))
        other.received = 10
        clock.now += 2.0
        held.enter_context(slots.reading(path="c", client="z")).received = 10_000  # takes x's slot: x is suspect
        assert slow.preempted
        clock.now += 2.0
        again = held.enter_context(slots.reading(path="a", client="x"))  # x comes back and takes y's slot
        assert other.preempted
        clock.now += 0.1  # within a round trip
        held.enter_context(slots.reading(path="d", client="w"))
        assert again.preempted


def test_a_caller_behind_a_suspect_address_keeps_its_slot_while_tricklers_owing_more_go_first() -> None:
    clock = _Clock()
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=clock)
    with ExitStack() as held:
        tricklers = [held.enter_context(slots.reading(path=f"t{i}", client=client)) for i, client in enumerate("xyws")]
        clock.now += 2.0
        for trickler, sent in zip(tricklers, [2, 4, 4, 4], strict=True):
            trickler.received = sent  # a byte every half second, or less
        with slots.reading(path="waiter", client="v"):
            assert tricklers[0].preempted  # x owed the most: x is suspect now
        back = held.enter_context(slots.reading(path="t0", client="x"))  # x's trickler comes back at once
        clock.now += 1.0
        back.received = 2
        # An honest caller behind x (a NAT) takes a trickler's slot: no grace, but it owes little yet.
        honest = held.enter_context(slots.reading(path="nat", client="x"))
        calls = iter(["u1", "u2", "u3"])
        clock.now += 0.15  # one round trip: its body is on its way
        held.enter_context(slots.reading(path=next(calls), client="u"))
        assert not honest.preempted
        clock.now += 0.2  # a slow link: it owes far less than any trickler
        for _ in range(2):
            held.enter_context(slots.reading(path=next(calls), client="u"))
            assert not honest.preempted
        assert all(trickler.preempted for trickler in tricklers) and back.preempted


def test_a_call_over_its_own_share_never_takes_a_slot() -> None:
    clock = _Clock()
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=clock)
    with slots.reading(path="a", client="x") as first, slots.reading(path="a", client="y") as second:
        clock.now += 10.0  # both slow, past their grace
        with pytest.raises(WebhookBodiesLimitError), slots.reading(path="a", client="z"):
            pass
        assert not first.preempted and not second.preempted and slots.held(path="a") == 2


def test_a_reader_preempted_before_it_listens_is_told_at_once() -> None:
    clock = _Clock()
    slots = BodySlots(1, min_rate=500, grace_s=0.0, clock=clock)
    with slots.reading(path="a", client="x") as slow:
        clock.now += 1.0
        with slots.reading(path="b", client="y"):
            told: list[bool] = []
            slow.on_preempt(lambda: told.append(True))
            assert told == [True]


@given(calls=st.lists(st.tuples(st.sampled_from("abcde"), st.sampled_from("vwxyz"), st.floats(0, 3),
                                st.integers(0, 5_000), st.booleans()), min_size=1, max_size=12))
def test_only_a_reader_below_the_minimum_rate_past_its_grace_is_ever_preempted(
        calls: list[tuple[str, str, float, int, bool]]) -> None:
    """Callers arrive ``wait`` seconds apart; each admitted reader has sent ``sent`` bytes (``done``: all of them)."""
    clock = _Clock()
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=clock)
    suspects: set[str] = set()  # addresses with a reader preempted (within the minute the test lasts)
    last_slot: set[SlotReader] = set()  # readers that took the last slot free
    with ExitStack() as held:
        admitted: list[SlotReader] = []
        for path, client, wait, sent, done in calls:
            clock.now += wait
            was_full = slots.held() == 4
            before = {reader for reader in admitted if reader.preempted}
            with suppress(WebhookBodiesBusyError, WebhookBodiesLimitError):
                reader = held.enter_context(slots.reading(path=path, client=client))
                reader.received, reader.done = sent, done
                admitted.append(reader)
                if slots.held() == 4:
                    last_slot.add(reader)
            newly = [reader for reader in admitted if reader.preempted and reader not in before]
            assert len(newly) <= 1 and (not newly or was_full)  # one slot at a time, and only from a full server
            for victim in newly:
                age = clock.now - victim.started
                assert not victim.done and victim.received < 500 * age
                # Its grace passed: a round trip's, or none if it took a slot, only if it took the last slot or its
                # address had a reader preempted before it came.
                assert age >= 1.0 or (age >= victim.grace_s and victim.grace_s in (0.0, DEFAULT_SUSPECT_GRACE_S)
                                      and (victim.client in suspects or victim in last_slot))
                suspects.add(victim.client)
            assert slots.held() <= 4
            assert all(slots.held(path=p) <= slots.per_path for p in "abcde")
            assert all(slots.held(client=c) <= slots.per_client for c in "vwxyz")
    assert slots.held() == 0


def test_the_reader_taking_the_last_slot_free_gets_a_round_trip_of_grace() -> None:
    """Senders from addresses never seen twice, each hanging up within a whole grace, would keep every slot in it."""
    clock = _Clock()
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=clock)
    with ExitStack() as held:
        readers = [held.enter_context(slots.reading(path=f"p{i}", client=f"fresh{i}")) for i in range(4)]
        assert [reader.grace_s for reader in readers] == [1.0, 1.0, 1.0, DEFAULT_SUSPECT_GRACE_S]
        clock.now += 0.5
        held.enter_context(slots.reading(path="honest", client="h"))
        assert [reader.preempted for reader in readers] == [False, False, False, True]


@given(declared=st.integers(0, 10_000))
def test_a_readers_grace_is_at_most_a_round_trip_and_its_declared_bytes_at_the_minimum_rate(declared: int) -> None:
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=_Clock())
    with slots.reading(path="a", client="x", declared=declared) as reader:
        assert reader.grace_s == min(1.0, DEFAULT_SUSPECT_GRACE_S + declared / 500)
    with slots.reading(path="a", client="x") as chunked:
        assert chunked.grace_s == 1.0


def test_a_tiny_body_sent_whole_just_inside_a_whole_grace_is_slow_past_its_own() -> None:
    clock = _Clock()
    slots = BodySlots(4, min_rate=500, grace_s=1.0, clock=clock)
    with ExitStack() as held:
        tiny = [held.enter_context(slots.reading(path=f"t{i}", client=f"x{i}", declared=20)) for i in range(3)]
        upload = held.enter_context(slots.reading(path="up", client="u", declared=5_000_000))
        for reader in tiny:
            reader.received = 1  # one byte; the other nineteen 0.9 s later
        clock.now += 0.5
        upload.received = 25_000  # 50 KB a second
        held.enter_context(slots.reading(path="honest", client="h"))
        assert sum(reader.preempted for reader in tiny) == 1 and not upload.preempted
