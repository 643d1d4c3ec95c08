"""Senders trickling webhook bodies from several addresses to several paths cannot keep an honest caller out.

The real app runs in uvicorn on loopback. Raw-socket senders bound to 127.0.0.2 and up announce a
body, send its first byte and then nothing: together, each within its path's and its address's
share, they hold every body-reading slot. Once they are past their grace (the slots' clock is moved
by the test, so nothing depends on how fast the machine is), an honest caller of another path takes
the slot of one of them and is served, and that sender is answered 408 and its path charged the
time it held. Senders that keep up the minimum rate keep their slots: the caller is refused (503),
as when every slot is honestly busy. Senders that hang up within their grace and come back at once
get only a round trip of grace after, so an honest caller still takes one's slot; an honest caller
behind a trickler's address (a NAT) keeps its slot: a caller finding every slot taken takes that of
a trickler, which owes more bytes to the minimum rate. A sender that takes the last slot free, or
announces a tiny body, gets only a round trip of grace (and the time its bytes take at the minimum
rate): addresses never seen twice, or tiny bodies sent whole just inside a whole grace, would
otherwise keep every slot in grace.
Statuses and slot counts are asserted, never durations.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.live_webhooks import LiveWebhooks, live_webhooks, reply_status

pytest.importorskip("uvicorn")

PATIENCE = 30.0  # the body deadline, and a bound on any hang; nothing is asserted about durations
GRACE_S = 1.0  # of the test's clock, which stands still unless the test moves it
PATHS = ("pa", "pb", "pc", "pd", "pe")


@pytest.fixture
def server(sqlite_store: SqliteWorkflowStore) -> Iterator[LiveWebhooks]:
    """Four slots at the default shares (two per path, three per address), a minimum rate of 100 bytes a second."""
    yield from live_webhooks(sqlite_store, PATHS, name="webhook-slow-senders-uvicorn", burst=100,
                             body_timeout_s=PATIENCE, grace_s=GRACE_S, min_rate=100)


def _sender(server: LiveWebhooks, senders: ExitStack, source: str, path: str, *, chunked: bool = False,
            first: bytes = b"{", length: int = 64 * 1024) -> socket.socket:
    """A connection from ``source`` that announced a body to ``path``, sent ``first`` of it and then nothing more;
    returned once the server reads its body (it holds a slot)."""
    sock = senders.enter_context(socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE,
                                                          source_address=(source, 0)))
    framing = (b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n" % (len(first), first) if chunked
               else b"Content-Length: %d\r\n\r\n%s" % (length, first))
    read_before, held_before, deadline = server.counter.read, server.held(), time.monotonic() + PATIENCE
    sock.sendall(f"POST /webhook/{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n".encode()
                 + framing)
    while server.counter.read < read_before + len(first):
        assert not select.select([sock], [], [], 0.02)[0], "a sender within its shares was answered, not read"
        assert time.monotonic() < deadline, "the sender neither took a slot nor was answered"
    assert server.held() == held_before + 1
    return sock



@pytest.mark.parametrize("senders", [
    pytest.param([("127.0.0.2", "pa", False), ("127.0.0.2", "pa", False), ("127.0.0.2", "pb", False),
                  ("127.0.0.3", "pb", False)], id="two-addresses-two-paths"),
    pytest.param([("127.0.0.4", "pa", True), ("127.0.0.4", "pb", False), ("127.0.0.5", "pa", False),
                  ("127.0.0.5", "pb", True)], id="chunked-and-declared-mixed"),
    pytest.param([("127.0.0.6", "pa", False), ("127.0.0.7", "pb", False), ("127.0.0.8", "pd", False),
                  ("127.0.0.9", "pe", False)], id="four-addresses-four-paths"),
])
def test_an_honest_caller_of_another_path_takes_the_slot_of_a_stalled_sender(
        server: LiveWebhooks, senders: list[tuple[str, str, bool]]) -> None:
    with ExitStack() as stack:
        socks = [_sender(server, stack, source, path, chunked=chunked) for source, path, chunked in senders]
        assert server.held() == 4  # every slot taken, every share kept
        server.api.clock.now += 2 * GRACE_S  # one byte in two seconds: far below the minimum rate
        reply = httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 200, reply.text
        # One sender gave up its slot and was told why; the other three still hold theirs.
        cut = select.select(socks, [], [], PATIENCE)[0]
        assert len(cut) == 1
        status, body = reply_status(cut[0])
        assert status == 408 and body["code"] == 408 and "went to another caller" in str(body["message"]), body
        assert server.held() == 3
        if senders[0][0] == "127.0.0.2":  # the address holding three slots gave one up
            assert cut[0].getsockname()[0] == "127.0.0.2"


def test_senders_keeping_up_the_minimum_rate_keep_their_slots(server: LiveWebhooks) -> None:
    first = b'{"text": "' + b"y" * 1024  # 1,034 bytes in two seconds: five times the minimum rate
    with ExitStack() as stack:
        socks = [_sender(server, stack, source, path, first=first)
                 for source, path in [("127.0.0.2", "pa"), ("127.0.0.2", "pa"), ("127.0.0.2", "pb"),
                                      ("127.0.0.3", "pb")]]
        server.api.clock.now += 2 * GRACE_S
        reply = httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 503 and reply.json()["message"].startswith("the server already reads 4"), \
            reply.text
        assert server.held() == 4 and not select.select(socks, [], [], 0)[0]  # no sender was answered


def test_stalled_senders_within_their_grace_keep_their_slots(server: LiveWebhooks) -> None:
    with ExitStack() as stack:
        socks = [_sender(server, stack, f"127.0.0.{6 + i}", path) for i, path in enumerate(("pa", "pb", "pd", "pe"))]
        reply = httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 503, reply.text
        assert server.held() == 4 and not select.select(socks, [], [], 0)[0]


@pytest.fixture
def small_buckets(sqlite_store: SqliteWorkflowStore) -> Iterator[LiveWebhooks]:
    """As ``server``, with buckets of three calls per path on the test's clock."""
    yield from live_webhooks(sqlite_store, PATHS, name="webhook-slow-senders-buckets-uvicorn", burst=3,
                             body_timeout_s=PATIENCE, grace_s=GRACE_S, min_rate=100)


