"""The seed-003 response envelope (``data``/``meta``) used for every error."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from ragspine.errors import FieldError

API_VERSION = "v1"
# The contract's bounds on an error (seed 003): a message of at most 2,000 characters, 100 field errors.
MAX_MESSAGE_CHARS = 2000
MAX_FIELD_ERRORS = 100


class FieldErrorModel(BaseModel):
    """One invalid field and why."""

    field: str
    message: str


class ErrorModel(BaseModel):
    """What went wrong, whether retrying can help, and which fields to fix."""

    code: str = Field(examples=["KNOWLEDGE_INVALID_INPUT"])
    message: str
    retryable: bool
    fieldErrors: list[FieldErrorModel]


class MetaModel(BaseModel):
    """Envelope metadata of seed 003."""

    success: bool
    requestId: str
    traceId: str
    timestamp: str
    apiVersion: str = API_VERSION
    pagination: dict[str, Any] | None = None
    error: ErrorModel | None = None


class ErrorEnvelope(BaseModel):
    """An error response: ``data`` is null and ``meta.error`` says what to fix."""

    data: None = None
    meta: MetaModel


def error_body(*, code: str, message: str, retryable: bool, request_id: str, trace_id: str,
               field_errors: tuple[FieldError, ...] = ()) -> dict[str, Any]:
    """The JSON body of an error response."""
    return {
        "data": None,
        "meta": {
            "success": False,
            "requestId": request_id,
            "traceId": trace_id,
            "timestamp": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
            "apiVersion": API_VERSION,
            "pagination": None,
            "error": {
                "code": code,
                "message": _bounded(message),
                "retryable": retryable,
                "fieldErrors": [{"field": f.field, "message": f.message} for f in field_errors[:MAX_FIELD_ERRORS]],
            },
        },
    }


def _bounded(message: str) -> str:
    """A message within the contract's length; a longer one (it may quote the caller's input) is cut with "…"."""
    return message if len(message) <= MAX_MESSAGE_CHARS else message[:MAX_MESSAGE_CHARS - 1] + "…"
