"""Worker Lambda: runs one ingestion step for the state machine (``infra/statemachine/ingest.asl.json``).

The event is the Task's payload ``{"step": ..., "operation_id": ..., "retry_count": ...}``.
Transient failures re-raise under their ASL ``ErrorEquals`` name so the state machine retries
them; permanent ones raise ``PermanentStepError`` and go to the ``Catch`` (``mark_failed``).
"""

from __future__ import annotations

import time
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers

from ragspine.aws.lambda_telemetry import metrics, record_step, tracer
from ragspine.bootstrap import build_ingest_context, current_services
from ragspine.ingestion.step_worker import handle_step

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)


@logger.inject_lambda_context(correlation_id_path="operation_id")
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Run ``event["step"]`` for ``event["operation_id"]`` and return the step's result."""
    step = str(event.get("step"))
    logger.append_keys(step=step)
    started = time.perf_counter()
    result: dict[str, Any] | None = None
    try:
        result = handle_step(event, context=build_ingest_context(current_services()))
    finally:
        # Also when the step raises: a transient error the state machine retries is counted per step.
        record_step(step, result, (time.perf_counter() - started) * 1000)
    return result