def test_the_path_of_a_sender_whose_slot_was_taken_is_charged_the_time_it_held(small_buckets: LiveWebhooks) -> None:
    server = small_buckets
    trickled = ("pa", "pb", "pd", "pe")
    with ExitStack() as stack:
        socks = [_sender(server, stack, f"127.0.0.{2 + i}", path) for i, path in enumerate(trickled)]
        server.api.clock.now += 5.0  # each bucket full again (three calls); five seconds held is five tokens
        assert httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE).status_code == 200
        cut = select.select(socks, [], [], PATIENCE)[0]
        assert len(cut) == 1 and reply_status(cut[0])[0] == 408
        charged = trickled[socks.index(cut[0])]
        reply = httpx.post(server.base + f"/webhook/{charged}", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 429 and "too many calls" in reply.json()["message"], reply.text
        # The charge is that path's alone: another trickled path, its slot still held, is served in the free one.
        other = next(path for path in trickled if path != charged)
        reply = httpx.post(server.base + f"/webhook/{other}", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 200, reply.text


def _until_no_slot_held(server: LiveWebhooks) -> None:
    deadline = time.monotonic() + PATIENCE
    while server.held():  # the server has seen the hang-ups once their slots are given back
        assert time.monotonic() < deadline, "the slot of a sender that hung up was never given back"
        time.sleep(0.01)


def test_senders_hanging_up_within_their_grace_and_coming_back_cannot_keep_an_honest_caller_out(
        server: LiveWebhooks) -> None:
    senders = [("127.0.0.2", "pa"), ("127.0.0.2", "pb"), ("127.0.0.3", "pd"), ("127.0.0.3", "pe")]
    with ExitStack() as first_round:
        for source, path in senders:
            _sender(server, first_round, source, path)
        server.api.clock.now += 0.8 * GRACE_S  # "{" then nothing, and all hang up within their grace
    _until_no_slot_held(server)
    with ExitStack() as stack:
        socks = [_sender(server, stack, source, path) for source, path in senders]  # back at once
        server.api.clock.now += 0.5 * GRACE_S  # still within a grace: a round trip is all their addresses get now
        reply = httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 200, reply.text
        cut = select.select(socks, [], [], PATIENCE)[0]
        assert len(cut) == 1 and reply_status(cut[0])[0] == 408


def test_an_honest_caller_behind_a_tricklers_address_keeps_its_slot(server: LiveWebhooks) -> None:
    trickled = ("pa", "pb", "pd", "pe")
    with ExitStack() as stack:
        socks = [_sender(server, stack, f"127.0.0.{2 + i}", path) for i, path in enumerate(trickled)]
        server.api.clock.now += 2 * GRACE_S
        assert httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE).status_code == 200
        cut = select.select(socks, [], [], PATIENCE)[0]
        assert len(cut) == 1 and reply_status(cut[0])[0] == 408
        nat, path = cut[0].getsockname()[0], trickled[socks.index(cut[0])]  # an address now suspect
        socks.remove(cut[0])
        socks.append(_sender(server, stack, nat, path))  # its trickler comes back at once
        server.api.clock.now += GRACE_S  # the others hold for three seconds now, this one for one: all slow
        body = b'{"text": "' + b"y" * 1988 + b'"}'
        honest = stack.enter_context(socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE,
                                                              source_address=(nat, 0)))
        honest.sendall(b"POST /webhook/pc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Content-Length: %d\r\n\r\n" % len(body))  # its body follows a round trip later
        taken = select.select(socks, [], [], PATIENCE)[0]  # the honest caller took a trickler's slot
        assert len(taken) == 1 and reply_status(taken[0])[0] == 408
        socks.remove(taken[0])
        server.api.clock.now += 0.15  # one round trip, as curl waits for "100 Continue"
        reply = httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 200, reply.text  # a caller finding every slot taken took a trickler's
        honest.sendall(body)
        status, answer = reply_status(honest)
        assert status == 200, answer


