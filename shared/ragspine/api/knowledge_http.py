"""One request through the Gateway: authenticate, validate against the contract, run once, envelope, audit.

Requests are validated against the contract's closed schemas (metadata first, so its specific
codes win, as seed 003 orders them); a forbidden field is KNOWLEDGE_INVALID_INPUT with a
``fieldErrors`` entry. Every mutation and every denied request is audited (never document
text nor assertion contents).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ragspine.api import strict_json
from ragspine.api.envelope import API_VERSION
from ragspine.api.errors import error_response, request_ids
from ragspine.api.query_int import ascii_int
from ragspine.errors import (
    FieldError,
    ForbiddenError,
    InvalidInputError,
    MetadataValueInvalidError,
    RagspineError,
    UnauthenticatedError,
)
from ragspine.knowledge import metadata
from ragspine.knowledge.acl import HiddenResourceError
from ragspine.knowledge.contract import schema_validator, tool
from ragspine.knowledge.model import AuditEntry, Metadata, Principal
from ragspine.lazy import LazyModule
from ragspine.names import name_problem

if TYPE_CHECKING:
    from ragspine.knowledge import search_filter
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    search_filter = LazyModule("ragspine.knowledge.search_filter")

MAX_PAGE_SIZE = 100
MAX_ID = 128  # the contract's ids: ^[A-Za-z0-9._-]+$, at most 128 characters
_ID = re.compile(r"^[A-Za-z0-9._-]+$")
AUDIT_FIELD_MAX = 256  # code points of each caller-supplied audit field (the contract's header limit)
# The contract's header limits (code points); a longer value is refused, not truncated.
HEADER_LIMITS = {"x-harness-session-id": 256, "x-tool-call-id": 256, "x-request-id": 256, "idempotency-key": 256,
                 "x-user-assertion": 8192}


@dataclass(frozen=True)
class Reply:
    """What a service call answers: status, ``data`` and, for lists, ``pagination``."""

    status: int
    data: Any
    pagination: dict[str, Any] | None = None


@dataclass(frozen=True)
class Call:
    """One validated request, as a route's service call receives it."""

    principal: Principal
    body: dict[str, Any]
    page: int = 1
    page_size: int = 20
    query: Mapping[str, str] = field(default_factory=dict)  # the operation's own query parameters


def envelope(request: Request, reply: Reply) -> JSONResponse:
    """The success envelope."""
    request_id, trace_id = request_ids(request)
    now = datetime.now(UTC)
    meta = {"success": True, "requestId": request_id, "traceId": trace_id,
            "timestamp": now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z",
            "apiVersion": API_VERSION, "pagination": reply.pagination, "error": None}
    return JSONResponse({"data": reply.data, "meta": meta}, status_code=reply.status,
                        headers={"X-Request-Id": request_id, "Cache-Control": "no-store"})


