"""Page Lambda: the ask page and its files, and how it signs in (``/ui/config.json``), behind the page's HTTP API.

The API's routes to ``/v1/ask`` go to the Ask function through a JWT authorizer; these routes
are public (the page must load before its reader can sign in). Events are payload format 1.0.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Logger

from ragspine.api.lambda_telemetry import metrics, record_response, tracer
from ragspine.api.page_files import CONTENT_TYPES, PAGES, WEB_DIR, content_security_policy, static_file
from ragspine.api.page_login import page_login
from ragspine.errors import ConfigurationError

logger = Logger()


def _response(status: int, body: str, content_type: str, *, connect: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"statusCode": status, "body": body, "isBase64Encoded": False,
            "headers": {"Content-Type": content_type, "Cache-Control": "no-cache",
                        "Content-Security-Policy": content_security_policy(connect),
                        "X-Content-Type-Options": "nosniff"}}


def _not_found(path: str) -> dict[str, Any]:
    body = {"error": {"code": "NOT_FOUND", "message": f"no page file at {path}: the page lives at / and /ui/"}}
    return _response(404, json.dumps(body), "application/json")


def _page_url(event: dict[str, Any]) -> str:
    """The page's own URL, the redirect URI of its sign-in (API Gateway says the scheme it was reached by)."""
    headers = {k.lower(): v for k, v in (event.get("headers") or {}).items()}
    scheme = "http" if headers.get("x-forwarded-proto") == "http" else "https"
    return f"{scheme}://{headers.get('host', '')}/"


@logger.inject_lambda_context
@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Serve ``/`` (the ask page), ``/ui/config.json`` (its sign-in) and ``/ui/*`` (its files)."""
    response = _serve(event)
    record_response("page", response)
    return response


def _serve(event: dict[str, Any]) -> dict[str, Any]:
    path = event.get("path") or "/"
    if event.get("httpMethod", "GET") not in ("GET", "HEAD"):
        return _not_found(path)
    try:
        login = page_login(_page_url(event))
    except ConfigurationError as exc:
        logger.error("the page's sign-in is misconfigured", extra={"error": exc.message})
        body = {"error": {"code": exc.code, "message": "the page's sign-in is not configured: see the stack's logs"}}
        return _response(500, json.dumps(body), "application/json")
    connect = (login.token_origin,) if login else ()
    if path == "/ui/config.json":
        config = {"login": login.as_json() if login else None, "stream": False}  # one response per answer on AWS
        return _response(200, json.dumps(config), "application/json", connect=connect)
    name = PAGES.get(path)
    found = WEB_DIR / name if name else static_file(path)
    if found is None:
        return _not_found(path)
    return _response(200, found.read_text(encoding="utf-8"), CONTENT_TYPES[found.suffix], connect=connect)
