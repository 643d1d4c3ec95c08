"""What the Lambda handlers record for an operator: X-Ray traces (Powertools Tracer) and EMF metrics.

Metrics go to CloudWatch as Embedded Metric Format lines on standard output (namespace
``RAGSpine``), one ``single_metric`` per figure that carries its own dimension, so a dimension's
few values (route, step, outcome) stay separate series. Codes and counts only: never question
text, answers or document content.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aws_lambda_powertools import Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit, single_metric

NAMESPACE = "RAGSpine"
# botocore only: the AWS calls are what a trace should show; patching every library costs cold start.
tracer = Tracer(patch_modules=("botocore",))
metrics = Metrics(namespace=NAMESPACE)


def _one(name: str, value: float, unit: MetricUnit, dimension: tuple[str, str]) -> None:
    """One metric with its own dimension, flushed at once."""
    with single_metric(name=name, unit=unit, value=value, namespace=NAMESPACE) as metric:
        metric.add_dimension(name=dimension[0], value=dimension[1])


def record_response(function: str, response: Mapping[str, Any]) -> None:
    """Count one HTTP invocation of ``function`` and, when it failed on our side, one server error."""
    metrics.add_metric(name="Requests", unit=MetricUnit.Count, value=1)
    if int(response.get("statusCode", 500)) >= 500:
        metrics.add_metric(name="ServerErrors", unit=MetricUnit.Count, value=1)
    metrics.add_metadata(key="function", value=function)


def record_answer(event: Mapping[str, Any], response: Mapping[str, Any]) -> None:
    """``Questions`` per answering route, and ``Refusals`` per reason, from a ``POST /v1/ask`` response."""
    if event.get("resource") != "/v1/ask" or response.get("statusCode") != 200:
        return
    try:
        body = json.loads(response.get("body") or "{}")
    except ValueError:
        return
    route = str(body.get("route") or "unknown")
    _one("Questions", 1, MetricUnit.Count, ("route", route))
    if route == "refused":
        _one("Refusals", 1, MetricUnit.Count, ("reason", str(body.get("refusal_reason") or "unknown")))


def record_submissions(created: int, replayed: int) -> None:
    """Operations the S3 trigger created, and events that found an existing one (replays)."""
    metrics.add_metric(name="IngestionSubmitted", unit=MetricUnit.Count, value=created)
    metrics.add_metric(name="IngestionReplayed", unit=MetricUnit.Count, value=replayed)


def record_step(step: str, result: Mapping[str, Any] | None, elapsed_ms: float) -> None:
    """One worker step: its duration per step, and the operation's outcome when the step ended it.

    ``result`` is None when the step raised (a transient error the state machine retries).
    """
    metrics.add_metric(name="IngestionSteps", unit=MetricUnit.Count, value=1)
    _one("IngestionStepDuration", elapsed_ms, MetricUnit.Milliseconds, ("step", step))
    outcome = (result or {}).get("outcome")
    if result is None:
        _one("IngestionStepErrors", 1, MetricUnit.Count, ("step", step))
    elif step == "mark_failed" or outcome == "failed":
        _one("IngestionOutcomes", 1, MetricUnit.Count, ("outcome", "failed"))
    elif outcome == "cancelled":
        _one("IngestionOutcomes", 1, MetricUnit.Count, ("outcome", "cancelled"))
    elif step == "activate" and outcome == "ok":
        _one("IngestionOutcomes", 1, MetricUnit.Count, ("outcome", "succeeded"))
