"""The ``Allow`` header of a 405: every method the published contract declares on the requested path.

Starlette answers a method mismatch with the methods of the first route whose path matched, but
one path often has several routes (``GET`` and ``PUT`` of ``/api/v1/workflows/{id}`` are two
operations), and the webhook routes exist for more methods than a deployment publishes. So the
header is read from the published document itself: the methods of every path template the request
path matches (RFC 9110 §15.5.6). Knowledge Gateway paths are read from the Gateway contract (its
routes are not in the app's ``/openapi.json``), where ids never hold a colon: ``/documents/d1:enable``
is the ``:enable`` action, not the document ``d1:enable``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from starlette.requests import Request

from ragspine.api.openapi_contract import WEBHOOK_PATH
from ragspine.knowledge.contract import PREFIX as KNOWLEDGE_PREFIX
from ragspine.knowledge.contract import load_contract

_OPERATIONS = frozenset({"get", "put", "post", "patch", "delete", "head", "options", "trace"})


@lru_cache(maxsize=256)
def _template(path: str, *, colon_free: bool = False) -> re.Pattern[str]:
    if path == WEBHOOK_PATH:  # its parameter spans segments, line breaks included
        return re.compile(r"/webhook/[\s\S]*\Z")
    parts = re.split(r"(\{[^}]+\})", path)
    segment = "[^/:]+" if colon_free else "[^/]+"
    return re.compile("".join(segment if part.startswith("{") else re.escape(part) for part in parts) + r"\Z")


def published_methods(openapi: dict[str, Any], path: str, *, colon_free: bool = False) -> list[str]:
    """The methods the document publishes on any template ``path`` matches, sorted (empty when none does)."""
    found = {method.upper() for template, operations in openapi.get("paths", {}).items()
             if _template(template, colon_free=colon_free).match(path)
             for method in operations if method in _OPERATIONS}
    return sorted(found)


def _route_path(request: Request) -> str:
    """The path the routes see: without the root path a proxy or an API Gateway stage may put in front."""
    path, root = str(request.scope.get("path", "")), str(request.scope.get("root_path", ""))
    return path[len(root):] if root and path.startswith(root) else path


def allowed_methods(request: Request, served: str = "") -> list[str]:
    """The published methods on ``request``'s path; ``served`` (Starlette's header) for unpublished routes."""
    path = _route_path(request)
    if path.startswith(KNOWLEDGE_PREFIX + "/"):
        found = published_methods(load_contract(), path, colon_free=True)
        return found or [m.strip() for m in served.split(",") if m.strip()]
    openapi = getattr(request.app, "openapi", None)
    found = published_methods(openapi(), path) if openapi is not None else []
    return found or [m.strip() for m in served.split(",") if m.strip()]
