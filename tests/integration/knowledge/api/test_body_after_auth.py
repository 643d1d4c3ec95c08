"""The Gateway reads a body only after the caller authenticated, and still caps what it reads."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.knowledge_api import BASE, Gateway

EMBEDDED_ONLY = pytest.mark.parametrize("backend", ["embedded"])


def _chunks(size: int) -> Iterator[bytes]:
    yield b'{"query": "'
    for _ in range(size // 8192):
        yield b"x" * 8192
    yield b'"}'


@EMBEDDED_ONLY
def test_an_authenticated_chunked_body_over_the_limit_is_413_in_the_envelope(gateway: Gateway) -> None:
    limit = gateway.settings.max_body_bytes
    reply = gateway.client.post(BASE + "/search", content=_chunks(limit + 65536), headers=gateway.headers(key=False))
    assert reply.status_code == 413, reply.text
    error = reply.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_INVALID_INPUT" and f"limit of {limit} bytes" in error["message"]


@EMBEDDED_ONLY
def test_an_authenticated_chunked_body_within_the_limit_is_read(gateway: Gateway) -> None:
    space = gateway.create_space()["knowledgeSpaceId"]
    body = f'{{"query": "revenue", "knowledgeSpaceIds": ["{space}"]}}'.encode()
    reply = gateway.client.post(BASE + "/search", content=iter([body[:10], body[10:]]),
                                headers=gateway.headers(key=False))
    assert reply.status_code in (200, 404), reply.text  # 404: no evidence in an empty space, after reading the body
    assert "limit" not in reply.text
