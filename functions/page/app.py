"""Page Lambda: the pages and their files, how they sign in (``/ui/config.json``), and the page's own API.

The page files are public (a page must load before its reader can sign in). ``/v1/ask`` goes to
the Ask function; ``/v1/evidence``, ``/v1/documents``, ``/v1/documents/facts`` and ``/v1/feedback``
come here; all of them pass the HTTP API's JWT authorizer first. Events are payload format 1.0.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools import Logger

from ragspine.api.page_api import aws_stores, handle, is_api_route
from ragspine.api.page_files import CONTENT_TYPES, PAGES, WEB_DIR, content_security_policy, static_file
from ragspine.api.page_login import page_login
from ragspine.aws.lambda_telemetry import metrics, record_response, tracer
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
    method = event.get("httpMethod", "GET")
    if is_api_route(method, path):
        return _api(event, method, path)
    if method not in ("GET", "HEAD"):
        return _not_found(path)
    try:
        login = page_login(_page_url(event))
    except ConfigurationError as exc:
        logger.error("the page's sign-in is misconfigured", extra={"error": exc.message})
        body = {"error": {"code": exc.code, "message": "the page's sign-in is not configured: see the stack's logs"}}
        return _response(500, json.dumps(body), "application/json")
    connect = (login.token_origin,) if login else ()
    if path == "/ui/config.json":
        # One response per answer on AWS; the documents page lists the corpus, the Gateway has its own API.
        config = {"login": login.as_json() if login else None, "stream": False, "gateway": False}
        return _response(200, json.dumps(config), "application/json", connect=connect)
    name = PAGES.get(path)
    found = WEB_DIR / name if name else static_file(path)
    if found is None:
        return _not_found(path)
    return _response(200, found.read_text(encoding="utf-8"), CONTENT_TYPES[found.suffix], connect=connect)


def _api(event: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """One call of the page's API (the authorizer has checked the token; its claims say the groups)."""
    claims = ((event.get("requestContext") or {}).get("authorizer") or {}).get("claims") or {}
    query = {k: v for k, v in (event.get("queryStringParameters") or {}).items() if isinstance(v, str)}
    body = event.get("body")
    if body and event.get("isBase64Encoded"):
        import base64

        body = base64.b64decode(body)  # bytes: the API reads them as strict UTF-8 (no silent replacement)
    try:
        status, payload = handle(aws_stores(), method, path, query, body, claims)
    except ConfigurationError as exc:
        logger.error("the page's API is misconfigured", extra={"error": exc.message})
        status, payload = 500, {"error": {"code": exc.code, "message": "the page's API is not configured: "
                                                                       "see the stack's logs"}}
    except Exception:  # an unexpected failure: logged with its trace, answered without its details
        request_id = (event.get("requestContext") or {}).get("requestId", "")
        logger.exception("the page's API failed", extra={"path": path, "request_id": request_id})
        message = f"internal error; quote request id {request_id} when reporting it"
        status, payload = 500, {"error": {"code": "KNOWLEDGE_INTERNAL_ERROR", "message": message}}
    return _response(status, json.dumps(payload, ensure_ascii=False), "application/json")
