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
from ragspine.settings import get_settings

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)
# Building the app reads settings only; the table, S3 and the state machine are reached on the first request.
_app = create_app(routers=[])
knowledge.install(_app, get_settings())
_asgi = Mangum(_app, lifespan="off")


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Translate the API Gateway event to ASGI and back."""
    return _asgi(event, context)
