"""``BedrockEmbedder`` against a stubbed bedrock-runtime client: request body, parsing, errors."""

from __future__ import annotations

import io
import json
import math
import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError
from botocore.response import StreamingBody
from botocore.stub import Stubber

from ragspine.aws.bedrock_embedder import TITAN_TEXT_V2, BedrockEmbedder
from ragspine.errors import ConfigurationError, InvalidInputError
from ragspine.llm.embedder_errors import (
    EMBEDDER_THROTTLED,
    EmbedderRejectedError,
    EmbedderResponseError,
    EmbedderUnavailableError,
)
from ragspine.llm.ports import Embedder


def _body(payload: dict[str, Any]) -> StreamingBody:
    raw = json.dumps(payload).encode()
    return StreamingBody(io.BytesIO(raw), len(raw))


def _titan_reply(vector: list[float]) -> dict[str, Any]:
    return {"embedding": vector, "inputTextTokenCount": 3, "embeddingsByType": {"float": vector}}


@pytest.fixture
def stubbed(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Stubber]]:
    """A real bedrock-runtime client (fake credentials) whose calls the Stubber answers."""
    for key, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                       "AWS_DEFAULT_REGION": "us-east-1"}.items():
        monkeypatch.setenv(key, value)
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()


class FakeBedrock:
    """Answers invoke_model with a vector derived from the text; records every body."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.bodies: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def invoke_model(self, **kwargs: Any) -> dict[str, Any]:
        body = json.loads(kwargs["body"])
        with self._lock:
            self.bodies.append(body)
        vector = [0.0] * self.dimension
        vector[len(body["inputText"]) % self.dimension] = 2.0  # not unit length on purpose
        return {"body": _body(_titan_reply(vector)), "contentType": "application/json"}


class TestRequest:
    def test_the_titan_v2_request_is_exactly_this(self, stubbed: tuple[Any, Stubber]) -> None:
        # GIVEN a stubbed client expecting the exact call
        client, stubber = stubbed
        expected_body = '{"inputText": "\\u51b7\\u542f\\u52a8 cold start", "dimensions": 256, "normalize": true}'
        stubber.add_response(
            "invoke_model",
            {"body": _body(_titan_reply([0.6, 0.8] + [0.0] * 254)), "contentType": "application/json"},
            expected_params={"modelId": TITAN_TEXT_V2, "body": expected_body,
                             "contentType": "application/json", "accept": "application/json"},
        )
        # WHEN one text is embedded
        embedder: Embedder = BedrockEmbedder(dimension=256, client=client)
        (vector,) = embedder.embed(["冷启动 cold start"])
        # THEN the vector is the parsed embedding
        assert vector[:2] == pytest.approx([0.6, 0.8])
        assert len(vector) == 256

    def test_a_text_over_the_titan_limit_is_cut_to_50000_characters(self) -> None:
        body = BedrockEmbedder(client=FakeBedrock(1024)).request_body("字" * 60_000)
        assert len(body["inputText"]) == 50_000

    def test_a_blank_text_is_refused_before_any_call(self) -> None:
        fake = FakeBedrock(1024)
        with pytest.raises(InvalidInputError):
            BedrockEmbedder(client=fake).embed(["ok", "   "])
        assert fake.bodies == []

    def test_the_client_is_created_only_when_first_needed(self) -> None:
        embedder = BedrockEmbedder(region="us-east-1")
        assert not embedder._client.built
        assert embedder.embed([]) == []
        assert not embedder._client.built

    @pytest.mark.parametrize("dimension", [384, 0])
    def test_a_dimension_titan_v2_lacks_is_refused(self, dimension: int) -> None:
        with pytest.raises(ConfigurationError):
            BedrockEmbedder(dimension=dimension)


class TestResponse:
    def test_vectors_come_back_unit_length_and_in_order_when_sent_concurrently(self) -> None:
        # GIVEN a fake answering non-unit vectors whose hot index is the text length
        fake = FakeBedrock(512)
        texts = ["a" * n for n in range(1, 21)]
        # WHEN twenty texts are embedded four at a time
        vectors = BedrockEmbedder(dimension=512, client=fake, concurrency=4).embed(texts)
        # THEN each vector is unit length and belongs to its own text
        assert [v.index(1.0) for v in vectors] == list(range(1, 21))
        assert all(math.isclose(sum(x * x for x in v), 1.0) for v in vectors)
        assert len(fake.bodies) == 20

    @pytest.mark.parametrize("payload", [
        {"embedding": [1.0, 0.0]},
        {"inputTextTokenCount": 3},
        {"embedding": [0.0] * 256},
        {"embedding": ["x"] * 256},
    ])
    def test_a_reply_without_a_usable_vector_is_a_response_error(
            self, stubbed: tuple[Any, Stubber], payload: dict[str, Any]) -> None:
        client, stubber = stubbed
        stubber.add_response("invoke_model", {"body": _body(payload), "contentType": "application/json"})
        with pytest.raises(EmbedderResponseError):
            BedrockEmbedder(dimension=256, client=client).embed(["text"])


class TestErrors:
    @pytest.mark.parametrize(("code", "status", "error_type", "retryable"), [
        ("ThrottlingException", 429, EmbedderUnavailableError, True),
        ("ServiceUnavailableException", 503, EmbedderUnavailableError, True),
        ("ModelTimeoutException", 408, EmbedderUnavailableError, True),
        ("AccessDeniedException", 403, EmbedderRejectedError, False),
        ("ValidationException", 400, EmbedderRejectedError, False),
        ("ResourceNotFoundException", 404, EmbedderRejectedError, False),
    ])
    def test_sdk_errors_become_ours_with_the_cause_kept(
            self, stubbed: tuple[Any, Stubber], code: str, status: int, error_type: type[Exception],
            retryable: bool) -> None:
        # GIVEN Bedrock answering an error
        client, stubber = stubbed
        stubber.add_client_error("invoke_model", service_error_code=code, service_message="secret detail",
                                 http_status_code=status)
        # WHEN a text is embedded
        with pytest.raises(error_type) as caught:
            BedrockEmbedder(client=client).embed(["text"])
        # THEN the error is typed, names the code (never the remote text) and chains the SDK error
        error = caught.value
        assert isinstance(error, EmbedderUnavailableError)
        assert error.retryable is retryable
        assert error.code == "KNOWLEDGE_PROVIDER_UNAVAILABLE"
        assert code in error.message and "secret detail" not in error.message
        assert error.__cause__ is not None

    def test_throttling_has_its_own_reason(self, stubbed: tuple[Any, Stubber]) -> None:
        client, stubber = stubbed
        stubber.add_client_error("invoke_model", service_error_code="ThrottlingException", http_status_code=429)
        with pytest.raises(EmbedderUnavailableError) as caught:
            BedrockEmbedder(client=client).embed(["text"])
        assert caught.value.reason == EMBEDDER_THROTTLED

    def test_an_unreachable_endpoint_is_retryable(self) -> None:
        class Unreachable:
            def invoke_model(self, **kwargs: Any) -> dict[str, Any]:
                raise EndpointConnectionError(endpoint_url="https://bedrock-runtime.invalid")

        with pytest.raises(EmbedderUnavailableError) as caught:
            BedrockEmbedder(client=Unreachable()).embed(["text"])
        assert caught.value.retryable is True
