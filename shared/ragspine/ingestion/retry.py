"""The retry policy shared by the in-process runner and the Step Functions state machine.

One ``RetryPolicy`` object describes both: the in-process runner applies it directly, and the
tests read it back from ``infra/statemachine/ingest.asl.json`` to prove the two have not drifted.

Counting: ``max_attempts`` here is the total number of attempts (the first call included).
ASL's ``MaxAttempts`` counts retries only, so ASL ``MaxAttempts: 4`` is ``max_attempts=5``.
Errors are matched by class name, as ASL ``ErrorEquals`` matches a Lambda's ``errorType``; an
exception matches when any class in its MRO is named, and ``error_name`` gives the worker
the name to report so the state machine sees the same match.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragspine.errors import ConfigurationError

TRANSIENT_ERRORS = ("ProviderUnavailableError", "OSError")
ALL_ERRORS = "States.ALL"  # ASL's catch-all error name


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Bounded retries with exponential backoff for transient errors only."""

    max_attempts: int = 5
    interval_s: float = 2.0
    backoff_rate: float = 2.0
    max_delay_s: float | None = None
    retry_on: tuple[str, ...] = TRANSIENT_ERRORS

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.interval_s < 0 or self.backoff_rate < 1:
            raise ConfigurationError("retry policy needs max_attempts >= 1, interval_s >= 0, backoff_rate >= 1")

    def retries(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a transient error this policy retries.

        An error that says it is not retryable (``retryable = False``, such as a missing index or
        denied access, subclasses of an unavailable provider) is never retried: waiting cannot fix it.
        """
        if getattr(exc, "retryable", True) is False:
            return False
        return ALL_ERRORS in self.retry_on or error_name(exc, self) in self.retry_on

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number ``retry`` (1 for the first retry)."""
        seconds = self.interval_s * self.backoff_rate ** (retry - 1)
        return min(seconds, self.max_delay_s) if self.max_delay_s is not None else seconds


def error_name(exc: BaseException, policy: RetryPolicy | None = None) -> str:
    """The name to report for ``exc``: the first class in its MRO the policy retries, else its own name."""
    names = (policy or RetryPolicy()).retry_on
    for klass in type(exc).__mro__:
        if klass.__name__ in names:
            return klass.__name__
    return type(exc).__name__
