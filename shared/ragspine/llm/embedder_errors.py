"""Errors of the embedders: one stable ``reason`` per failure kind, safe messages only.

Every class is a ``ProviderUnavailableError``, as the ``Embedder`` port promises. ``code`` stays
the seed-003 envelope code of the parent (the seed closes the set of codes a client may see);
``reason`` is the finer code for logs, the worker's ``Catch``/``Choice`` states and tests, and
``retryable`` tells the caller (and the ASL ``Retry``) whether trying again can help. Messages
name the model and the remote error code, never remote error text.
"""

from __future__ import annotations

from ragspine.errors import ProviderUnavailableError

EMBEDDER_UNAVAILABLE = "EMBEDDER_UNAVAILABLE"  # connection failed, timeout, internal provider error
EMBEDDER_THROTTLED = "EMBEDDER_THROTTLED"  # rate limit or quota: slow down and retry
EMBEDDER_MODEL_MISSING = "EMBEDDER_MODEL_MISSING"  # the package holding the model is not installed
EMBEDDER_REJECTED = "EMBEDDER_REJECTED"  # no access, unknown model, invalid request
EMBEDDER_BAD_RESPONSE = "EMBEDDER_BAD_RESPONSE"  # a reply arrived without a usable vector


class EmbedderUnavailableError(ProviderUnavailableError):
    """The embedder produced no vectors this time; retrying later may help."""

    default_reason = EMBEDDER_UNAVAILABLE
    retryable = True

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        """Build the error.

        Args:
            message: a safe, human-readable message (no remote error text, no secrets).
            reason: one of the ``EMBEDDER_*`` codes; the class default when omitted.
        """
        super().__init__(message)
        self.reason = reason or self.default_reason


class EmbedderModelMissingError(EmbedderUnavailableError):
    """The package that ships the model, its tokenizer or its engine is not installed."""

    default_reason = EMBEDDER_MODEL_MISSING
    retryable = False

    def __init__(self, message: str, *, package: str) -> None:
        """Build the error; ``package`` is the pip distribution to install."""
        super().__init__(message)
        self.package = package


class EmbedderRejectedError(EmbedderUnavailableError):
    """The provider refused the request itself (access, unknown model, request shape)."""

    default_reason = EMBEDDER_REJECTED
    retryable = False


class EmbedderResponseError(EmbedderUnavailableError):
    """The provider answered, but without a vector of the expected size."""

    default_reason = EMBEDDER_BAD_RESPONSE
    retryable = False
