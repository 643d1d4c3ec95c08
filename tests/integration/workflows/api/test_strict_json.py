"""Malformed JSON on the service's own routes is the caller's 400, in each route's format, never a 500.

A lone surrogate in Dify ``inputs`` (or in a question) parsed as JSON but then failed as a 500
when the run was stored or answered; a body nested a thousand deep exhausted the recursion limit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.workflow_api import WorkflowApi, build_api, echo_n8n

DEEP = "[" * 1000 + "]" * 1000
SURROGATE_INPUTS = json.dumps({"inputs": {"text": "late \udfff report"}, "user": "user-1",
                               "response_mode": "blocking"})


def _post(api: WorkflowApi, path: str, content: str, headers: dict[str, str] | None = None) -> Any:
    return api.client.post(path, content=content, headers={"Content-Type": "application/json", **(headers or {})})


@pytest.mark.parametrize("body", [SURROGATE_INPUTS, '{"inputs": {"text": ' + DEEP + '}, "user": "u"}',
                                  '{"inputs": {"text": NaN}, "user": "u"}', '{"inputs": {"\\udfff": "x"}, "user": "u"}'])
def test_dify_run_refuses_malformed_json_as_invalid_param(api: WorkflowApi, body: str) -> None:
    reply = _post(api, "/v1/workflows/run", body, api.dify())
    assert reply.status_code == 400, reply.text
    assert reply.json()["code"] == "invalid_param"
    assert api.llm.calls == []


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/search"])
@pytest.mark.parametrize("body", ['{"question": "gross margin \\udfff", "query": "x\\ud800"}',
                                  '{"question": ' + DEEP + ', "query": ' + DEEP + "}"])
def test_ask_and_search_refuse_malformed_json_in_the_envelope(api: WorkflowApi, path: str, body: str) -> None:
    reply = _post(api, path, body)
    assert reply.status_code == 400, reply.text
    error = reply.json()["meta"]["error"]
    assert error["code"] == "KNOWLEDGE_INVALID_INPUT" and error["retryable"] is False


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32", "utf-32-be"])
def test_a_body_not_in_utf8_is_refused_on_every_json_route(api: WorkflowApi, encoding: str) -> None:
    for path in ("/v1/ask", "/v1/search"):
        reply = api.client.post(path, content=json.dumps({"question": "gross margin", "query": "x"}).encode(encoding),
                                headers={"Content-Type": "application/json"})
        assert reply.status_code == 400, reply.text
        error = reply.json()["meta"]["error"]
        assert error["code"] == "KNOWLEDGE_INVALID_INPUT" and error["retryable"] is False
        assert "not UTF-8" in error["message"]
    run = json.dumps({"inputs": {"text": "x"}, "user": "u", "response_mode": "blocking"}).encode(encoding)
    reply = api.client.post("/v1/workflows/run", content=run, headers={"Content-Type": "application/json", **api.dify()})
    assert reply.status_code == 400 and reply.json()["code"] == "invalid_param", reply.text
    assert api.llm.calls == []


_TEXT = st.one_of(st.text(max_size=12), st.builds(lambda a, b: a + "\udfff" + b, st.text(max_size=5),
                                                     st.text(max_size=5)))
_VALUE = st.recursive(st.none() | st.booleans() | st.integers() | _TEXT,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
                      max_leaves=10)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(inputs=st.dictionaries(_TEXT, _VALUE, max_size=3), depth=st.integers(min_value=0, max_value=1200))
def test_fuzzed_dify_inputs_never_fail_the_server(api: WorkflowApi, inputs: dict[str, Any], depth: int) -> None:
    body = json.dumps({"inputs": {"text": "x", **inputs, "deep": "__DEEP__"}, "user": "u", "response_mode": "blocking"})
    body = body.replace('"__DEEP__"', "[" * depth + "]" * depth)
    reply = _post(api, "/v1/workflows/run", body, api.dify())
    assert reply.status_code < 500, reply.text


@pytest.fixture
def webhook(sqlite_store: SqliteWorkflowStore) -> Iterator[WorkflowApi]:
    """An active echo workflow on ``/webhook/echo``, gate open, bodies up to 1 MiB."""
    built = build_api(sqlite_store, enabled=True, max_bytes=1024 * 1024, methods=("POST",), burst=100)
    created = built.client.post("/api/v1/workflows", json=echo_n8n(path="echo", method="POST"),
                                headers=built.n8n()).json()
    built.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=built.n8n())
    yield built
    built.close()


@pytest.mark.parametrize("body", ['{"text": ' + DEEP + "}", '{"text": "late \\udfff"}', '{"\\ud800": "x"}',
                                  '{"text": NaN}'])
def test_an_unauthenticated_webhook_refuses_malformed_json_as_400(webhook: WorkflowApi, body: str) -> None:
    reply = webhook.client.post("/webhook/echo", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400, reply.text
    assert reply.json()["code"] == 400
    assert webhook.client.post("/webhook/echo", json={"text": "fine"}).json() == {"result": "fine"}


def test_an_unauthenticated_webhook_refuses_a_body_not_in_utf8(webhook: WorkflowApi) -> None:
    reply = webhook.client.post("/webhook/echo", content=json.dumps({"text": "x"}).encode("utf-16"),
                                headers={"Content-Type": "application/json"})
    assert reply.status_code == 400 and reply.json()["code"] == 400, reply.text
    bom = b"\xef\xbb\xbf" + json.dumps({"text": "fine"}).encode("utf-8")  # UTF-8 still: the mark is skipped
    assert webhook.client.post("/webhook/echo", content=bom, headers={"Content-Type": "application/json"}
                               ).json() == {"result": "fine"}


@pytest.mark.parametrize("top_k", [True, False, "5", 5.5])
def test_search_refuses_a_top_k_that_is_not_a_json_integer(api: WorkflowApi, top_k: Any) -> None:
    reply = api.client.post("/v1/search", json={"query": "revenue", "top_k": top_k})
    assert reply.status_code == 400, reply.text
    assert reply.json()["meta"]["error"]["code"] == "KNOWLEDGE_INVALID_INPUT"


@pytest.mark.parametrize("match_catalog", [1, 0, "true", "no"])
def test_scaffold_refuses_a_match_catalog_that_is_not_a_json_boolean(api: WorkflowApi, match_catalog: Any) -> None:
    reply = api.client.post("/v1/workflows/scaffold", json={"text": "Translate {{text}}", "match_catalog": match_catalog})
    assert 400 <= reply.status_code < 500 and reply.status_code != 404, reply.text
    assert "match_catalog" in reply.text
