"""opensearch-py failures become typed, correctly retryable RAGSpine errors."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.aws.opensearch_errors import (
    OpenSearchAccessDeniedError,
    OpenSearchIndexMissingError,
    OpenSearchRequestError,
    OpenSearchThrottledError,
    OpenSearchUnavailableError,
    OpenSearchUnsupportedQueryError,
    classify,
    from_exception,
    from_response_error,
)
from ragspine.errors import ProviderUnavailableError

exceptions = pytest.importorskip("opensearchpy.exceptions")


def info(error_type: str, reason: str) -> dict[str, Any]:
    return {"error": {"type": error_type, "reason": reason, "root_cause": [{"type": error_type, "reason": reason}]}}


@pytest.mark.parametrize(("exc", "expected", "retryable"), [
    (exceptions.ConnectionError("N/A", "refused", ConnectionRefusedError("refused")), OpenSearchUnavailableError, True),
    (exceptions.ConnectionTimeout("TIMEOUT", "timed out", TimeoutError("read")), OpenSearchUnavailableError, True),
    (exceptions.TransportError(429, "429", info("es_rejected_execution_exception", "queue full")),
     OpenSearchThrottledError, True),
    (exceptions.TransportError(503, "unavailable", "Service Unavailable"), OpenSearchUnavailableError, True),
    (exceptions.TransportError(500, "internal", info("exception", "boom")), OpenSearchUnavailableError, True),
    (exceptions.AuthorizationException(403, "forbidden", {"message": "no permissions"}),
     OpenSearchAccessDeniedError, False),
    (exceptions.AuthenticationException(401, "unauthorized", "bad signature"), OpenSearchAccessDeniedError, False),
    (exceptions.NotFoundError(404, "index_not_found_exception", info("index_not_found_exception", "no such index")),
     OpenSearchIndexMissingError, False),
    (exceptions.RequestError(400, "mapper_parsing_exception", info("mapper_parsing_exception", "failed to parse")),
     OpenSearchRequestError, False),
    (exceptions.RequestError(400, "parsing_exception", info("parsing_exception", "unknown query [knn]")),
     OpenSearchUnsupportedQueryError, False),
])
def test_client_exceptions_map_to_typed_errors(exc: Exception, expected: type[Exception], retryable: bool) -> None:
    error = from_exception(exc, action="search chunks")
    assert type(error) is expected
    assert error.retryable is retryable
    assert "search chunks" in error.message


def test_retryable_failures_are_provider_unavailable_so_the_narrative_channel_answers_honestly() -> None:
    for error_type in (OpenSearchUnavailableError, OpenSearchThrottledError, OpenSearchAccessDeniedError,
                       OpenSearchIndexMissingError):
        assert issubclass(error_type, ProviderUnavailableError)
    assert not issubclass(OpenSearchRequestError, ProviderUnavailableError)


def test_osmem_s_refusal_of_knn_is_recognised() -> None:
    error = from_response_error(400, {"type": "unsupported_operation_exception",
                                      "reason": "[knn] query is not supported by osmem"}, action="k-NN search")
    assert isinstance(error, OpenSearchUnsupportedQueryError)


def test_a_bulk_item_error_keeps_its_type_and_reason() -> None:
    error = from_response_error(400, {"type": "strict_dynamic_mapping_exception", "reason": "no [x]"}, action="index")
    assert isinstance(error, OpenSearchRequestError)
    assert (error.status, error.error_type) == (400, "strict_dynamic_mapping_exception")
    assert "no [x]" in error.message


def test_a_missing_status_means_unreachable() -> None:
    assert isinstance(classify("N/A", "", "reset by peer", action="count"), OpenSearchUnavailableError)
