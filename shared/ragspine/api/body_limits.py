"""Request body limits per surface, and the 413 each surface's clients expect.

The engine routes keep the small app-wide limit (RAGSPINE_MAX_BODY_BYTES); the peer-compatible
surfaces take their peer's default, because real exports are larger (an 80 KB n8n workflow is
ordinary): the n8n API and webhooks 16 MiB (n8n's N8N_PAYLOAD_SIZE_MAX), the Dify app API 100 MiB
(Dify's NGINX_CLIENT_MAX_BODY_SIZE). The check runs before routing (``body_guard``): on
Content-Length, or on the bytes received for a chunked body. A webhook's chunked body is not read
ahead of its route: the route admits the call on its headers first, then reads the body capped and
against its deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response

from ragspine.lazy import LazyModule
from ragspine.settings import Settings

if TYPE_CHECKING:
    from ragspine.api import error_formats
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    error_formats = LazyModule("ragspine.api.error_formats")

Render = Callable[[Request, Exception], Response]
DIFY_PATHS = ("/v1/workflows/run", "/v1/workflows/tasks/", "/v1/parameters", "/v1/info")


def _peer_renderer(name: str) -> Render:
    """A peer surface's 413 renderer, imported when a body is refused: ``error_formats`` imports the
    workflow package, which the ask and knowledge functions would otherwise load at every cold start."""

    def render(request: Request, exc: Exception) -> Response:
        renderer: Render = getattr(error_formats, name)
        return renderer(request, exc)

    return render


@dataclass(frozen=True, slots=True)
class SurfaceLimit:
    """Paths starting with ``prefixes`` accept ``max_bytes``; a larger body is refused through ``render``."""

    prefixes: tuple[str, ...]
    max_bytes: int
    render: Render | None


@dataclass(frozen=True, slots=True)
class BodyLimits:
    """The limit of each surface, and the app-wide one (rendered as the envelope) for every other path."""

    surfaces: tuple[SurfaceLimit, ...]
    default: int
    # Paths whose routes check credentials before reading and answer a 413 from the body stream themselves:
    # a chunked body is capped while the route reads it, not read ahead of the route.
    authenticated_in_route: tuple[str, ...] = ()
    # Paths whose routes admit a call on its headers, then enforce the limit (413) and a deadline while reading:
    # a chunked body passes through untouched, so no byte is read before the route's admission checks.
    capped_in_route: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings) -> BodyLimits:
        """The limits this deployment configured."""
        return cls(surfaces=(SurfaceLimit(DIFY_PATHS, settings.dify_max_body_bytes, _peer_renderer("render_dify")),
                             SurfaceLimit(("/api/v1/",), settings.n8n_max_body_bytes, _peer_renderer("render_n8n")),
                             SurfaceLimit(("/webhook/",), settings.workflow_webhook_max_bytes,
                                          _peer_renderer("render_webhook"))),
                   default=settings.max_body_bytes, capped_in_route=("/webhook/",))

    def with_surface(self, prefix: str, max_bytes: int) -> BodyLimits:
        """These limits plus one for paths under ``prefix`` (refused with the envelope), checked first."""
        return BodyLimits(surfaces=(SurfaceLimit((prefix,), max_bytes, None), *self.surfaces), default=self.default,
                          authenticated_in_route=self.authenticated_in_route, capped_in_route=self.capped_in_route)

    def reading_in_route(self, prefix: str) -> BodyLimits:
        """These limits; routes under ``prefix`` read (capped) chunked bodies themselves, after authenticating."""
        return BodyLimits(surfaces=self.surfaces, default=self.default,
                          authenticated_in_route=(*self.authenticated_in_route, prefix),
                          capped_in_route=self.capped_in_route)

    def for_path(self, path: str) -> tuple[int, Render | None]:
        """The limit on ``path`` and the renderer of its 413 (None: the seed-003 envelope)."""
        for surface in self.surfaces:
            if path.startswith(surface.prefixes):
                return surface.max_bytes, surface.render
        return self.default, None
