"""Router-scoped error formats: Dify's ``{code, message, status}``, n8n's ``{message}``, webhooks' ``{code, message}``.

The app-level handlers (``errors.py``) render the seed-003 envelope. Routers that imitate a
peer's API install a route class instead: it catches what the route raises (validation
errors, our errors, anything else) and renders it the way that peer's clients expect. Requests
that match no route still get the envelope.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from ragspine.api.errors import client_closed, request_ids
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.errors import PayloadTooLargeError, RagspineError
from ragspine.workflows.errors import (
    WebhookBodiesBusyError,
    WebhookBodiesLimitError,
    WorkflowNodeUnsupportedError,
    WorkflowRunDisabledError,
    WorkflowRunLimitError,
    WorkflowRunsBusyError,
)
from ragspine.workflows.surfaces import (
    WebhookMethodNotAllowedError,
    WebhookRateLimitedError,
    WorkflowNotFoundError,
    WorkflowNotRunnableError,
    WorkflowRequestUnprocessableError,
    WorkflowRunNotFoundError,
    WorkflowUnauthenticatedError,
)

logger = logging.getLogger(__name__)
Render = Callable[[Request, Exception], Response]
DIFY_MISSING_AUTH = "Authorization header must be provided and start with 'Bearer'"
DIFY_INVALID_AUTH = "Access token is invalid"
N8N_MISSING_KEY = "'X-N8N-API-KEY' header required"


def _summary(exc: RequestValidationError, *, head: tuple[str, ...], sep: str) -> str:
    """``request/query/limit input should be ...``: each invalid place and why, joined."""
    parts = [f"{sep.join((*head, *(str(p) for p in e.get('loc', ()))))} {str(e.get('msg', 'is invalid')).lower()}"
             + (f" ({e['ctx']['error']})" if e.get("type") == "json_invalid" and "error" in e.get("ctx", {}) else "")
             for e in exc.errors()]
    return "; ".join(parts) or "the request is invalid"


def _opaque(request: Request, exc: Exception) -> str:
    request_id, _ = request_ids(request)
    logger.error("unhandled error", exc_info=exc, extra={"request_id": request_id})
    return f"internal error; quote request id {request_id} when reporting it"


def dify_status(exc: Exception) -> tuple[int, str, str]:
    """``(status, Dify code, message)`` for an error raised while serving a Dify route."""
    if isinstance(exc, RequestValidationError):
        return 400, "invalid_param", _summary(exc, head=(), sep=".")
    if isinstance(exc, StarletteHTTPException) and exc.status_code < 500:
        return exc.status_code, "invalid_param", str(exc.detail)
    if isinstance(exc, WorkflowUnauthenticatedError):
        return 401, "unauthorized", DIFY_MISSING_AUTH if exc.missing else DIFY_INVALID_AUTH
    if isinstance(exc, WorkflowRunDisabledError):
        return 403, "app_unavailable", exc.message
    if isinstance(exc, WorkflowNotRunnableError | WorkflowNodeUnsupportedError):
        return 400, "app_unavailable", exc.message
    if isinstance(exc, WorkflowNotFoundError | WorkflowRunNotFoundError):
        return 404, "not_found", exc.message
    if isinstance(exc, WorkflowRunLimitError | WorkflowRunsBusyError | WebhookBodiesBusyError
                  | WebhookBodiesLimitError):
        return exc.http_status, "too_many_requests", exc.message
    if isinstance(exc, RagspineError):
        if exc.http_status < 500:
            return 400 if exc.http_status == 422 else exc.http_status, "invalid_param", exc.message
        return exc.http_status, "internal_server_error", exc.message
    return 500, "internal_server_error", ""


def _refusal(exc: Exception, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    """A run refused for capacity: ``retryable: true`` in the body and ``Retry-After`` (other errors: unchanged)."""
    if isinstance(exc, WorkflowRunLimitError | WorkflowRunsBusyError | WebhookBodiesBusyError
                  | WebhookBodiesLimitError):
        headers["Retry-After"] = str(exc.retry_after)
        return {**body, "retryable": True}
    return body


def render_dify(request: Request, exc: Exception) -> Response:
    """Dify's error body, e.g. ``{"code": "unauthorized", "message": "...", "status": 401}``."""
    status, code, message = dify_status(exc)
    message = message or _opaque(request, exc)
    headers = {"X-Request-Id": request_ids(request)[0]}
    body = _refusal(exc, {"code": code, "message": message, "status": status}, headers)
    return JSONResponse(body, status_code=status, headers=headers)


def render_n8n(request: Request, exc: Exception) -> Response:
    """n8n's public-API error body ``{"message": "..."}`` (e.g. ``request/body/active is read-only``)."""
    if isinstance(exc, RequestValidationError):
        status, message = 400, _summary(exc, head=("request",), sep="/")
    elif isinstance(exc, StarletteHTTPException) and exc.status_code < 500:
        status, message = exc.status_code, str(exc.detail)
    elif isinstance(exc, WorkflowUnauthenticatedError):
        status, message = 401, N8N_MISSING_KEY if exc.missing else "unauthorized"
    elif isinstance(exc, WorkflowRequestUnprocessableError):
        status, message = 422, exc.message
    elif isinstance(exc, RagspineError):
        status, message = (400 if exc.http_status == 422 else exc.http_status), exc.message
    else:
        status, message = 500, _opaque(request, exc)
    return JSONResponse({"message": message}, status_code=status, headers={"X-Request-Id": request_ids(request)[0]})


def render_webhook(request: Request, exc: Exception) -> Response:
    """n8n's webhook error body ``{"code": <status>, "message": "..."}``, with Allow / Retry-After."""
    headers = {"X-Request-Id": request_ids(request)[0]}
    if isinstance(exc, WebhookMethodNotAllowedError):
        headers["Allow"] = ", ".join(exc.allowed)
    if isinstance(exc, WebhookRateLimitedError):
        headers["Retry-After"] = str(exc.retry_after)
    if isinstance(exc, RequestValidationError):
        status, message = 400, _summary(exc, head=(), sep=".")
    elif isinstance(exc, StarletteHTTPException) and exc.status_code < 500:
        status, message = exc.status_code, str(exc.detail)
    elif isinstance(exc, PayloadTooLargeError | RagspineError):
        status, message = (400 if exc.http_status == 422 else exc.http_status), exc.message
    else:
        status, message = 500, _opaque(request, exc)
    return JSONResponse(_refusal(exc, {"code": status, "message": message}, headers), status_code=status,
                        headers=headers)


def route_class(render: Render) -> type[APIRoute]:
    """An ``APIRoute`` subclass whose routes answer every failure through ``render``."""

    class _FormattedRoute(StrictJsonRoute):
        def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
            handle = super().get_route_handler()

            async def formatted(request: Request) -> Response:
                try:
                    return await handle(request)
                except ClientDisconnect:
                    return client_closed(request)
                except Exception as exc:  # noqa: BLE001 - every failure gets the peer's format
                    return render(request, exc)

            return formatted

    return _FormattedRoute


DifyRoute = route_class(render_dify)
N8nRoute = route_class(render_n8n)
WebhookRoute = route_class(render_webhook)
