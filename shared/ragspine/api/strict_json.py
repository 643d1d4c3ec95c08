"""FastAPI's JSON bodies parsed by ``ragspine.json_input.loads``: every router's routes use ``StrictJsonRoute``."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from ragspine.json_input import MalformedJsonError, loads

__all__ = ["MalformedJsonError", "StrictJsonRequest", "StrictJsonRoute", "loads"]


class StrictJsonRequest(Request):
    """A request whose ``json()`` is ``loads`` above (FastAPI turns its error into a 400 ``json_invalid``)."""

    async def json(self) -> Any:
        """The body, parsed strictly once."""
        if not hasattr(self, "_json"):
            self._json = loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """A route whose JSON body is parsed by ``loads`` (every router's route class derives from it)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """FastAPI's handler, given a ``StrictJsonRequest`` over the same connection."""
        handle = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handle(StrictJsonRequest(request.scope, request.receive))

        return strict
