"""``run_blocking``: a route's blocking work, off the event loop only where other requests share it.

A server (uvicorn) serves many requests on one event loop: blocking work there runs in a worker thread
so the others go on. Under Mangum (a Lambda function) the loop is run for one event and ends with its
response (``scope["aws.event"]`` marks such a request): nothing else waits on it, so the work runs in
place. No thread pool is started and anyio's asyncio backend is never imported for it, which a cold
start would otherwise pay on its first request. The routes declare themselves ``async`` and call this.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

P = ParamSpec("P")
T = TypeVar("T")


def has_loop_alone(connection: HTTPConnection) -> bool:
    """Whether the request's event loop serves it alone: an event Mangum translated (one per loop run)."""
    return "aws.event" in connection.scope


async def run_blocking(connection: HTTPConnection, func: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``func(*args, **kwargs)``: in place when the request has its loop alone, else in a worker thread."""
    if has_loop_alone(connection):
        return func(*args, **kwargs)
    return await run_in_threadpool(func, *args, **kwargs)
