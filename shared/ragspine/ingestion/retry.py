"""The retry policy shared by the in-process runner and the Step Functions state machine.

One ``RetryPolicy`` object describes both: the in-process runner applies it directly, and
``RetryPolicy.from_asl`` reads it back from ``infra/statemachine/ingest.asl.json`` so a test
can prove the two have not drifted.

Counting: ``max_attempts`` here is the total number of attempts (the first call included).
ASL's ``MaxAttempts`` counts retries only, so ASL ``MaxAttempts: 4`` is ``max_attempts=5``.
Errors are matched by class name, as ASL ``ErrorEquals`` matches a Lambda's ``errorType``; an
exception matches when any class in its MRO is named, and ``error_name`` gives the worker
the name to report so the state machine sees the same match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine.errors import ConfigurationError

TRANSIENT_ERRORS = ("ProviderUnavailableError", "OSError")
_ALL = "States.ALL"


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
        return _ALL in self.retry_on or error_name(exc, self) in self.retry_on

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number ``retry`` (1 for the first retry)."""
        seconds = self.interval_s * self.backoff_rate ** (retry - 1)
        return min(seconds, self.max_delay_s) if self.max_delay_s is not None else seconds

    def to_asl_retry(self) -> dict[str, Any]:
        """This policy as one ASL ``Retry`` entry (for a state machine to embed)."""
        # ASL wants whole seconds; MaxAttempts counts retries, so one less than our attempts.
        entry: dict[str, Any] = {"ErrorEquals": list(self.retry_on), "IntervalSeconds": round(self.interval_s),
                                 "MaxAttempts": self.max_attempts - 1, "BackoffRate": self.backoff_rate}
        if self.max_delay_s is not None:
            entry["MaxDelaySeconds"] = round(self.max_delay_s)
        return entry

    @classmethod
    def from_asl(cls, path: Path) -> RetryPolicy:
        """The policy every Task state of an ASL file applies to our transient errors.

        Raises:
            ConfigurationError: the file is unreadable, has no Task with a matching Retry,
                or its Task states disagree.
        """
        try:
            definition = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigurationError(f"{path}: cannot read the state machine definition ({exc})") from exc
        found = {_from_entry(entry) for entry in _retry_entries(definition.get("States", {}))}
        if not found:
            raise ConfigurationError(f"{path}: no Task state retries {', '.join(TRANSIENT_ERRORS)}")
        if len(found) > 1:
            raise ConfigurationError(f"{path}: Task states disagree on the retry policy: {sorted(map(repr, found))}")
        return found.pop()


def error_name(exc: BaseException, policy: RetryPolicy | None = None) -> str:
    """The name to report for ``exc``: the first class in its MRO the policy retries, else its own name."""
    names = (policy or RetryPolicy()).retry_on
    for klass in type(exc).__mro__:
        if klass.__name__ in names:
            return klass.__name__
    return type(exc).__name__


def _retry_entries(states: dict[str, Any]) -> list[dict[str, Any]]:
    """Retry entries naming one of our transient errors, in every Task (nested Parallel/Map included)."""
    entries: list[dict[str, Any]] = []
    for state in states.values():
        if state.get("Type") == "Task":
            entries += [e for e in state.get("Retry", [])
                        if set(e.get("ErrorEquals", [])) & {*TRANSIENT_ERRORS, _ALL}]
        for branch in state.get("Branches", []):
            entries += _retry_entries(branch.get("States", {}))
        for key in ("Iterator", "ItemProcessor"):
            if key in state:
                entries += _retry_entries(state[key].get("States", {}))
    return entries


def _from_entry(entry: dict[str, Any]) -> RetryPolicy:
    max_delay = entry.get("MaxDelaySeconds")
    return RetryPolicy(
        max_attempts=int(entry.get("MaxAttempts", 3)) + 1,  # ASL defaults: 3 retries, 1 s, rate 2.0
        interval_s=float(entry.get("IntervalSeconds", 1)), backoff_rate=float(entry.get("BackoffRate", 2.0)),
        max_delay_s=float(max_delay) if max_delay is not None else None,
        retry_on=tuple(entry["ErrorEquals"]),
    )
