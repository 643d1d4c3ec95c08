"""Typed OpenSearch failures, and the translation of opensearch-py errors into them.

Retryable (the cluster may answer later) and permanent failures are kept apart so the
narrative channel can say "could not search" honestly and Step Functions retries only what
a retry can fix:

- unreachable, timed out, 5xx -> ``OpenSearchUnavailableError`` (retryable);
- 429 -> ``OpenSearchThrottledError`` (retryable);
- 401/403 -> ``OpenSearchAccessDeniedError`` and a missing index -> ``OpenSearchIndexMissingError``:
  still "provider unavailable" for the caller, but not retryable (a deployment must change);
- any other 4xx (a mapping or query the cluster refuses) -> ``OpenSearchRequestError``, a bug on
  our side, never retryable; a ``knn`` query the server does not know ->
  ``OpenSearchUnsupportedQueryError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ragspine.errors import ProviderUnavailableError, RagspineError
from ragspine.lazy import LazyModule

if TYPE_CHECKING:
    from opensearchpy import exceptions as opensearch_exceptions
else:
    opensearch_exceptions = LazyModule("opensearchpy.exceptions")  # loads on the first error, not at import


class OpenSearchUnavailableError(ProviderUnavailableError):
    """OpenSearch could not be reached, timed out or failed (5xx); retry later."""


class OpenSearchThrottledError(OpenSearchUnavailableError):
    """OpenSearch answered 429 Too Many Requests; retry with backoff."""


class OpenSearchAccessDeniedError(ProviderUnavailableError):
    """OpenSearch refused the credentials (401/403): fix the IAM role or data access policy."""

    retryable = False


class OpenSearchIndexMissingError(ProviderUnavailableError):
    """The chunk index does not exist yet: run ``ensure_index()`` (ingestion does)."""

    retryable = False


class OpenSearchRequestError(RagspineError):
    """OpenSearch rejected a request as malformed (mapping or query): a bug, never retried."""

    def __init__(self, message: str, *, status: int | str = "N/A", error_type: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.error_type = error_type


class OpenSearchUnsupportedQueryError(OpenSearchRequestError):
    """The server does not know a query type (the ``knn`` query without the k-NN plugin)."""


def _is_unsupported_knn(error_type: str, reason: str) -> bool:
    text = reason.lower()
    unsupported = "not supported" in text or "unknown query" in text or error_type == "unsupported_operation_exception"
    return "knn" in text and unsupported


def classify(status: int | str, error_type: str, reason: str, *, action: str) -> RagspineError:
    """The typed error for one failed call, from its HTTP status and OpenSearch error type.

    Args:
        status: the HTTP status, or ``"N/A"`` when no response came back.
        error_type: OpenSearch's ``error.type`` (e.g. ``strict_dynamic_mapping_exception``).
        reason: OpenSearch's ``error.reason`` or the transport's message.
        action: what the adapter was doing, for the message (e.g. ``"search chunks"``).

    Returns:
        The error to raise; never raises itself.
    """
    detail = f"{error_type}: {reason}" if error_type else reason
    if not isinstance(status, int):
        return OpenSearchUnavailableError(f"OpenSearch is unreachable ({action}): {detail}")
    if status == 429:
        return OpenSearchThrottledError(f"OpenSearch is throttling requests ({action}); retry later: {detail}")
    if status >= 500:
        return OpenSearchUnavailableError(f"OpenSearch failed with HTTP {status} ({action}): {detail}")
    if status in (401, 403):
        return OpenSearchAccessDeniedError(
            f"OpenSearch denied access with HTTP {status} ({action}); check the IAM role and, on "
            f"Serverless, the data access policy: {detail}")
    if status == 404 and error_type == "index_not_found_exception":
        return OpenSearchIndexMissingError(f"the chunk index does not exist ({action}); run ensure_index(): {detail}")
    if status == 400 and _is_unsupported_knn(error_type, reason):
        return OpenSearchUnsupportedQueryError(f"this OpenSearch does not support the knn query ({action}): {detail}",
                                               status=status, error_type=error_type)
    return OpenSearchRequestError(f"OpenSearch rejected the request with HTTP {status} ({action}): {detail}",
                                  status=status, error_type=error_type)


def from_response_error(status: Any, error: Any, *, action: str) -> RagspineError:
    """The typed error of one failed item in a bulk or multi-search response.

    Args:
        status: the item's ``status``.
        error: the item's ``error`` (a dict with ``type`` and ``reason``, or a string).
        action: what the adapter was doing.

    Returns:
        The error to raise.
    """
    if isinstance(error, dict):
        error_type, reason = str(error.get("type", "")), str(error.get("reason", ""))
    else:
        error_type, reason = "", str(error)
    return classify(status if isinstance(status, int) else "N/A", error_type, reason, action=action)


def from_exception(exc: Exception, *, action: str) -> RagspineError:
    """The typed error for an exception raised by opensearch-py.

    Args:
        exc: what the client raised.
        action: what the adapter was doing.

    Returns:
        The error to raise (``raise from_exception(exc, action=...) from exc``).
    """
    if isinstance(exc, opensearch_exceptions.ConnectionError):
        cause = exc.info
        return OpenSearchUnavailableError(f"OpenSearch is unreachable ({action}): {type(cause).__name__}: {cause}")
    if isinstance(exc, opensearch_exceptions.TransportError):
        info = exc.info
        error = info.get("error") if isinstance(info, dict) else None
        if isinstance(error, dict):
            return from_response_error(exc.status_code, error, action=action)
        return classify(exc.status_code, "", str(exc.error), action=action)
    return OpenSearchUnavailableError(f"OpenSearch call failed ({action}): {type(exc).__name__}: {exc}")
