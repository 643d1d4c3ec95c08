"""A client that closes its connection halfway through a body is its own doing: one warning line, no fault.

Served by a real uvicorn on loopback: the client announces a body, sends part of it and closes the socket,
as a browser tab closed mid-upload does. The service must log that as one line without a traceback and
never as an unhandled error (which pages someone and counts as a 500).
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator

import pytest

from ragspine.api.app import create_local_app
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
from ragspine.settings import Settings
from tests.support.knowledge_api import BASE
from tests.support.loopback import serve

pytest.importorskip("uvicorn")

CLOSED = "client closed the connection before sending the whole body"


@pytest.fixture
def port(settings: Settings) -> Iterator[int]:
    with serve(create_local_app(settings), name="disconnect-uvicorn", log_level="error") as base_url:
        yield int(base_url.rsplit(":", 1)[1])


def _credentials(settings: Settings) -> str:
    token, stored = new_token("disconnect")
    get_knowledge_gateway().store.put_token(stored)
    assertion = sign_dev_assertion(dev_key(settings.data_dir), user="admin", roles=["knowledge-admin"],
                                   departments=[], domains=["internal"],
                                   issuer=settings.knowledge_assertion_issuer,
                                   audience=settings.knowledge_assertion_audience)
    return (f"Authorization: Bearer {token}\r\nX-User-Assertion: {assertion}\r\n"
            "X-Tool-Call-Id: call-1\r\nX-Harness-Session-Id: session-1\r\n")


def _closed_mid_body(port: int, path: str, headers: str, key: str) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Idempotency-Key: {key}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":".encode())


def _wait_for(caplog: pytest.LogCaptureFixture, count: int) -> list[logging.LogRecord]:
    """The records saying a client closed early, once ``count`` of them were written (or after 20 s)."""
    deadline = time.monotonic() + 20
    while True:
        closed = [r for r in caplog.records if CLOSED in r.getMessage()]
        if len(closed) >= count or time.monotonic() > deadline:
            return closed
        time.sleep(0.05)


def test_a_request_closed_mid_body_is_one_warning_line_not_an_unhandled_error(
        settings: Settings, port: int, caplog: pytest.LogCaptureFixture) -> None:
    headers = _credentials(settings)
    with caplog.at_level(logging.INFO):
        for attempt in range(3):
            _closed_mid_body(port, f"{BASE}/spaces", headers, key=f"closed-{attempt}")
        closed = _wait_for(caplog, 3)
    assert len(closed) == 3, [r.getMessage() for r in caplog.records]
    for record in closed:
        assert record.levelno == logging.WARNING and record.exc_info is None
        assert record.getMessage().endswith(f"POST {BASE}/spaces")
    faults = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert faults == [], [(r.getMessage(), r.exc_info) for r in faults]