def page_of(items: list[Any], page: int, page_size: int) -> tuple[list[Any], dict[str, Any]]:
    """One page and its ``meta.pagination`` (totalPages 0 when empty; a page past the end is empty)."""
    total = len(items)
    pages = -(-total // page_size)
    return items[(page - 1) * page_size: page * page_size], {
        "page": page, "pageSize": page_size, "totalItems": total, "totalPages": pages, "hasNext": page < pages}


def _int_param(name: str, raw: str | None, default: int, low: int, high: int | None) -> int:
    if raw is None:
        return default
    value = ascii_int(raw)
    if value is None or not (low <= value <= (high or value)):
        limit = f"{low}–{high}" if high else f"at least {low}"
        raise InvalidInputError(f"{name} must be an integer {limit} written in ASCII digits",
                                field_errors=(FieldError(name, limit),))
    return value


def int_param(query: Mapping[str, str], name: str, *, default: int, low: int, high: int) -> int:
    """An integer query parameter within ``low``–``high`` (KNOWLEDGE_INVALID_INPUT with a fieldErrors entry)."""
    return _int_param(name, query.get(name), default, low, high)


def paging(query: Mapping[str, str], declared: tuple[str, ...] = ()) -> tuple[int, int]:
    """``page`` (from 1) and ``pageSize`` (1–100, default 20); a parameter neither these nor ``declared`` is refused."""
    unknown = sorted(set(query) - {"page", "pageSize", *declared})
    if unknown:
        allowed = ", ".join(["page", "pageSize", *(n for n in declared if n not in ("page", "pageSize"))])
        raise InvalidInputError(f"query parameter(s) {', '.join(unknown)} not allowed: use {allowed}",
                                field_errors=tuple(FieldError(name, "not allowed") for name in unknown))
    return (_int_param("page", query.get("page"), 1, 1, None),
            _int_param("pageSize", query.get("pageSize"), 20, 1, MAX_PAGE_SIZE))


def check_headers(headers: Mapping[str, str]) -> None:
    """Refuse a correlation header, key or assertion longer than the contract allows.

    Raises:
        InvalidInputError: with a ``fieldErrors`` entry per header.
    """
    too_long = [FieldError(name, f"at most {limit} characters") for name, limit in HEADER_LIMITS.items()
                if len(headers.get(name, "")) > limit]
    if too_long:
        raise InvalidInputError("header(s) too long: " + ", ".join(f.field for f in too_long), field_errors=tuple(
            too_long))


def _field(path: Any) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "body"


def _schema_errors(schema: str, body: Any) -> list[FieldError]:
    problems: list[FieldError] = []
    for error in sorted(schema_validator(schema).iter_errors(body), key=lambda e: list(e.absolute_path)):
        path = list(error.absolute_path)
        if path and path[0] in ("metadata", "metadataFilter"):
            continue  # checked first, with the metadata codes
        if error.validator == "additionalProperties":
            allowed = set(error.schema.get("properties", {}))
            problems += [FieldError(_field([*path, k]), "not allowed") for k in error.instance if k not in allowed]
        elif error.validator == "required":
            problems.append(FieldError(_field([*path, error.message.split("'")[1]]), "is required"))
        elif error.validator == "anyOf" and not path:
            options = " or ".join(sorted({r for s in error.schema["anyOf"] for r in s.get("required", [])}))
            problems.append(FieldError("body", f"send at least one of {options}"))
        elif error.validator == "pattern" and isinstance(error.instance, str) and name_problem(error.instance):
            problems.append(FieldError(_field(path), str(name_problem(error.instance))))
        else:
            problems.append(FieldError(_field(path), error.message[:200]))
    return problems


def validated_body(schema: str | None, raw: bytes) -> dict[str, Any]:
    """The JSON body, checked against the contract's closed schema.

    Raises:
        InvalidInputError (or a metadata error): not JSON, not an object, or not valid for the schema.
    """
    if schema is None:
        return {}
    try:
        body = strict_json.loads(raw or b"null")
    except strict_json.MalformedJsonError as exc:
        raise InvalidInputError(f"{exc.msg}: send a JSON object", field_errors=(FieldError(exc.field, exc.msg),)
                                ) from exc
    if not isinstance(body, dict):
        raise InvalidInputError("the request body must be a JSON object", field_errors=(FieldError("body", "object"),))
    if "metadata" in body and body["metadata"] is not None:
        if schema == "DocumentUpdateRequest":
            metadata.apply_patch(Metadata(), body["metadata"])
        else:
            metadata.parse_upload(body["metadata"])
    elif "metadata" in body:
        raise MetadataValueInvalidError("metadata cannot be null: omit it instead",
                                        field_errors=(FieldError("metadata", "cannot be null"),))
    if "metadataFilter" in body:
        search_filter.parse_filter(body["metadataFilter"])  # its own codes, before the closed schema (seed 003)
    problems = _schema_errors(schema, body)
    if problems:
        summary = "; ".join(f"{p.field}: {p.message}" for p in problems[:10])
        raise InvalidInputError(f"the request is invalid ({summary})", field_errors=tuple(problems[:100]))
    return body


@dataclass(frozen=True)
class Hooks:
    """What the pipeline needs from the composition: authentication, idempotency and audit."""

    authenticate: Callable[[str | None, str | None], Principal]
    idempotent: Callable[[dict[str, Any], Callable[[], dict[str, Any]]], dict[str, Any]]
    audit: Callable[[AuditEntry], None]


def audit_text(text: str, limit: int = AUDIT_FIELD_MAX) -> str:
    """A caller-supplied value as the audit log keeps it: unprintable characters escaped, at most ``limit``
    code points (a longer value keeps its head and ends in ``…``), so no request can flood or forge a line."""
    printable = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text[:limit + 1])
    return printable if len(printable) <= limit and len(text) <= limit else printable[:limit - 1] + "…"


