"""Workflow Lambda: the ordinary workflow routes, the catalog, and the Dify- and n8n-compatible APIs.

The ordinary routes (compile, preview, analyze, convert, scaffold, catalog) sit on the
IAM-authorised API; the Dify (Bearer app key) and n8n (X-N8N-API-KEY) routes on the public
API, where the application checks the keys. Execution stays behind RAGSPINE_DIFY_RUN_ENABLED.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers
from mangum import Mangum

from ragspine.api.app import create_app
from ragspine.api.routers import dify, n8n, n8n_executions, workflows
from ragspine.aws.lambda_telemetry import metrics, record_response, tracer
from ragspine.bootstrap import load_api_key_pepper
from ragspine.settings import get_settings

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)
# The API key pepper is read at cold start (a missing secret stops the function here, named in the log);
# building the app is cheap; the store, catalog and executor are built on the first request.
load_api_key_pepper(get_settings())
_asgi = Mangum(create_app(routers=[workflows.router, dify.router, n8n.router, n8n_executions.router]),
               lifespan="off")


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Translate the API Gateway event to ASGI and back."""
    response = _asgi(event, context)
    record_response("workflow", response)
    return response