def test_senders_from_addresses_never_seen_before_cannot_keep_every_slot_in_grace(server: LiveWebhooks) -> None:
    with ExitStack() as stack:
        socks = [_sender(server, stack, f"127.4{i}.1.{1 + i}", path) for i, path in enumerate(("pa", "pb", "pd", "pe"))]
        server.api.clock.now += 0.5 * GRACE_S  # within a whole grace: only the last slot taken has a round trip's
        reply = httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 200, reply.text
        cut = select.select(socks, [], [], PATIENCE)[0]
        assert cut == [socks[-1]] and reply_status(cut[0])[0] == 408


def test_a_tiny_body_sent_whole_just_inside_a_grace_does_not_keep_its_slot(server: LiveWebhooks) -> None:
    """20 bytes at 100 bytes a second take 0.2 s: past that and a round trip, a sender with one byte sent is slow."""
    with ExitStack() as stack:
        tiny = [_sender(server, stack, f"127.0.5.{1 + i}", path, length=20) for i, path in enumerate(("pa", "pb"))]
        tiny.append(_sender(server, stack, "127.0.5.3", "pd", length=20))
        # The last slot goes to a sender keeping up the minimum rate for the next second: it stays.
        keeping_up = _sender(server, stack, "127.0.5.4", "pe", first=b"{" + b" " * 499)
        server.api.clock.now += 0.6 * GRACE_S
        reply = httpx.post(server.base + "/webhook/pc", json={"text": "hello"}, timeout=PATIENCE)
        assert reply.status_code == 200, reply.text
        cut = select.select([*tiny, keeping_up], [], [], PATIENCE)[0]
        assert len(cut) == 1 and cut[0] in tiny and reply_status(cut[0])[0] == 408
