"""``BodyLimitMiddleware``: refuse a body over its surface's limit, or without credentials, before a route reads it.

On an authenticated surface a request carrying a body first meets its header guard
(``header_auth``): a missing or wrong key is refused before a byte of the body is read.
A declared Content-Length over the limit is refused at once. A body without one (chunked
transfer encoding) is read up to the limit before the app sees it, so a client cannot bypass
the limit by leaving the length out, and the server never buffers more than the limit -- except
on the paths whose routes admit the call first and cap their own read (webhooks): reading it here
would hold the body before the route's admission checks and outside its deadline.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ragspine.api.body_limits import BodyLimits, Render
from ragspine.api.errors import error_response
from ragspine.api.header_auth import guard_for
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
        if (length not in (None, "0") or _header(scope, b"transfer-encoding") is not None) and \
                await _refused_by_guard(scope, send):
            return
        if length is not None:
            if length.isdigit() and int(length) > limit:
                await _refuse(scope, send, render, f"the request body has {length} bytes; the limit is {limit}")
                return
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith(limits.capped_in_route):
            # The route admits the call on its headers, then caps the read and bounds it in time.
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith(limits.authenticated_in_route):
            # The route authenticates on the headers before it reads: it must not find the body already read.
            await self.app(scope, *_capped(scope, receive, send, limit, render))
            return
        body, complete = await _read_up_to(receive, limit)
        if not complete:
            await _refuse(scope, send, render, f"the request body exceeds the limit of {limit} bytes")
            return
        await self.app(scope, _replay(body, receive), send)


async def _refused_by_guard(scope: Scope, send: Send) -> bool:
    """Whether the path's header guard refused the request (the refusal is then sent, the body left unread)."""
    guard = guard_for(getattr(scope["app"].state, "header_guards", ()), scope["path"])
    if guard is None:
        return False
    request = Request(scope)
    refusal = await guard.check(request)
    if refusal is None:
        return False
    await refusal(scope, _no_receive, send)
    return True


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


def _capped(scope: Scope, receive: Receive, send: Send, limit: int,
            render: Render | None) -> tuple[Receive, Send]:
    """A receive/send pair for a route that reads its own body: past ``limit`` bytes the 413 is sent from here,
    the route sees the client gone, and whatever it answers after that is dropped."""
    size, refused, started = 0, False, False

    async def capped_receive() -> Message:
        nonlocal size, refused
        if refused:
            return {"type": "http.disconnect"}
        message = await receive()
        size += len(message.get("body", b"")) if message["type"] == "http.request" else 0
        if size > limit:
            refused = True
            if not started:
                await _refuse(scope, send, render, f"the request body exceeds the limit of {limit} bytes")
            return {"type": "http.disconnect"}
        return message

    async def capped_send(message: Message) -> None:
        nonlocal started
        if not refused:
            started = True
            await send(message)

    return capped_receive, capped_send


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
