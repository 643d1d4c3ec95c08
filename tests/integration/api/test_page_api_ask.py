"""The Ask function answers the page API's calls: HTTP API payload 1.0 events that passed the JWT authorizer."""

from __future__ import annotations

import importlib
import json
from typing import Any

from ragspine.aws.dynamo_facts import DynamoFactStore
from ragspine.settings import Settings
from tests.conftest import FACTS_TABLE
from tests.support.samples import load_sample_facts

HOST = "p4g3a1pi.execute-api.us-east-1.amazonaws.com"


def _page_api_event(question: str) -> dict[str, Any]:
    """What the page's HTTP API sends the Ask function for ``POST /v1/ask`` (stage ``$default``, JWT claims)."""
    headers = {"Authorization": "Bearer eyJraWQiOiJleGFtcGxlIn0.e30.c2ln", "Content-Type": "application/json",
               "Host": HOST, "X-Forwarded-Proto": "https"}
    return {"version": "1.0", "resource": "/v1/ask", "path": "/v1/ask", "httpMethod": "POST", "headers": headers,
            "multiValueHeaders": {k: [v] for k, v in headers.items()}, "queryStringParameters": None,
            "multiValueQueryStringParameters": None, "pathParameters": None, "stageVariables": None,
            "requestContext": {"accountId": "123456789012", "apiId": "p4g3a1pi", "domainName": HOST,
                               "domainPrefix": "p4g3a1pi", "httpMethod": "POST", "path": "/v1/ask",
                               "protocol": "HTTP/1.1", "requestId": "Jx1-page-1", "requestTime": "04/Dec/2026:19:00:00 +0000",
                               "requestTimeEpoch": 1796410800000, "resourceId": "POST /v1/ask",
                               "resourcePath": "/v1/ask", "stage": "$default",
                               "authorizer": {"claims": {"sub": "a1b2", "client_id": "ask-page",
                                                         "iss": "https://cognito-idp.us-east-1.amazonaws.com/pool"},
                                              "scopes": ["openid", "email"]},
                               "identity": {"sourceIp": "203.0.113.10", "userAgent": "Mozilla/5.0"}},
            "body": json.dumps({"question": question}), "isBase64Encoded": False}


def test_a_page_api_call_is_answered_like_the_rest_api(aws_settings: Settings, aws: Any, lambda_context: Any) -> None:
    load_sample_facts(DynamoFactStore(FACTS_TABLE, client=aws))
    handler = importlib.import_module("functions.ask.app").handler
    response = handler(_page_api_event("What was the gross margin of ACME Japan in FY2024?"), lambda_context)
    assert response["statusCode"] == 200, response["body"]
    body = json.loads(response["body"])
    assert "36.0 PCT" in body["answer"] and (body["route"], body["status"]) == ("structured", "found")
    assert any(p["type"] == "number" and p["kind"] == "fact" for p in body["parts"])
