"""Errors of the LLM adapters: one stable ``reason`` per failure kind, safe messages only.

Every error here is a ``ProviderUnavailableError``, as the ``LLMProvider`` port promises, so
the Q&A layer degrades honestly with one ``except``. ``code`` stays the seed-003 envelope
code of the parent; ``reason`` is the finer, stable LLM code for logs, traces and tests, and
``retryable`` tells the caller (and the ASL ``Retry``) whether trying again can help.

Messages name the provider, the model and the remote error code or HTTP status, never the
remote error text: providers echo request fragments and even partial API keys there.
"""

from __future__ import annotations

from ragspine.errors import ProviderUnavailableError

LLM_UNAVAILABLE = "LLM_UNAVAILABLE"  # connection failed, or the provider had an internal error
LLM_TIMEOUT = "LLM_TIMEOUT"  # no reply within the configured timeout
LLM_THROTTLED = "LLM_THROTTLED"  # rate limit or quota: slow down and retry
LLM_REJECTED = "LLM_REJECTED"  # bad credentials, no access, unknown model, invalid request
LLM_BAD_RESPONSE = "LLM_BAD_RESPONSE"  # a reply arrived but carries no usable text


class LLMUnavailableError(ProviderUnavailableError):
    """The model gave no answer this time; retrying later may help."""

    default_reason = LLM_UNAVAILABLE
    retryable = True

    def __init__(self, message: str, *, provider: str, reason: str | None = None,
                 upstream_status: int | None = None) -> None:
        """Build the error.

        Args:
            message: a safe, human-readable message (no remote error text, no secrets).
            provider: the provider's ``name`` (``bedrock``, ``openai``...).
            reason: one of the ``LLM_*`` codes; the class default when omitted.
            upstream_status: the provider's HTTP status, when there was one.
        """
        super().__init__(message)
        self.provider = provider
        self.reason = reason or self.default_reason
        self.upstream_status = upstream_status


class LLMRejectedError(LLMUnavailableError):
    """The provider refused the request (credentials, access, model id, request shape): retrying will not help."""

    default_reason = LLM_REJECTED
    retryable = False


class LLMResponseError(LLMUnavailableError):
    """The provider answered, but the reply has no usable text (malformed or empty)."""

    default_reason = LLM_BAD_RESPONSE
    retryable = False
