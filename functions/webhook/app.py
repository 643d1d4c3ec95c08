"""Webhook Lambda: ``/webhook/{path}`` runs the active stored workflow listening on that path.

Unauthenticated by design; the router enforces the method allowlist, the payload cap, the
execution gate and a per-path rate limit, and the public API's stage throttle bounds the rest.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers
from mangum import Mangum

from ragspine.api.app import create_app
from ragspine.api.routers import webhook
from ragspine.aws.lambda_telemetry import metrics, record_response, tracer

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)
_asgi = Mangum(create_app(routers=[webhook.router]), lifespan="off")


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Translate the API Gateway event to ASGI and back."""
    response = _asgi(event, context)
    record_response("webhook", response)
    return response
