"""Credentials checked on the headers alone, before any body is read.

FastAPI reads a route's JSON body before it resolves the route's dependencies, so a key
dependency alone would let an unauthenticated client make the server buffer a body up to
the surface's limit (100 MiB on the Dify app API) before its 401. ``BodyLimitMiddleware``
runs these checks first for a request that carries a body; a request that passes still meets
the route's own dependency, which answers the finer cases (a deleted workflow: 404).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ragspine.api.body_limits import DIFY_PATHS
from ragspine.errors import RagspineError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from ragspine.api import error_formats, workflow_deps
    from ragspine.workflows import surfaces
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    error_formats = LazyModule("ragspine.api.error_formats")
    workflow_deps = LazyModule("ragspine.api.workflow_deps")
    surfaces = LazyModule("ragspine.workflows.surfaces")

HeaderCheck = Callable[[Request], Awaitable[Response | None]]


@dataclass(frozen=True, slots=True)
class HeaderGuard:
    """Requests under ``prefixes`` must pass ``check`` (None: pass; a Response: the refusal) before reading."""

    prefixes: tuple[str, ...]
    check: HeaderCheck


def _bearer(header: str | None) -> str:
    scheme, _, token = (header or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


async def _verify(request: Request, presented: str, kind_name: str) -> Exception | None:
    """The refusal of ``presented`` as a key of kind ``kind_name``, or None when it verifies."""
    if not presented:
        wanted = "Bearer app key" if kind_name == "APP" else "X-N8N-API-KEY header"
        return surfaces.WorkflowUnauthenticatedError(f"no {wanted}", missing=True)
    factory = request.app.dependency_overrides.get(workflow_deps.workflow_components, workflow_deps.workflow_components)
    components = factory()
    try:
        await run_in_threadpool(surfaces.verify_key, presented, surfaces.KeyKind[kind_name], store=components.store,
                                pepper=components.key_pepper)
    except RagspineError as exc:  # a wrong key (401), or a key store that failed (503): answered in the surface's shape
        return exc
    return None


async def dify_key(request: Request) -> Response | None:
    """A Dify app key in ``Authorization: Bearer``, refused in Dify's shape."""
    refusal = await _verify(request, _bearer(request.headers.get("authorization")), "APP")
    return None if refusal is None else error_formats.render_dify(request, refusal)


async def n8n_key(request: Request) -> Response | None:
    """An n8n API key in ``X-N8N-API-KEY``, refused in n8n's shape."""
    refusal = await _verify(request, request.headers.get("x-n8n-api-key", "").strip(), "N8N")
    return None if refusal is None else error_formats.render_n8n(request, refusal)


_GUARDS = (HeaderGuard(DIFY_PATHS, dify_key), HeaderGuard(("/api/v1/",), n8n_key))


def guards_for(paths: Iterable[str]) -> tuple[HeaderGuard, ...]:
    """The guards of the surfaces an app serves (given its route paths); an app without them gets none."""
    served = tuple(paths)
    return tuple(g for g in _GUARDS if any(p.startswith(g.prefixes) for p in served))


def guard_for(guards: Iterable[HeaderGuard], path: str) -> HeaderGuard | None:
    """The guard of ``path``, if its surface has one."""
    return next((g for g in guards if path.startswith(g.prefixes)), None)
