"""Every reply carries its request id, and a crash is an opaque 500 envelope, served locally or by Lambda.

The app is the service's own (``create_app``) with one extra router whose routes answer, crash, or report
the thread their blocking work ran on; it is called through a TestClient (as uvicorn serves it) and through
Mangum with an API Gateway event (as the Lambda functions serve it).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import APIRouter, FastAPI, Request
from fastapi.testclient import TestClient
from mangum import Mangum

from ragspine.api.app import create_app
from ragspine.api.blocking import run_blocking
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.settings import Settings

router = APIRouter(route_class=StrictJsonRoute)
API_GATEWAY_REQUEST_ID = "c6af9ac6-7b61-11e6-9a41-93e812345606"  # events/ask_healthz.json


@router.get("/probe/ok")
def ok() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/probe/crash")
def crash() -> dict[str, str]:
    raise RuntimeError("the secret cause of the crash")


@router.get("/probe/thread")
async def thread(request: Request) -> dict[str, int]:
    return {"loop": threading.get_ident(), "work": await run_blocking(request, threading.get_ident)}


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(routers=[router], settings=settings)


LambdaGet = Callable[[str], tuple[int, dict[str, str], dict[str, Any]]]


@pytest.fixture
def lambda_get(app: FastAPI, load_event: Callable[[str], dict[str, Any]], lambda_context: Any) -> LambdaGet:
    """``GET path`` as API Gateway sends it to a Lambda function serving the app through Mangum."""
    def get(path: str) -> tuple[int, dict[str, str], dict[str, Any]]:
        event = {**load_event("ask_healthz"), "path": path, "resource": path}
        response = Mangum(app, lifespan="off")(event, lambda_context)
        return response["statusCode"], response["headers"], json.loads(response["body"])
    return get


def test_a_reply_carries_a_request_id_and_echoes_a_plain_one_the_client_sent(app: FastAPI) -> None:
    # GIVEN the service's app served locally
    client = TestClient(app)
    # WHEN a route answers, once without a request id and once with one
    fresh, given = client.get("/probe/ok"), client.get("/probe/ok", headers={"X-Request-Id": "req-42"})
    # THEN both answer, each reply naming its request id: a new one, and the client's own
    assert (fresh.status_code, given.status_code) == (200, 200)
    assert len(fresh.headers["X-Request-Id"]) == 32
    assert given.headers["X-Request-Id"] == "req-42"


def test_a_crash_is_an_opaque_500_envelope_naming_the_request(app: FastAPI, caplog: pytest.LogCaptureFixture) -> None:
    # GIVEN the service's app served locally, with a route that crashes
    client = TestClient(app, raise_server_exceptions=False)
    # WHEN the route is called
    reply = client.get("/probe/crash", headers={"X-Request-Id": "req-crash"})
    # THEN the caller gets a retryable 500 envelope quoting the request id, never the cause
    assert reply.status_code == 500
    assert reply.headers["X-Request-Id"] == "req-crash"
    error = reply.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_INTERNAL_ERROR" and error["retryable"] is True
    assert "req-crash" in error["message"] and "secret" not in reply.text
    # AND the cause is logged once, with the request id, for the operator
    logged = [r for r in caplog.records if r.getMessage() == "unhandled error"]
    assert len(logged) == 1 and logged[0].request_id == "req-crash"  # type: ignore[attr-defined]
    assert "the secret cause" in str(logged[0].exc_info[1] if logged[0].exc_info else "")


def test_under_lambda_a_crash_is_the_same_envelope(lambda_get: LambdaGet) -> None:
    # GIVEN the service's app served as a Lambda function serves it (Mangum, an API Gateway event)
    # WHEN a route answers and another crashes
    ok_status, ok_headers, _body = lambda_get("/probe/ok")
    status, headers, body = lambda_get("/probe/crash")
    # THEN each reply names API Gateway's request id (from the event), and the crash is the opaque 500
    assert ok_status == 200 and ok_headers["x-request-id"] == API_GATEWAY_REQUEST_ID
    assert status == 500 and body["meta"]["error"]["code"] == "KNOWLEDGE_INTERNAL_ERROR"
    assert headers["x-request-id"] == API_GATEWAY_REQUEST_ID
    assert API_GATEWAY_REQUEST_ID in body["meta"]["error"]["message"] and "secret" not in json.dumps(body)


def test_blocking_work_leaves_the_loop_of_a_server_and_runs_in_place_under_lambda(
        app: FastAPI, lambda_get: LambdaGet) -> None:
    # GIVEN a route whose blocking work goes through run_blocking
    # WHEN it is served locally (other requests share the loop) and by Lambda (Mangum: the loop serves one event)
    local = TestClient(app).get("/probe/thread").json()
    status, _headers, in_lambda = lambda_get("/probe/thread")
    # THEN locally the work ran in a worker thread, off the loop; under Lambda on the loop's own thread
    assert local["work"] != local["loop"]
    assert status == 200 and in_lambda["work"] == in_lambda["loop"]
