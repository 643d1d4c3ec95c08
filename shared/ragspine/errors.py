"""One exception type per failure kind, each carrying its seed error code and HTTP status."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FieldError:
    """One invalid input field: where it is and what is wrong with it."""

    field: str
    message: str


class RagspineError(Exception):
    """Base of every error the engine raises on purpose.

    Subclasses set ``code`` (an error code of seed 003) and ``http_status``; the API layer
    renders them in the seed-003 envelope without looking at the message text.
    """

    code = "KNOWLEDGE_INTERNAL_ERROR"
    http_status = 500
    retryable = False

    def __init__(self, message: str, *, field_errors: tuple[FieldError, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.field_errors = field_errors


class InvalidInputError(RagspineError):
    """The caller sent something malformed: fix the request and send it again."""

    code = "KNOWLEDGE_INVALID_INPUT"
    http_status = 400


class PayloadTooLargeError(InvalidInputError):
    """The request body exceeds the configured size limit."""

    http_status = 413


class MissingLineageError(InvalidInputError):
    """A fact without its source document or locator was offered for storage."""

    http_status = 422


class NotFoundError(RagspineError):
    """A named resource (route, document, space) does not exist."""

    code = "KNOWLEDGE_NOT_FOUND"
    http_status = 404


class ConflictError(RagspineError):
    """The resource is not in a state that allows the request (a retry of an operation that did not fail)."""

    code = "KNOWLEDGE_CONFLICT"
    http_status = 409


class ProviderUnavailableError(RagspineError):
    """A backing service (DynamoDB, OpenSearch, an LLM) failed or timed out; retry later."""

    code = "KNOWLEDGE_PROVIDER_UNAVAILABLE"
    http_status = 503
    retryable = True


class ConfigurationError(RagspineError):
    """Settings or configuration files are invalid; raised at start-up, not per request."""

    code = "KNOWLEDGE_CONFIGURATION_ERROR"
    http_status = 500


class UnauthenticatedError(RagspineError):
    """No valid service token or user assertion: sign in again (never says which check failed in detail)."""

    code = "KNOWLEDGE_UNAUTHENTICATED"
    http_status = 401


class ForbiddenError(RagspineError):
    """The caller may see the resource but may not perform this action on it."""

    code = "KNOWLEDGE_FORBIDDEN"
    http_status = 403


class OperationPendingError(ConflictError):
    """The resource has an unfinished operation: wait for it (or cancel it) and try again."""

    code = "KNOWLEDGE_OPERATION_PENDING"
    retryable = True


class MetadataFieldNotAllowedError(InvalidInputError):
    """A document metadata field other than category, tags, versionLabel or productCode."""

    code = "KNOWLEDGE_METADATA_FIELD_NOT_ALLOWED"


class MetadataFilterFieldNotAllowedError(InvalidInputError):
    """A metadata filter field other than category, tagsAny, tagsAll, versionLabel or productCode."""

    code = "KNOWLEDGE_METADATA_FILTER_FIELD_NOT_ALLOWED"


class MetadataValueInvalidError(InvalidInputError):
    """A metadata value is empty, too long, null where not allowed, a duplicate tag or has control characters."""

    code = "KNOWLEDGE_METADATA_VALUE_INVALID"


class MetadataTooLargeError(InvalidInputError):
    """Document metadata serialises to more than 4,096 UTF-8 bytes."""

    code = "KNOWLEDGE_METADATA_TOO_LARGE"
