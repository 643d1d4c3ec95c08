"""Knowledge Gateway Lambda: ``/internal/v1/knowledge/**`` on its own API, authenticated by the app.

The plugin authenticates with a service token and a user assertion (seed 003), not IAM: the
Gateway router checks both on every request, validates against the contract, and audits.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers
from mangum import Mangum

from ragspine.api.app import create_app
from ragspine.api.routers import knowledge
from ragspine.aws.lambda_telemetry import metrics, record_response, tracer
from ragspine.bootstrap import load_gateway_secrets
from ragspine.settings import get_settings

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)
# Building the app reads settings only; the table, S3 and the state machine are reached on the first request.
_settings = get_settings()
# The Gateway's secret (assertion keys, token records, URL-signing key) is read at cold start: a missing or
# unreadable secret stops the function here with a message naming it. Powertools caches the value.
load_gateway_secrets(_settings)
_app = create_app(routers=[])
knowledge.install(_app, _settings)
_asgi = Mangum(_app, lifespan="off")


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Translate the API Gateway event to ASGI and back."""
    response = _asgi(event, context)
    record_response("knowledge", response)
    return response
