"""The ingestion retry policy and the ASL ``Retry`` entries of a state machine, both ways.

The engine applies ``RetryPolicy`` in process; the state machine applies its own ``Retry`` entries.
The tests read ``infra/statemachine/ingest.asl.json`` with ``from_asl`` to prove the two agree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ragspine.errors import ConfigurationError
from ragspine.ingestion.retry import ALL_ERRORS, TRANSIENT_ERRORS, RetryPolicy


def to_asl_retry(policy: RetryPolicy) -> dict[str, Any]:
    """The policy as one ASL ``Retry`` entry (what a state machine embeds)."""
    # ASL wants whole seconds; MaxAttempts counts retries, so one less than our attempts.
    entry: dict[str, Any] = {"ErrorEquals": list(policy.retry_on), "IntervalSeconds": round(policy.interval_s),
                             "MaxAttempts": policy.max_attempts - 1, "BackoffRate": policy.backoff_rate}
    if policy.max_delay_s is not None:
        entry["MaxDelaySeconds"] = round(policy.max_delay_s)
    return entry


def from_asl(path: Path) -> RetryPolicy:
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


def _retry_entries(states: dict[str, Any]) -> list[dict[str, Any]]:
    """Retry entries naming one of our transient errors, in every Task (nested Parallel/Map included)."""
    entries: list[dict[str, Any]] = []
    for state in states.values():
        if state.get("Type") == "Task":
            entries += [e for e in state.get("Retry", [])
                        if set(e.get("ErrorEquals", [])) & {*TRANSIENT_ERRORS, ALL_ERRORS}]
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
