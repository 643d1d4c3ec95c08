"""Mapping of every failure to the seed-003 error envelope, registered once per app."""

from __future__ import annotations

import logging
import re
import uuid
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ragspine.api.envelope import error_body
from ragspine.errors import FieldError, RagspineError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from ragspine.api import allow
else:
    allow = LazyModule("ragspine.api.allow")  # and the contracts it reads: only a 405 names the allowed methods

logger = logging.getLogger(__name__)

_HTTP_CODES = {404: "KNOWLEDGE_NOT_FOUND", 401: "KNOWLEDGE_UNAUTHENTICATED", 403: "KNOWLEDGE_FORBIDDEN"}


# A caller's request or trace id is echoed in every reply and written to logs: it is kept only when it is a
# plain token of the contract's length (letters, digits and ``._:;/+=@-``), else a fresh id stands in for it.
MAX_REQUEST_ID = 256
_REQUEST_ID = re.compile(rf"[A-Za-z0-9._:;/+=@-]{{1,{MAX_REQUEST_ID}}}")


def usable_id(value: object) -> str | None:
    """``value`` when it is a request or trace id fit to echo and log, else None."""
    return value if isinstance(value, str) and _REQUEST_ID.fullmatch(value) else None


def request_ids(request: Request) -> tuple[str, str]:
    """The request id (client header, API Gateway context, or new) and the trace id.

    A client's id that is too long or holds other characters than a plain token's is replaced by a
    new one, never echoed.
    """
    cached = getattr(request.state, "ids", None)
    if cached:
        return cached  # type: ignore[no-any-return]
    event = request.scope.get("aws.event") or {}
    request_id = (usable_id(request.headers.get("x-request-id"))
                  or usable_id((event.get("requestContext") or {}).get("requestId"))
                  or uuid.uuid4().hex)
    trace_id = usable_id(request.headers.get("x-amzn-trace-id")) or request_id
    request.state.ids = (request_id, trace_id)
    return request_id, trace_id


def error_response(request: Request, status: int, *, code: str, message: str, retryable: bool = False,
                   field_errors: tuple[FieldError, ...] = (), headers: dict[str, str] | None = None) -> JSONResponse:
    """An envelope response carrying the request id in body and header."""
    request_id, trace_id = request_ids(request)
    body = error_body(code=code, message=message, retryable=retryable, request_id=request_id,
                      trace_id=trace_id, field_errors=field_errors)
    return JSONResponse(body, status_code=status, headers={**(headers or {}), "X-Request-Id": request_id})


def _field(loc: tuple[object, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    invalid = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if invalid is not None:
        reason = str((invalid.get("ctx") or {}).get("error", "invalid JSON"))
        return error_response(request, 400, code="KNOWLEDGE_INVALID_INPUT",
                              message=f"the request body is not valid JSON ({reason}): send a JSON object such as "
                                      '{"question": "2024年日本的毛利率是多少"}',
                              field_errors=(FieldError("body", reason),))
    fields = tuple(FieldError(_field(tuple(e.get("loc", ()))), str(e.get("msg", "invalid"))) for e in errors)
    summary = "; ".join(f"{f.field}: {f.message}" for f in fields)
    return error_response(request, 400, code="KNOWLEDGE_INVALID_INPUT",
                          message=f"the request is invalid ({summary})", field_errors=fields)


async def _ragspine_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RagspineError)
    if exc.http_status >= 500:
        logger.error("request failed: %s", exc.code, extra={"error_code": exc.code})
    return error_response(request, exc.http_status, code=exc.code, message=exc.message,
                          retryable=exc.retryable, field_errors=exc.field_errors)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "KNOWLEDGE_INVALID_INPUT")
    messages = {404: f"no route {request.method} {request.url.path}: see /docs for the routes",
                405: f"method {request.method} is not allowed on {request.url.path}"}
    message = messages.get(exc.status_code, str(exc.detail))
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        allowed = allow.allowed_methods(request, headers.get("Allow", ""))
        headers["Allow"] = ", ".join(allowed)
        message = f"{message}; use {', '.join(allowed)}"
    return error_response(request, exc.status_code, code=code, message=message, headers=headers)


def client_closed(request: Request) -> Response:
    """The reply to a request whose client closed the connection before sending its whole body.

    Nobody is left to read it. It is the client's doing, not a fault of the service: one warning line
    without a traceback, and a 4xx status, so nothing counts it as a server error.
    """
    request_id, _ = request_ids(request)
    logger.warning("client closed the connection before sending the whole body: %s %s", request.method,
                   request.url.path, extra={"request_id": request_id})
    return Response(status_code=400, headers={"X-Request-Id": request_id})


class RequestGuard:
    """Assign the request id and turn any crash into an opaque 500 (body limits: ``BodyLimitMiddleware``).

    Pure ASGI, not ``BaseHTTPMiddleware``: that one runs the app in a task group of its own and hands the
    response on through memory streams, which starts anyio's asyncio backend on every app's first request
    (a Lambda's cold start included) and adds a task and two streams to every request.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        request_id, _ = request_ids(request)
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                MutableHeaders(scope=message).setdefault("X-Request-Id", request_id)
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
            if started:
                return
            raise RuntimeError("the app returned without a response")
        except ClientDisconnect:
            if started:
                raise
            response = client_closed(request)
        except Exception:
            if started:
                raise  # the status is sent: the server closes the connection
            logger.exception("unhandled error", extra={"request_id": request_id})
            response = error_response(request, 500, code="KNOWLEDGE_INTERNAL_ERROR",
                                      message=f"internal error; quote request id {request_id} when reporting it",
                                      retryable=True)
        await response(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Register the single mapping from failures to envelopes."""
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(RagspineError, _ragspine_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_middleware(RequestGuard)
