"""``BedrockEmbedder``: text embeddings from Amazon Bedrock ``InvokeModel`` (Titan Text Embeddings V2).

Titan V2 takes one text per call::

    request  {"inputText": str, "dimensions": 256 | 512 | 1024, "normalize": bool}
    response {"embedding": [float, ...], "inputTextTokenCount": int, "embeddingsByType": {...}}

and accepts a non-empty text of at most 8,192 tokens or 50,000 characters. Texts are sent
concurrently (boto3 clients are thread-safe) and the vectors are L2-normalised here as well,
so the port's unit-length promise holds whatever the model returns.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import LazyClient
from ragspine.errors import ConfigurationError, InvalidInputError
from ragspine.llm.embedder_errors import (
    EMBEDDER_THROTTLED,
    EmbedderRejectedError,
    EmbedderResponseError,
    EmbedderUnavailableError,
)

if TYPE_CHECKING:
    from botocore.exceptions import ClientError
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient

TITAN_TEXT_V2 = "amazon.titan-embed-text-v2:0"
TITAN_V2_DIMENSIONS = (256, 512, 1024)
TITAN_V2_MAX_CHARS = 50_000
# Error codes for which a retry cannot help: the request or the caller's access is wrong.
_REJECTED = frozenset({"AccessDeniedException", "ValidationException", "ResourceNotFoundException",
                       "UnrecognizedClientException"})
_THROTTLED = frozenset({"ThrottlingException", "ServiceQuotaExceededException", "TooManyRequestsException"})


class BedrockEmbedder:
    """Unit-length vectors from a Bedrock embedding model; Titan Text Embeddings V2 by default."""

    def __init__(self, model_id: str = TITAN_TEXT_V2, *, dimension: int = 1024,
                 client: BedrockRuntimeClient | None = None, region: str | None = None,
                 endpoint_url: str | None = None, concurrency: int = 4) -> None:
        """Describe the embedder; the boto3 client is created on first use unless one is given.

        Args:
            model_id: the Bedrock model id (or inference profile) of a Titan V2-compatible model.
            dimension: vector size asked of the model (Titan V2: 256, 512 or 1024).
            client: a ``bedrock-runtime`` client (tests inject a stubbed or fake one).
            region: region for the client created here.
            endpoint_url: endpoint for the client created here (VPC endpoint, tests).
            concurrency: texts in flight at once during ``embed``.

        Raises:
            ConfigurationError: a dimension Titan V2 does not offer, or a concurrency below 1.
        """
        if model_id.startswith("amazon.titan-embed-text-v2") and dimension not in TITAN_V2_DIMENSIONS:
            raise ConfigurationError(
                f"Titan Text Embeddings V2 offers dimensions {TITAN_V2_DIMENSIONS}, not {dimension}")
        if concurrency < 1:
            raise ConfigurationError("concurrency must be positive")
        self.name = f"bedrock:{model_id}:{dimension}"
        self.dimension = dimension
        self.model_id = model_id
        self._client: LazyClient[BedrockRuntimeClient] = LazyClient(
            "bedrock-runtime", client=client, region=region, endpoint_url=endpoint_url,
            config={"retries": {"mode": "standard", "max_attempts": 3}, "connect_timeout": 5, "read_timeout": 30})
        self._concurrency = concurrency

    @property
    def client(self) -> BedrockRuntimeClient:
        """The boto3 client, created on first use so importing and building cost nothing."""
        return self._client.get()

    def request_body(self, text: str) -> dict[str, Any]:
        """The JSON body sent for one text.

        Raises:
            InvalidInputError: the text is empty or blank (Titan V2 refuses those).
        """
        if not text.strip():
            raise InvalidInputError("cannot embed an empty text")
        # Titan V2 refuses longer input; cutting at its limit mirrors the local embedders' truncation.
        return {"inputText": text[:TITAN_V2_MAX_CHARS], "dimensions": self.dimension, "normalize": True}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order.

        Raises:
            InvalidInputError: a text is empty or blank.
            EmbedderUnavailableError: Bedrock could not be reached, timed out or throttled (retryable).
            EmbedderRejectedError: Bedrock refused the request (access, model id, validation).
            EmbedderResponseError: a reply without a vector of ``dimension`` numbers.
        """
        bodies = [json.dumps(self.request_body(text)) for text in texts]
        if len(bodies) <= 1 or self._concurrency == 1:
            return [self._embed_one(body) for body in bodies]
        client = self.client  # create it once, before the worker threads race to
        with ThreadPoolExecutor(max_workers=min(self._concurrency, len(bodies))) as pool:
            return list(pool.map(lambda body: self._embed_one(body, client), bodies))

    def _embed_one(self, body: str, client: BedrockRuntimeClient | None = None) -> list[float]:
        try:
            response = (client or self.client).invoke_model(
                modelId=self.model_id, body=body, contentType="application/json", accept="application/json")
            payload = json.loads(response["body"].read())
        except ClientError as exc:
            raise _client_error(exc, self.model_id) from exc
        except BotoCoreError as exc:
            raise EmbedderUnavailableError(f"Bedrock embedding model {self.model_id} could not be reached") from exc
        except ValueError as exc:  # json.JSONDecodeError
            raise EmbedderResponseError(f"Bedrock embedding model {self.model_id} returned invalid JSON") from exc
        return _unit_vector(payload, self.dimension, self.model_id)


def _client_error(exc: ClientError, model_id: str) -> EmbedderUnavailableError:
    code = str(exc.response.get("Error", {}).get("Code", "ClientError"))
    message = f"Bedrock embedding model {model_id} failed ({code})"
    if code in _REJECTED:
        return EmbedderRejectedError(message)
    if code in _THROTTLED:
        return EmbedderUnavailableError(message, reason=EMBEDDER_THROTTLED)
    return EmbedderUnavailableError(message)


def _unit_vector(payload: Any, dimension: int, model_id: str) -> list[float]:
    embedding = payload.get("embedding") if isinstance(payload, dict) else None
    if not isinstance(embedding, list) or len(embedding) != dimension:
        raise EmbedderResponseError(f"Bedrock embedding model {model_id} returned no {dimension}-number embedding")
    try:
        values = [float(value) for value in embedding]
    except (TypeError, ValueError) as exc:
        raise EmbedderResponseError(f"Bedrock embedding model {model_id} returned a non-numeric embedding") from exc
    norm = math.sqrt(sum(value * value for value in values))
    if not math.isfinite(norm) or norm == 0.0:
        raise EmbedderResponseError(f"Bedrock embedding model {model_id} returned a zero or non-finite embedding")
    return [value / norm for value in values]
