"""BedrockConverseProvider: the exact Converse request, parsing a recorded reply, and error mapping.

A real ``bedrock-runtime`` client with fake credentials is stubbed by botocore's Stubber, which
also validates our request and the recorded response against the service model.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError, NoCredentialsError, ReadTimeoutError
from botocore.stub import Stubber

from ragspine.aws import boto3_client
from ragspine.aws.bedrock_llm import BedrockConverseProvider, converse_messages
from ragspine.errors import ProviderUnavailableError
from ragspine.llm.chat import Message
from ragspine.llm.errors import LLMRejectedError, LLMResponseError, LLMUnavailableError
from ragspine.llm.ports import Role

MODEL_ID = "anthropic.claude-3-5-haiku-20241022-v1:0"
RECORDED = Path(__file__).parent / "recorded"
SYSTEM = Message(Role.SYSTEM, "只根据参考资料回答。")
QUESTION = Message(Role.USER, "问题：香港收入为什么下降？\n\n参考资料：\n[1] 入境旅客消费走弱。（来源：ACME_FY2024_MDA.docx heading=香港）")


@pytest.fixture
def client() -> Any:
    return boto3.client("bedrock-runtime", region_name="us-east-1",
                        aws_access_key_id="testing", aws_secret_access_key="testing")


@pytest.fixture
def stubber(client: Any) -> Iterator[Stubber]:
    with Stubber(client) as stub:
        yield stub
        stub.assert_no_pending_responses()


def recorded() -> dict[str, Any]:
    reply: dict[str, Any] = json.loads((RECORDED / "bedrock_converse_ok.json").read_text(encoding="utf-8"))
    return reply


class RaisingClient:
    """A stand-in client for transport failures the Stubber cannot produce."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def converse(self, **_: Any) -> Any:
        raise self.exc


class TestRequest:
    def test_system_goes_to_system_and_turns_alternate(self, client: Any, stubber: Stubber) -> None:
        history = [Message(Role.ASSISTANT, "您好！"), Message(Role.USER, "日本呢？"), Message(Role.ASSISTANT, "日本毛利率下降。")]
        stubber.add_response("converse", recorded(), {
            "modelId": MODEL_ID,
            "system": [{"text": "只根据参考资料回答。"}],
            "messages": [
                {"role": "user", "content": [{"text": "日本呢？"}]},
                {"role": "assistant", "content": [{"text": "日本毛利率下降。"}]},
                {"role": "user", "content": [{"text": "补充说明"}, {"text": QUESTION.content}]},
            ],
            "inferenceConfig": {"maxTokens": 300, "temperature": 0.0},
        })

        BedrockConverseProvider(MODEL_ID, client=client).complete(
            [SYSTEM, *history, Message(Role.USER, "补充说明"), QUESTION], max_tokens=300)

    def test_without_a_system_message_no_system_field_is_sent(self, client: Any, stubber: Stubber) -> None:
        stubber.add_response("converse", recorded(), {
            "modelId": MODEL_ID, "messages": [{"role": "user", "content": [{"text": QUESTION.content}]}],
            "inferenceConfig": {"maxTokens": 800, "temperature": 0.2}})

        BedrockConverseProvider(MODEL_ID, client=client).complete([QUESTION, Message(Role.USER, "  ")], temperature=0.2)

    def test_a_conversation_without_a_user_turn_is_refused_before_any_call(self, client: Any, stubber: Stubber) -> None:
        with pytest.raises(LLMRejectedError, match="no user message") as caught:
            BedrockConverseProvider(MODEL_ID, client=client).complete([SYSTEM, Message(Role.ASSISTANT, "hi")])

        assert caught.value.retryable is False

    def test_merging_keeps_every_text_verbatim(self) -> None:
        system, turns = converse_messages([SYSTEM, SYSTEM, QUESTION, QUESTION])

        assert system == [{"text": SYSTEM.content}, {"text": SYSTEM.content}]
        assert turns == [{"role": "user", "content": [{"text": QUESTION.content}, {"text": QUESTION.content}]}]


class TestResponse:
    def test_recorded_reply_text_blocks_are_joined(self, client: Any, stubber: Stubber) -> None:
        stubber.add_response("converse", recorded())

        completion = BedrockConverseProvider(MODEL_ID, client=client).complete([SYSTEM, QUESTION])

        assert completion.model == MODEL_ID
        assert completion.text == ("香港2024财年收入下降7.4%，主要因为入境旅客消费走弱。（来源：ACME_FY2024_MDA.docx heading=香港）"
                                   "\n广东道三家门店关闭。（来源：ACME_FY2024_MDA.docx heading=香港）")

    def test_a_reply_without_text_is_a_response_error(self, client: Any, stubber: Stubber) -> None:
        reply = recorded() | {"stopReason": "content_filtered"}
        reply["output"] = {"message": {"role": "assistant", "content": []}}
        stubber.add_response("converse", reply)

        with pytest.raises(LLMResponseError, match="content_filtered") as caught:
            BedrockConverseProvider(MODEL_ID, client=client).complete([QUESTION])

        assert (caught.value.reason, caught.value.retryable) == ("LLM_BAD_RESPONSE", False)


