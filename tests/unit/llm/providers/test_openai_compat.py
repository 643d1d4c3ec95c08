"""OpenAICompatibleProvider: the exact HTTP request, parsing a recorded reply, error mapping, key secrecy."""

from __future__ import annotations

import json
import logging
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.llm.chat import Message
from ragspine.llm.errors import LLMRejectedError, LLMResponseError, LLMUnavailableError
from ragspine.llm.openai_compat import OpenAICompatibleProvider
from ragspine.llm.ports import Role

API_KEY = "sk-test-3f9a7c1e5b2d4a6f8e0c"
BASE_URL = "https://llm.example.test/v1/"
MODEL = "gpt-4o-mini"
RECORDED = json.loads((Path(__file__).parent / "recorded" / "openai_chat_completion_ok.json").read_text(encoding="utf-8"))
MESSAGES = [Message(Role.SYSTEM, "Answer only from the snippets."),
            Message(Role.USER, "问题：Why did Hong Kong revenue fall?\n\n参考资料：\n[1] ..."),
            Message(Role.ASSISTANT, "…"), Message(Role.USER, "And Japan?")]

Handler = Callable[[httpx.Request], httpx.Response]


class Server:
    """A MockTransport that records every request and answers with a handler."""

    def __init__(self, handler: Handler) -> None:
        self.requests: list[httpx.Request] = []
        self._handler = handler

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self._handler(request)


def provider_for(handler: Handler, *, api_key: str | None = API_KEY, timeout_s: float = 4.0,
                 structured_output: str = "off") -> tuple[OpenAICompatibleProvider, Server]:
    server = Server(handler)
    client = httpx.Client(transport=httpx.MockTransport(server))
    return OpenAICompatibleProvider(BASE_URL, api_key, MODEL, timeout_s=timeout_s, client=client,
                                    structured_output=structured_output), server


def reply(status: int, body: Any = None, *, text: str | None = None) -> Handler:
    return lambda request: httpx.Response(status, json=body) if text is None else httpx.Response(status, text=text)


def raising(exc_type: type[httpx.TransportError]) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc_type("simulated", request=request)
    return handler


class TestRequest:
    def test_posts_chat_completions_with_bearer_key_and_json_body(self) -> None:
        provider, server = provider_for(reply(200, RECORDED), timeout_s=4.0)

        provider.complete(MESSAGES, max_tokens=256, temperature=0.1)

        (request,) = server.requests
        assert (request.method, str(request.url)) == ("POST", "https://llm.example.test/v1/chat/completions")
        assert request.headers["authorization"] == f"Bearer {API_KEY}"
        assert request.headers["content-type"] == "application/json"
        assert json.loads(request.content) == {
            "model": MODEL,
            "messages": [{"role": "system", "content": MESSAGES[0].content},
                         {"role": "user", "content": MESSAGES[1].content},
                         {"role": "assistant", "content": "…"}, {"role": "user", "content": "And Japan?"}],
            "max_tokens": 256, "temperature": 0.1}
        assert request.extensions["timeout"]["read"] == 4.0

    def test_without_a_key_no_authorization_header_is_sent(self) -> None:
        provider, server = provider_for(reply(200, RECORDED), api_key="")

        provider.complete(MESSAGES)

        assert "authorization" not in server.requests[0].headers


SCHEMA = {"type": "object", "properties": {"sentences": {"type": "array"}}, "required": ["sentences"]}


class TestStructuredOutput:
    def test_json_schema_sends_openais_response_format_with_the_schema(self) -> None:
        provider, server = provider_for(reply(200, RECORDED), structured_output="json_schema")

        provider.complete_json(MESSAGES, SCHEMA, name="cited_answer", max_tokens=300)

        body = json.loads(server.requests[0].content)
        assert body["response_format"] == {"type": "json_schema",
                                           "json_schema": {"name": "cited_answer", "strict": True, "schema": SCHEMA}}
        assert (body["max_tokens"], body["model"]) == (300, MODEL)

    def test_json_object_sends_the_schema_beside_the_type(self) -> None:
        provider, server = provider_for(reply(200, RECORDED), structured_output="json_object")

        provider.complete_json(MESSAGES, SCHEMA, name="cited_answer")

        assert json.loads(server.requests[0].content)["response_format"] == {"type": "json_object", "schema": SCHEMA}

    def test_off_sends_no_response_format(self) -> None:
        provider, server = provider_for(reply(200, RECORDED))

        completion = provider.complete_json(MESSAGES, SCHEMA, name="cited_answer")

        assert "response_format" not in json.loads(server.requests[0].content)
        assert completion.text.startswith("Hong Kong revenue fell")

    def test_plain_complete_never_sends_the_schema(self) -> None:
        provider, server = provider_for(reply(200, RECORDED), structured_output="json_schema")

        provider.complete(MESSAGES)

        assert "response_format" not in json.loads(server.requests[0].content)

    def test_a_server_refusing_response_format_is_a_rejection_naming_no_retry(self) -> None:
        provider, _ = provider_for(reply(422, {"detail": "response_format.type"}), structured_output="json_schema")

        with pytest.raises(LLMRejectedError) as caught:
            provider.complete_json(MESSAGES, SCHEMA, name="cited_answer")

        assert (caught.value.retryable, caught.value.reason) == (False, "LLM_REJECTED")

    @pytest.mark.parametrize("status", [400, 422, 500])
    def test_a_failed_structured_request_names_the_setting_to_change(self, status: int) -> None:
        provider, _ = provider_for(reply(status, {"error": "response_format.type"}), structured_output="json_schema")

        with pytest.raises(ProviderUnavailableError) as caught:
            provider.complete_json(MESSAGES, SCHEMA, name="cited_answer")

        assert "response_format json_schema" in str(caught.value)
        assert "RAGSPINE_OPENAI_STRUCTURED_OUTPUT" in str(caught.value)

    def test_a_failed_plain_request_does_not_mention_structured_output(self) -> None:
        provider, _ = provider_for(reply(500, {}), structured_output="json_schema")

        with pytest.raises(LLMUnavailableError) as caught:
            provider.complete(MESSAGES)

        assert "STRUCTURED_OUTPUT" not in str(caught.value)

    def test_an_unknown_form_is_refused_with_the_known_ones(self) -> None:
        with pytest.raises(ValueError, match="off, json_schema, json_object"):
            OpenAICompatibleProvider(BASE_URL, None, MODEL, structured_output="grammar")


