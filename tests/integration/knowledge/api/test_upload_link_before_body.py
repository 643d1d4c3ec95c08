"""A signed upload URL is checked before its body is read: a forged or expired link gets its 404 with nothing
of the announced file read, and a valid link reads no more than the size its file resource declared."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.api.app import create_local_app
from ragspine.settings import Settings
from tests.support.body_counter import BodyCounter
from tests.support.knowledge_api import BASE
from tests.support.loopback import first_reply, serve

pytest.importorskip("uvicorn")

ANNOUNCED = 15 * 1024 * 1024  # under the 20 MiB upload limit: only the link can refuse it
FIRST_PART = b"x" * (64 * 1024)


@pytest.fixture
def counted(settings: Settings) -> Iterator[tuple[BodyCounter, int]]:
    counter = BodyCounter(create_local_app(settings))
    with serve(counter, name="upload-link-uvicorn", log_level="error") as base_url:
        yield counter, int(base_url.rsplit(":", 1)[1])


def _put(port: int, path: str) -> int:
    """Announce a large file, send its first part and wait: the status of the answer (0: none yet)."""
    head = f"PUT {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {ANNOUNCED}\r\n\r\n".encode()
    return first_reply(port, head + FIRST_PART)[0]


@pytest.mark.parametrize("query", ["expires=99999999999&signature=forged", "expires=1&signature=ab"])
def test_a_forged_or_expired_link_is_refused_before_the_body_is_read(counted: tuple[BodyCounter, int],
                                                                      query: str) -> None:
    counter, port = counted
    status = _put(port, f"{BASE}/file-resources/fr-unknown/content?{query}")
    assert status == 404
    assert counter.read == 0