class TestErrors:
    @pytest.mark.parametrize(("code", "status", "reason"), [
        ("ThrottlingException", 429, "LLM_THROTTLED"),
        ("ModelTimeoutException", 408, "LLM_TIMEOUT"),
        ("ModelNotReadyException", 429, "LLM_UNAVAILABLE"),
        ("InternalServerException", 500, "LLM_UNAVAILABLE"),
        ("ServiceUnavailableException", 503, "LLM_UNAVAILABLE"),
        ("SomethingNewException", 502, "LLM_UNAVAILABLE"),
    ])
    def test_throttling_timeouts_and_service_errors_are_retryable(
            self, client: Any, stubber: Stubber, code: str, status: int, reason: str) -> None:
        stubber.add_client_error("converse", service_error_code=code, http_status_code=status,
                                 service_message="echo of the prompt: 香港收入")

        with pytest.raises(LLMUnavailableError) as caught:
            BedrockConverseProvider(MODEL_ID, client=client).complete([QUESTION])

        error = caught.value
        assert type(error) is LLMUnavailableError and isinstance(error, ProviderUnavailableError)
        assert (error.retryable, error.reason, error.upstream_status, error.provider) == (True, reason, status, "bedrock")
        assert error.code == "KNOWLEDGE_PROVIDER_UNAVAILABLE"
        assert code in error.message and "香港收入" not in error.message

    @pytest.mark.parametrize(("code", "status"), [
        ("ValidationException", 400), ("AccessDeniedException", 403), ("ResourceNotFoundException", 404),
        ("SomethingNewException", 400)])
    def test_validation_and_access_errors_are_not_retryable(
            self, client: Any, stubber: Stubber, code: str, status: int) -> None:
        stubber.add_client_error("converse", service_error_code=code, http_status_code=status,
                                 service_message="echo of the prompt: 香港收入")

        with pytest.raises(LLMRejectedError) as caught:
            BedrockConverseProvider(MODEL_ID, client=client).complete([QUESTION])

        assert (caught.value.retryable, caught.value.reason) == (False, "LLM_REJECTED")
        assert isinstance(caught.value, ProviderUnavailableError)
        assert "香港收入" not in caught.value.message

    def test_a_read_timeout_is_a_retryable_timeout(self) -> None:
        client: Any = RaisingClient(ReadTimeoutError(endpoint_url="https://bedrock-runtime.us-east-1.amazonaws.com"))

        with pytest.raises(LLMUnavailableError, match="timed out") as caught:
            BedrockConverseProvider(MODEL_ID, client=client).complete([QUESTION])

        assert (caught.value.retryable, caught.value.reason) == (True, "LLM_TIMEOUT")

    def test_an_unreachable_endpoint_is_retryable(self) -> None:
        client: Any = RaisingClient(EndpointConnectionError(endpoint_url="https://bedrock-runtime.example"))

        with pytest.raises(LLMUnavailableError) as caught:
            BedrockConverseProvider(MODEL_ID, client=client).complete([QUESTION])

        assert (caught.value.retryable, caught.value.reason) == (True, "LLM_UNAVAILABLE")

    def test_missing_credentials_are_not_retryable(self) -> None:
        client: Any = RaisingClient(NoCredentialsError())

        with pytest.raises(LLMRejectedError, match="NoCredentialsError") as caught:
            BedrockConverseProvider(MODEL_ID, client=client).complete([QUESTION])

        assert caught.value.retryable is False


class TestClient:
    def test_the_client_is_created_on_first_use_with_region_and_timeout(self, monkeypatch: pytest.MonkeyPatch) -> None:
        made: list[dict[str, Any]] = []
        real: Any = boto3_client.new_client

        def recording_client(*args: Any, **kwargs: Any) -> Any:
            made.append(kwargs)
            return real(*args, **kwargs)

        monkeypatch.setattr(boto3_client, "new_client", recording_client)
        provider = BedrockConverseProvider(MODEL_ID, region="eu-central-1", timeout_s=7.5)
        assert made == []

        client = provider.client

        config: Any = client.meta.config
        assert provider.client is client and len(made) == 1
        assert client.meta.region_name == "eu-central-1"
        assert config.read_timeout == 7.5
