"""``BodyLimitMiddleware``: refuse a request body over its surface's limit before any route reads it.

A declared Content-Length over the limit is refused at once. A body without one (chunked
transfer encoding) is read up to the limit before the app sees it, so a client cannot bypass
the limit by leaving the length out, and the server never buffers more than the limit.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ragspine.api.body_limits import BodyLimits, Render
from ragspine.api.errors import error_response
from ragspine.errors import PayloadTooLargeError


class BodyLimitMiddleware:
    """Pure ASGI middleware (not BaseHTTPMiddleware): it must see the raw ``receive`` stream."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limits: BodyLimits | None = getattr(scope["app"].state, "body_limits", None) if "app" in scope else None
        if scope["type"] != "http" or limits is None:
            await self.app(scope, receive, send)
            return
        limit, render = limits.for_path(scope["path"])
        length = _header(scope, b"content-length")
        if length is not None:
            if length.isdigit() and int(length) > limit:
                await _refuse(scope, send, render, f"the request body has {length} bytes; the limit is {limit}")
                return
            await self.app(scope, receive, send)
            return
        body, complete = await _read_up_to(receive, limit)
        if not complete:
            await _refuse(scope, send, render, f"the request body exceeds the limit of {limit} bytes")
            return
        await self.app(scope, _replay(body, receive), send)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1").strip()
    return None


async def _read_up_to(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The body, and whether it ended within ``limit`` bytes (reading stops as soon as it does not)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: let the app see an empty body
            return b"".join(chunks), True
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return b"", False
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), True


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that yields the buffered body once, then the client's own messages (disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _refuse(scope: Scope, send: Send, render: Render | None, message: str) -> None:
    request = Request(scope)
    exc = PayloadTooLargeError(message)
    response = render(request, exc) if render else error_response(request, exc.http_status, code=exc.code,
                                                                   message=exc.message)
    await response(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
