"""``ragspine serve`` believes X-Forwarded-For only from the proxies a setting names.

The options go through uvicorn's own Config, so what is checked is the client address the app sees
for a request from loopback that names another address in X-Forwarded-For.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import ValidationError
from uvicorn.config import Config

from ragspine.cli_serve import proxy_options
from ragspine.settings import Settings


def _client_seen(settings: Settings, peer: str, forwarded: str) -> str:
    seen: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["client"][0])

    config = Config(app, **proxy_options(settings))
    config.load()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "", "server": ("127.0.0.1", 8000),
             "client": (peer, 50000), "headers": [(b"x-forwarded-for", forwarded.encode())]}

    async def run() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            return None

        await config.loaded_app(scope, receive, send)

    asyncio.run(run())
    return seen[0]


def test_a_loopback_caller_cannot_name_its_client_address_by_default() -> None:
    assert _client_seen(Settings(), "127.0.0.1", "10.9.9.1") == "127.0.0.1"


def test_a_named_proxy_is_believed_and_no_other() -> None:
    settings = Settings(trusted_proxies="10.0.0.5, 127.0.0.1")
    assert _client_seen(settings, "127.0.0.1", "10.9.9.1") == "10.9.9.1"
    assert _client_seen(settings, "10.0.0.5", "10.9.9.2") == "10.9.9.2"
    assert _client_seen(settings, "10.0.0.6", "10.9.9.3") == "10.0.0.6"


@pytest.mark.parametrize("value", ["proxy.example.com", "10.0.0.1\n", "10.0.0.1;rm"])
def test_trusted_proxies_holds_addresses_only(value: str) -> None:
    with pytest.raises(ValidationError):
        Settings(trusted_proxies=value)
