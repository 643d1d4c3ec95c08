"""Ask Lambda: ``POST /v1/ask`` and ``GET /healthz`` through the shared FastAPI routers."""

# ruff: noqa: E402 (the collector is held, re's cache warmed and pydantic.v1 declared absent before the imports below)
from __future__ import annotations

from ragspine.startup_heap import hold_collections, release_collections

# Until the first request ends, no collection walks what the cold start builds (ragspine.startup_heap).
hold_collections()

from ragspine.pydantic_v1_absent import declare_pydantic_v1_absent, in_lambda
from ragspine.regex_programs import warm_regex_cache

# The engine's patterns a first ask reads, built from their kept programs instead of compiled (ragspine.regex_programs).
warm_regex_cache()
if in_lambda():  # FastAPI's pydantic-1 check answered without importing pydantic.v1 (ragspine.pydantic_v1_absent)
    declare_pydantic_v1_absent()

from typing import Any, cast

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers
from mangum import Mangum

from ragspine.api.app import create_app
from ragspine.api.routers import ask, health
from ragspine.aws.lambda_telemetry import metrics, record_answer, record_response, tracer
from ragspine.aws.snapstart import register_before_snapshot
from ragspine.priming import prime_first_answer

logger = Logger()
copy_config_to_registered_loggers(source_logger=logger)
# Building the app is cheap; adapters (DynamoDB client, glossary) are built on the first request. FastAPI
# prepares a router's routes when a request first reaches it: the ask router first, so no ask prepares /healthz.
_asgi = Mangum(create_app(routers=[ask.router, health.router]), lifespan="off")
# GET /healthz as API Gateway sends it: it reads no backing store.
_HEALTHZ_EVENT: dict[str, Any] = {
    "resource": "/healthz", "path": "/healthz", "httpMethod": "GET", "headers": {}, "multiValueHeaders": {},
    "queryStringParameters": None, "multiValueQueryStringParameters": None, "pathParameters": None,
    "stageVariables": None, "body": None, "isBase64Encoded": False,
    "requestContext": {"resourcePath": "/healthz", "httpMethod": "GET", "path": "/prod/healthz", "stage": "prod",
                       "requestId": "before-snapshot", "identity": {"sourceIp": "127.0.0.1"}},
}


def prime_before_snapshot() -> None:
    """With SnapStart, run before the snapshot: a request through the app (FastAPI, Mangum and the thread
    pool they start), then the Q&A engine on the shipped domain (``ragspine.priming``); no network."""
    _asgi(_HEALTHZ_EVENT, cast(Any, None))  # no invocation, so no context: the route reads none
    prime_first_answer()
    release_collections()  # the snapshot holds the frozen heap: no restored process walks it


register_before_snapshot(prime_before_snapshot)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST)
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Translate the API Gateway event to ASGI and back."""
    try:
        response = _asgi(event, context)
        record_response("ask", response)
        record_answer(event, response)
    finally:
        release_collections()
    return response
