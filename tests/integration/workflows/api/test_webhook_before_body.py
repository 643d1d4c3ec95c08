"""An anonymous webhook call is refused on its path and headers before its body is read.

The real app runs in uvicorn on loopback behind a layer that counts the body bytes the app pulls.
A raw-socket client announces a large body and sends only its first part: a call past its path's
token bucket must get its 429 with nothing of the body read, and a call arriving while every
body-reading slot is taken must get its 503 at once (both with Retry-After), so the bodies the
server holds at once are bounded by the slots x the payload cap, however many callers there are.
A chunked body (no Content-Length) meets the same checks: nothing reads it ahead of the route.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.body_counter import BodyCounter
from tests.support.loopback import first_reply, read_reply, serve
from tests.support.workflow_api import WorkflowApi, build_api, echo_n8n

pytest.importorskip("uvicorn")

MIB = 1024 * 1024
ANNOUNCED = 3 * MIB
FIRST_PART = b'{"text": "' + b"y" * (64 * 1024)
PATIENCE = 30.0  # bounds a hang only; nothing is asserted about durations


@dataclass
class Server:
    api: WorkflowApi
    counter: BodyCounter
    port: int

    def head(self, announced: int = ANNOUNCED) -> bytes:
        return (f"POST /webhook/summarise HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {announced}\r\n\r\n").encode()

    @staticmethod
    def chunked_head(path: str = "/webhook/summarise") -> bytes:
        """The head of a chunked body, and its first chunk (a sender that never sends the final one)."""
        return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Transfer-Encoding: chunked\r\n\r\n").encode() + b"%x\r\n" % len(FIRST_PART) + FIRST_PART + b"\r\n"


def _server(store: SqliteWorkflowStore, **limits: Any) -> Iterator[Server]:
    api = build_api(store, enabled=True, max_bytes=4 * MIB, **limits)
    created = api.client.post("/api/v1/workflows", json=echo_n8n(), headers=api.n8n()).json()
    assert api.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=api.n8n()).status_code == 200
    counter = BodyCounter(api.client.app)
    with serve(counter, name="webhook-before-body-uvicorn", log_level="error") as base_url:
        yield Server(api, counter, int(base_url.rsplit(":", 1)[1]))
    api.close()


@pytest.fixture
def one_token(sqlite_store: SqliteWorkflowStore) -> Iterator[Server]:
    """A bucket of one call per path (its clock stands still, so it never refills)."""
    yield from _server(sqlite_store, burst=1)


@pytest.fixture
def one_slot(sqlite_store: SqliteWorkflowStore) -> Iterator[Server]:
    """One webhook body read at a time; the bucket never in the way."""
    yield from _server(sqlite_store, burst=100, bodies=1)


@pytest.fixture
def one_slot_short_deadline(sqlite_store: SqliteWorkflowStore) -> Iterator[Server]:
    """One webhook body read at a time, which must arrive within a second."""
    yield from _server(sqlite_store, burst=100, bodies=1, body_timeout_s=1.0)


def test_a_sender_that_stops_sending_its_body_gets_408_and_its_slot_is_given_back(
        one_slot_short_deadline: Server) -> None:
    server = one_slot_short_deadline
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as stalled:
        stalled.sendall(server.head() + FIRST_PART)  # and never the rest: the deadline, not the client, ends the read
        head, body = read_reply(stalled)
        assert head.startswith(b"HTTP/1.1 408 "), head[:300]
        assert json.loads(body)["code"] == 408 and "did not arrive within 1 s" in json.loads(body)["message"]
        # The stalled connection is still open, and its slot is free again: once the path has earned back what
        # the abandoned read was charged, an ordinary call is served.
        assert server.api.components.body_slots.held() == 0
        server.api.clock.now += 3600
        assert server.api.client.post("/webhook/summarise", json={"text": "hello"}).status_code == 200


def test_a_chunked_body_that_never_ends_gets_408_and_its_slot_is_given_back(
        one_slot_short_deadline: Server) -> None:
    server = one_slot_short_deadline
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as stalled:
        stalled.sendall(server.chunked_head())  # never the final zero-size chunk: the deadline ends the read
        head, body = read_reply(stalled)
        assert head.startswith(b"HTTP/1.1 408 "), head[:300]
        assert json.loads(body)["code"] == 408 and "did not arrive within 1 s" in json.loads(body)["message"]
        assert server.api.components.body_slots.held() == 0
        server.api.clock.now += 3600  # past the path's charge for the abandoned read
        assert server.api.client.post("/webhook/summarise", json={"text": "hello"}).status_code == 200


def test_a_chunked_body_to_a_path_with_no_workflow_gets_404_before_it_is_read(one_slot: Server) -> None:
    before = one_slot.counter.read
    status, head = first_reply(one_slot.port, one_slot.chunked_head("/webhook/no-such-hook"))
    assert status == 404, head[:300]  # 0: no reply, the body was still being read
    assert one_slot.counter.read == before


def test_a_chunked_call_past_its_paths_bucket_is_refused_before_its_body_is_read(one_token: Server) -> None:
    assert one_token.api.client.post("/webhook/summarise", json={"text": "hello"}).status_code == 200
    before = one_token.counter.read
    status, head = first_reply(one_token.port, one_token.chunked_head())
    assert status == 429, head[:300]
    assert one_token.counter.read == before


def test_a_call_past_its_paths_bucket_is_refused_before_its_body_is_read(one_token: Server) -> None:
    assert one_token.api.client.post("/webhook/summarise", json={"text": "hello"}).status_code == 200
    before = one_token.counter.read
    status, head = first_reply(one_token.port, one_token.head() + FIRST_PART)
    assert status == 429, head[:300]
    assert b"retry-after:" in head.lower()
    assert one_token.counter.read == before


def test_a_call_while_every_body_slot_is_taken_is_refused_at_once_and_served_after(one_slot: Server) -> None:
    holder = socket.create_connection(("127.0.0.1", one_slot.port), timeout=PATIENCE)
    try:
        holder.sendall(one_slot.head() + FIRST_PART)  # the slot is held while the rest of this body is awaited
        deadline = time.monotonic() + PATIENCE
        while one_slot.counter.read == 0:  # its body is being read: the slot is taken
            assert time.monotonic() < deadline, "the first body was never read"
            time.sleep(0.02)
        read_before = one_slot.counter.read
        status, head = first_reply(one_slot.port, one_slot.head() + FIRST_PART)
        assert status == 503, head[:300]
        assert b"retry-after:" in head.lower()
        assert one_slot.counter.read == read_before  # nothing of the refused body was read
    finally:
        holder.close()
    deadline = time.monotonic() + PATIENCE
    while (status := one_slot.api.client.post("/webhook/summarise", json={"text": "hello"}).status_code) == 503:
        assert time.monotonic() < deadline, "the slot of an abandoned body was never given back"
        time.sleep(0.02)
    assert status == 200  # the abandoned read gave its slot back
