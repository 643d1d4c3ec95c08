"""Senders that trickle bodies to one webhook path, and reconnect when cut off, leave slots for other paths.

The real app runs in uvicorn on loopback. Raw-socket senders announce a body and send only its
first part, then stop: each holds a body-reading slot until its deadline. One path may hold only
its share of the slots (half of them by default), so a call over it is refused at once (429) and
another active webhook is still served, even from the same client address; a sender cut off by
the deadline (408) is charged its path's tokens for the time it held the slot, so reconnecting at
once is refused (429) instead of taking the slot again. So is one whose read averaged below the minimum
rate past its grace, however it ended (malformed, hung up, or whole and run); a sender at the minimum
rate is not charged. Statuses and slot counts are asserted, never durations (the slots' and the
bucket's clock is one the test moves).
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest

from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.live_webhooks import LiveWebhooks, live_webhooks, reply_status

pytest.importorskip("uvicorn")

PATIENCE = 30.0  # bounds a hang only; nothing is asserted about durations
FIRST_PART = b'{"text": "' + b"y" * 1024


def _server(store: SqliteWorkflowStore, **limits: Any) -> Iterator[LiveWebhooks]:
    return live_webhooks(store, ("summarise", "other"), name="webhook-slot-share-uvicorn", **limits)


@pytest.fixture
def four_slots(sqlite_store: SqliteWorkflowStore) -> Iterator[LiveWebhooks]:
    """Four webhook bodies read at once, the default shares; no deadline or bucket in the way."""
    yield from _server(sqlite_store, burst=100, body_timeout_s=PATIENCE)


@pytest.fixture
def short_deadline(sqlite_store: SqliteWorkflowStore) -> Iterator[LiveWebhooks]:
    """Bodies must arrive within half a second; a bucket of three calls per path whose clock stands still."""
    yield from _server(sqlite_store, burst=3, body_timeout_s=0.5)


def _stalled(port: int, path: str = "summarise", length: int = 64 * 1024) -> socket.socket:
    """A connection that announced a body of ``length`` bytes to ``path``, sent its first part and then nothing
    more."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    sock.sendall(f"POST /webhook/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {length}\r\n\r\n".encode() + FIRST_PART)
    return sock



def _held_or_answered(server: LiveWebhooks, senders: ExitStack) -> int | None:
    """Start a stalled sender (closed with ``senders``): None once the server reads its body (it holds a
    slot), else the status it was answered with."""
    read_before, deadline = server.counter.read, time.monotonic() + PATIENCE
    sock = senders.enter_context(_stalled(server.port))
    while server.counter.read == read_before:
        if select.select([sock], [], [], 0.02)[0]:
            return reply_status(sock)[0]
        assert time.monotonic() < deadline, "the sender neither took a slot nor was answered"
    return None


