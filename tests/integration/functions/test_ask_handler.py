"""The Ask Lambda handler answers the sample API Gateway events in events/ (as sam local invoke would)."""

from __future__ import annotations

import asyncio
import importlib
import io
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest

from ragspine.aws.dynamo_facts import DynamoFactStore
from ragspine.settings import Settings
from tests.conftest import FACTS_TABLE
from tests.support.samples import load_sample_facts

Invoke = Callable[[str], tuple[int, dict[str, Any], dict[str, str]]]


@pytest.fixture
def invoke(aws_settings: Settings, aws: Any, load_event, lambda_context) -> Invoke:
    """Call the handler with a named event against a moto table holding the sample facts."""
    load_sample_facts(DynamoFactStore(FACTS_TABLE, client=aws))
    module = importlib.import_module("functions.ask.app")

    def call(name: str) -> tuple[int, dict[str, Any], dict[str, str]]:
        response = module.handler(load_event(name), lambda_context)
        headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        return response["statusCode"], json.loads(response["body"]), headers

    return call


def test_found_event_answers_36_0_with_its_locator(invoke: Invoke) -> None:
    status, body, _ = invoke("ask_found")
    assert status == 200
    assert "36.0 PCT" in body["answer"]
    assert body["sources"] == [{"doc": "ACME_FY2024_Review.pptx", "locator": "slide=4,table=1,row=GROSS_MARGIN,col=FY2024"}]
    assert (body["route"], body["status"]) == ("structured", "found")
    assert body["slots"] == {"metric": ["GROSS_MARGIN"], "entity": ["ACME_JP"], "period": ["FY2024"],
                             "channel": ["TOTAL"]}


def test_an_asyncio_run_leaves_this_process_without_an_event_loop(invoke: Invoke) -> None:
    """The premise of the next test: the handler module is loaded, then a run of a loop leaves none set."""
    assert invoke("ask_found")[0] == 200
    asyncio.run(asyncio.sleep(0))
    with pytest.raises(RuntimeError, match="no current event loop"):
        asyncio.get_event_loop_policy().get_event_loop()


def test_the_next_invocation_after_a_run_elsewhere_still_answers(invoke: Invoke) -> None:
    """A handler test never depends on which tests the same process ran before it (a Lambda process is fresh)."""
    status, body, _ = invoke("ask_seed_example")
    assert status == 200 and "1320 USD_M" in body["answer"]


def test_seed_example_event_answers_1320(invoke: Invoke) -> None:
    status, body, _ = invoke("ask_seed_example")
    assert status == 200 and "1320 USD_M" in body["answer"]
    assert body["results"][0]["source"] == {"doc": "ACME_FY2024_Review.pptx",
                                            "locator": "slide=2,table=1,row=REVENUE,col=FY2024"}


def test_not_found_event_answers_honestly_with_200(invoke: Invoke) -> None:
    status, body, _ = invoke("ask_not_found")
    assert status == 200
    assert body["status"] == "not_found" and body["sources"] == []
    assert body["results"] == [{"status": "not_found", "normalized": {
        "metric_code": "REVENUE", "entity": "ACME_JP", "period": "2030", "channel": "TOTAL"}}]


@pytest.mark.parametrize(("event", "field"), [("ask_invalid_json", "body"), ("ask_empty_question", "question")])
def test_bad_requests_get_a_400_envelope_not_a_500(invoke: Invoke, event: str, field: str) -> None:
    status, body, headers = invoke(event)
    assert status == 400
    assert body["data"] is None
    error = body["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_INVALID_INPUT" and error["retryable"] is False
    assert [f["field"] for f in error["fieldErrors"]] == [field]
    assert body["meta"]["requestId"] == headers["x-request-id"]  # the API Gateway request id


def test_healthz_event_reports_the_aws_backend(invoke: Invoke) -> None:
    status, body, _ = invoke("ask_healthz")
    assert status == 200 and body["backend"] == "aws" and body["status"] == "ok"


def test_engine_logs_are_structured_json_with_the_correlation_id(invoke: Invoke, load_event) -> None:
    # The handler copied its Powertools config onto the engine loggers at import: read what they write.
    buffer = io.StringIO()
    handlers = [h for h in logging.getLogger("ragspine").handlers
                if isinstance(h, logging.StreamHandler)]
    assert handlers, "the engine logger did not get the Powertools handler"
    previous = [h.setStream(buffer) for h in handlers]
    try:
        invoke("ask_found")
    finally:
        for handler, stream in zip(handlers, previous, strict=False):
            handler.setStream(stream)
    lines = [json.loads(line) for line in buffer.getvalue().splitlines() if line.startswith("{")]
    answered = [line for line in lines if line.get("message") == "question answered"]
    assert answered, lines
    request_id = load_event("ask_found")["requestContext"]["requestId"]
    assert answered[-1]["correlation_id"] == request_id
    assert answered[-1]["status"] == "found"
    assert "毛利率" not in json.dumps(answered[-1], ensure_ascii=False)  # the question text is never logged
