"""An ASGI wrapper that counts the request-body bytes an app pulls: proof that a refusal came before the read."""

from __future__ import annotations

from typing import Any


class BodyCounter:
    """The app, counting the body bytes it pulls from the server."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.read = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def counted() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                self.read += len(message.get("body", b""))
            return message

        await self.app(scope, counted, send)