def test_senders_holding_one_path_leave_a_slot_for_another_webhook(four_slots: LiveWebhooks) -> None:
    server = four_slots
    with ExitStack() as senders:
        # As many senders as the server has slots, all on one path, one after the other.
        answered = [_held_or_answered(server, senders) for _ in range(4)]
        assert answered == [None, None, 429, 429]  # half the slots for one path; the rest refused, nothing read
        assert server.held("summarise") == 2
        # Another webhook, called from the same address, finds a free slot and runs.
        reply = httpx.post(server.base + "/webhook/other", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 200, reply.text


def test_a_call_over_its_paths_share_is_refused_before_its_body_is_read(four_slots: LiveWebhooks) -> None:
    server = four_slots
    with ExitStack() as senders:
        assert _held_or_answered(server, senders) is None and _held_or_answered(server, senders) is None
        before = server.counter.read
        with _stalled(server.port) as third:
            status, body = reply_status(third)
        assert status == 429 and "its share of the server's 4" in str(body["message"]), body
        assert server.counter.read == before  # the refused body was not read


def test_a_sender_cut_off_by_the_deadline_is_refused_when_it_reconnects(short_deadline: LiveWebhooks) -> None:
    server = short_deadline
    with _stalled(server.port) as sender:
        status, body = reply_status(sender)
    assert status == 408, body
    before = server.counter.read
    with _stalled(server.port) as again:  # at once, with tokens left in the path's bucket before the 408
        status, body = reply_status(again)
    assert status == 429 and "too many calls to webhook 'summarise'" in str(body["message"]), body
    assert server.counter.read == before and server.held("summarise") == 0
    # The charge is the path's alone: another webhook is served.
    reply = httpx.post(server.base + "/webhook/other", json={"text": "hello"}, timeout=PATIENCE)
    assert reply.status_code == 200, reply.text


@pytest.fixture
def patient_deadline(sqlite_store: SqliteWorkflowStore) -> Iterator[LiveWebhooks]:
    """A bucket of three calls per path on a clock the test moves; the body deadline never passes by itself."""
    yield from _server(sqlite_store, burst=3, body_timeout_s=PATIENCE)


def _hang_up_after(server: LiveWebhooks, held_s: float) -> None:
    """A sender takes a slot, holds it ``held_s`` seconds of the limiter's clock, then hangs up without its body."""
    with ExitStack() as senders:
        assert _held_or_answered(server, senders) is None
        server.api.clock.now += held_s
    deadline = time.monotonic() + PATIENCE
    while server.held("summarise"):  # the server has seen the hang-up once the slot is given back
        assert time.monotonic() < deadline, "the slot of a sender that hung up was never given back"
        time.sleep(0.01)


def test_a_sender_hanging_up_just_before_the_deadline_is_charged_like_a_408(patient_deadline: LiveWebhooks) -> None:
    server = patient_deadline
    _hang_up_after(server, 0.9 * PATIENCE)
    reply = httpx.post(server.base + "/webhook/summarise", json={"text": "hello"}, timeout=PATIENCE)
    assert reply.status_code == 429 and "too many calls to webhook 'summarise'" in reply.json()["message"], reply.text
    # The charge is the path's alone: another webhook is served.
    reply = httpx.post(server.base + "/webhook/other", json={"text": "hello"}, timeout=PATIENCE)
    assert reply.status_code == 200, reply.text


def test_a_sender_giving_up_early_is_not_charged(patient_deadline: LiveWebhooks) -> None:
    server = patient_deadline
    _hang_up_after(server, 0.1 * PATIENCE)
    reply = httpx.post(server.base + "/webhook/summarise", json={"text": "hello"}, timeout=PATIENCE)
    assert reply.status_code == 200, reply.text


@pytest.fixture
def min_rate(sqlite_store: SqliteWorkflowStore) -> Iterator[LiveWebhooks]:
    """Bodies must average 500 bytes a second once past a one-second grace, on a clock the test moves; a bucket of
    three calls per path; the body deadline never passes by itself."""
    yield from _server(sqlite_store, burst=3, body_timeout_s=PATIENCE, min_rate=500.0, grace_s=1.0)


BODY_BYTES = 64 * 1024  # what _stalled announces
VALID_REST = b'"}' + b" " * (BODY_BYTES - len(FIRST_PART) - 2)  # JSON may end in blanks


def _finished_after(server: LiveWebhooks, held_s: float, rest: bytes) -> tuple[int, dict[str, object]]:
    """A sender takes a slot, holds it ``held_s`` seconds of the clock, then sends the rest of its body."""
    with _stalled(server.port, length=len(FIRST_PART) + len(rest)) as sender:
        deadline = time.monotonic() + PATIENCE
        while not server.held("summarise"):
            assert time.monotonic() < deadline, "the sender never took a slot"
            time.sleep(0.01)
        server.api.clock.now += held_s
        sender.sendall(rest)
        return reply_status(sender)


def _next_call(server: LiveWebhooks) -> httpx.Response:
    return httpx.post(server.base + "/webhook/summarise", json={"text": "hello"}, timeout=PATIENCE)


@pytest.mark.parametrize("rest", [b"x" * len(VALID_REST), VALID_REST], ids=["malformed", "valid"])
def test_a_body_trickled_below_the_minimum_rate_charges_its_path_however_it_ends(min_rate: LiveWebhooks,
                                                                                  rest: bytes) -> None:
    server = min_rate
    status, body = _finished_after(server, BODY_BYTES / 500.0 * 1.5, rest)  # two thirds of the minimum rate
    assert status == (200 if rest == VALID_REST else 400), body  # a whole valid body still runs
    refused = _next_call(server)
    assert refused.status_code == 429 and "too many calls to webhook 'summarise'" in refused.json()["message"], \
        refused.text
    assert httpx.post(server.base + "/webhook/other", json={"text": "hello"}, timeout=PATIENCE).status_code == 200


def test_a_slow_sender_at_the_minimum_rate_is_not_charged(min_rate: LiveWebhooks) -> None:
    server = min_rate
    status, body = _finished_after(server, BODY_BYTES / 500.0 * 0.9, VALID_REST)  # just over the minimum rate
    assert status == 200, body
    assert _next_call(server).status_code == 200


def test_a_sender_hanging_up_early_below_the_minimum_rate_is_charged(min_rate: LiveWebhooks) -> None:
    server = min_rate
    _hang_up_after(server, 0.1 * PATIENCE)  # a few KiB in three seconds: past its grace, under the minimum rate
    refused = _next_call(server)
    assert refused.status_code == 429 and "too many calls to webhook 'summarise'" in refused.json()["message"], \
        refused.text


@pytest.fixture
def min_rate_large_bucket(sqlite_store: SqliteWorkflowStore) -> Iterator[LiveWebhooks]:
    """As ``min_rate``, with a bucket of a hundred calls: more than the tokens the body deadline earns."""
    yield from _server(sqlite_store, burst=100, body_timeout_s=PATIENCE, min_rate=500.0, grace_s=1.0)


def test_a_small_body_trickled_to_just_before_the_deadline_costs_its_path_a_bucket_like_a_408(
        min_rate_large_bucket: LiveWebhooks) -> None:
    server = min_rate_large_bucket
    status, body = _finished_after(server, 0.9 * PATIENCE, b"x" * 1024)  # 2 KiB in 27 s, then not JSON
    assert status == 400, body
    refused = _next_call(server)
    assert refused.status_code == 429 and "too many calls to webhook 'summarise'" in refused.json()["message"], \
        refused.text