class TestResponse:
    def test_recorded_reply_gives_the_text_and_the_served_model(self) -> None:
        provider, _ = provider_for(reply(200, RECORDED))

        completion = provider.complete(MESSAGES)

        assert completion.text == ("Hong Kong revenue fell 7.4% in FY2024 because inbound tourist spending weakened."
                                   "（来源：ACME_FY2024_MDA.docx heading=香港）")
        assert completion.model == "gpt-4o-mini-2024-07-18"

    @pytest.mark.parametrize("handler", [
        reply(200, text="<html>gateway</html>"), reply(200, {"choices": []}),
        reply(200, {"choices": [{"message": {"role": "assistant", "content": None, "refusal": "no"}}]}),
        reply(200, {"choices": [{"message": {"content": "  "}}]})],
        ids=["not-json", "no-choices", "null-content", "blank-content"])
    def test_a_reply_without_text_is_a_response_error(self, handler: Handler) -> None:
        provider, _ = provider_for(handler)

        with pytest.raises(LLMResponseError) as caught:
            provider.complete(MESSAGES)

        assert (caught.value.retryable, caught.value.reason) == (False, "LLM_BAD_RESPONSE")


class TestErrors:
    @pytest.mark.parametrize(("handler", "reason", "status"), [
        (raising(httpx.ReadTimeout), "LLM_TIMEOUT", None), (raising(httpx.ConnectTimeout), "LLM_TIMEOUT", None),
        (raising(httpx.ConnectError), "LLM_UNAVAILABLE", None), (reply(429, {}), "LLM_THROTTLED", 429),
        (reply(500, {}), "LLM_UNAVAILABLE", 500), (reply(503, {}), "LLM_UNAVAILABLE", 503)],
        ids=["read-timeout", "connect-timeout", "connect-error", "429", "500", "503"])
    def test_timeouts_connection_errors_429_and_5xx_are_retryable(
            self, handler: Handler, reason: str, status: int | None) -> None:
        provider, _ = provider_for(handler)

        with pytest.raises(LLMUnavailableError) as caught:
            provider.complete(MESSAGES)

        error = caught.value
        assert type(error) is LLMUnavailableError and isinstance(error, ProviderUnavailableError)
        assert (error.retryable, error.reason, error.upstream_status, error.provider) == (True, reason, status, "openai")

    @pytest.mark.parametrize("status", [400, 401, 403, 404])
    def test_other_4xx_are_not_retryable(self, status: int) -> None:
        provider, _ = provider_for(reply(status, {"error": {"message": "nope"}}))

        with pytest.raises(LLMRejectedError, match=f"HTTP {status}") as caught:
            provider.complete(MESSAGES)

        assert (caught.value.retryable, caught.value.reason, caught.value.upstream_status) == (False, "LLM_REJECTED", status)


class TestKeySecrecy:
    ECHO = {"error": {"message": f"Incorrect API key provided: {API_KEY}.", "type": "invalid_request_error",
                      "code": "invalid_api_key"}}

    @pytest.mark.parametrize("handler", [
        reply(401, ECHO), reply(500, ECHO), reply(200, ECHO), raising(httpx.ReadTimeout), raising(httpx.ConnectError)],
        ids=["401-echoing-key", "500-echoing-key", "200-without-choices", "timeout", "connect-error"])
    def test_the_key_is_never_in_errors_tracebacks_or_logs(self, handler: Handler, caplog: pytest.LogCaptureFixture) -> None:
        provider, _ = provider_for(handler)
        caplog.set_level(logging.DEBUG)

        with pytest.raises(ProviderUnavailableError) as caught:
            provider.complete(MESSAGES)

        seen = [str(caught.value), repr(caught.value), caught.value.message, repr(provider), caplog.text,
                "".join(traceback.format_exception(caught.value)),
                *(repr(getattr(record, "__dict__", {})) for record in caplog.records)]
        assert caplog.records, "the failure is logged"
        assert all(API_KEY not in text and API_KEY[3:] not in text for text in seen)


class TestClient:
    def test_the_client_is_created_on_first_use(self) -> None:
        provider = OpenAICompatibleProvider(BASE_URL, API_KEY, MODEL, timeout_s=3.0)

        client = provider.client

        assert provider.client is client and isinstance(client, httpx.Client)
        assert API_KEY not in repr(dict(client.headers))
