"""Worker Lambda: runs one ingestion step for the state machine (``infra/statemachine/ingest.asl.json``).

The event is the Task's payload ``{"step": ..., "operation_id": ..., "retry_count": ...}``.
Transient failures re-raise under their ASL ``ErrorEquals`` name so the state machine retries
them; permanent ones raise ``PermanentStepError`` and go to the ``Catch`` (``mark_failed``).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers

from ragspine.bootstrap import build_ingest_context, get_services
from ragspine.ingestion.step_worker import handle_step

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)


@logger.inject_lambda_context(correlation_id_path="operation_id")
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Run ``event["step"]`` for ``event["operation_id"]`` and return the step's result."""
    logger.append_keys(step=event.get("step"))
    return handle_step(event, context=build_ingest_context(get_services()))