def _audit(hooks: Hooks, request: Request, tool_name: str, resource: str, principal: Principal | None,
           result: str, code: str | None) -> None:
    request_id, _ = request_ids(request)
    hooks.audit(AuditEntry(at=datetime.now(UTC), user_id=audit_text(principal.user_id) if principal else "-",
                           action=tool(tool_name).action, resource=audit_text(resource),
                           request_id=audit_text(request_id),
                           tool_call_id=audit_text(request.headers.get("x-tool-call-id", "")),
                           session_id=audit_text(request.headers.get("x-harness-session-id", "")), result=result,
                           error_code=code))


def check_path_ids(path_params: Mapping[str, str]) -> None:
    """Refuse an id in the path that the contract's id rule (``^[A-Za-z0-9._-]+$``, 1–128) does not allow.

    Raises:
        InvalidInputError: with a ``fieldErrors`` entry per id.
    """
    bad = [FieldError(name, f"1 to {MAX_ID} of A-Z a-z 0-9 . _ -") for name, value in path_params.items()
           if not (len(value) <= MAX_ID and _ID.match(value))]
    if bad:
        raise InvalidInputError("id(s) in the path are malformed: " + ", ".join(f.field for f in bad)
                                + ": use ids exactly as the Gateway returned them", field_errors=tuple(bad))


def _is_mutation(tool_name: str) -> bool:
    # A read tool sent with POST (knowledge_search) changes nothing: no Idempotency-Key, no audit when allowed.
    contract_tool = tool(tool_name)
    return contract_tool.method != "GET" and contract_tool.toolset != "read"


def _authenticate(hooks: Hooks, request: Request, tool_name: str, resource: str) -> Principal:
    """The caller, from the headers alone: run before the body is read, so a refused caller sends it in vain."""
    try:
        return hooks.authenticate(request.headers.get("authorization"), request.headers.get("x-user-assertion"))
    except RagspineError as exc:
        denied = isinstance(exc, UnauthenticatedError | ForbiddenError | HiddenResourceError)
        if denied or _is_mutation(tool_name):
            _audit(hooks, request, tool_name, resource, None, "DENIED" if denied else "FAILED", exc.code)
        raise


def _execute(hooks: Hooks, request: Request, headers: Mapping[str, str], raw: bytes, tool_name: str, resource: str,
             run: Callable[[Call], Reply], principal: Principal) -> Reply:
    contract_tool = tool(tool_name)
    mutation = _is_mutation(tool_name)
    try:
        check_headers(headers)
        check_path_ids(request.path_params)
        key = headers.get("idempotency-key", "")
        if contract_tool.keyed and not key.strip():
            raise InvalidInputError("mutations need an Idempotency-Key header",
                                    field_errors=(FieldError("Idempotency-Key", "is required"),))
        body = validated_body(contract_tool.request_schema, raw)
        page, size = paging(request.query_params, contract_tool.query) if not mutation else (1, 20)
        call = Call(principal, body, page, size, {k: v for k, v in request.query_params.items()
                                                  if k in contract_tool.query})
        if contract_tool.keyed:
            stored = hooks.idempotent({"caller": principal.user_id, "tool": tool_name, "key": key,
                                       "request": {"resource": resource, "body": body}},
                                      lambda: _plain(run(call)))
            reply = Reply(stored["status"], stored["data"], stored["pagination"])
        else:
            reply = run(call)
    except RagspineError as exc:
        denied = isinstance(exc, UnauthenticatedError | ForbiddenError | HiddenResourceError)
        if mutation or denied:
            _audit(hooks, request, tool_name, resource, principal, "DENIED" if denied else "FAILED", exc.code)
        raise
    if mutation:
        _audit(hooks, request, tool_name, resource, principal, "ALLOWED", None)
    return reply


def _plain(reply: Reply) -> dict[str, Any]:
    return {"status": reply.status, "data": reply.data, "pagination": reply.pagination}


async def handle(hooks: Hooks, request: Request, tool_name: str, resource: str,
                 run: Callable[[Call], Reply]) -> JSONResponse:
    """Run one Gateway request (the service work in a worker thread) and answer in the envelope."""
    try:
        principal = await run_in_threadpool(_authenticate, hooks, request, tool_name, resource)
        raw = await request.body()
        reply = await run_in_threadpool(_execute, hooks, request, request.headers, raw, tool_name, resource, run,
                                        principal)
    except RagspineError as exc:
        return error_response(request, exc.http_status, code=exc.code, message=exc.message, retryable=exc.retryable,
                              field_errors=exc.field_errors[:100])
    return envelope(request, reply)
