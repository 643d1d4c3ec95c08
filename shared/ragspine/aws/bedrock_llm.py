"""``BedrockConverseProvider``: the LLMProvider port on Amazon Bedrock's Converse API (boto3)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from botocore.exceptions import (
    BotoCoreError,
    ClientError,
    ConnectTimeoutError,
    NoCredentialsError,
    NoRegionError,
    PartialCredentialsError,
    ReadTimeoutError,
)

from ragspine.aws.boto3_client import LazyClient
from ragspine.llm.chat import Completion, Message
from ragspine.llm.errors import (
    LLM_REJECTED,
    LLM_THROTTLED,
    LLM_TIMEOUT,
    LLM_UNAVAILABLE,
    LLMRejectedError,
    LLMResponseError,
    LLMUnavailableError,
)
from ragspine.llm.ports import Role

if TYPE_CHECKING:
    from mypy_boto3_bedrock_runtime import BedrockRuntimeClient
    from mypy_boto3_bedrock_runtime.literals import ConversationRoleType
    from mypy_boto3_bedrock_runtime.type_defs import (
        ConverseResponseTypeDef,
        MessageTypeDef,
        SystemContentBlockTypeDef,
    )

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 30.0
_CONNECT_TIMEOUT_S = 5.0
_MAX_ATTEMPTS = 2  # botocore's standard retry once; the caller's Retry (ASL) owns longer back-off

# Converse error codes (botocore's bedrock-runtime model) -> (retryable?, reason).
_CLIENT_ERRORS = {
    "ThrottlingException": (True, LLM_THROTTLED),
    "ServiceQuotaExceededException": (True, LLM_THROTTLED),
    "ModelNotReadyException": (True, LLM_UNAVAILABLE),
    "ModelTimeoutException": (True, LLM_TIMEOUT),
    "InternalServerException": (True, LLM_UNAVAILABLE),
    "ServiceUnavailableException": (True, LLM_UNAVAILABLE),
    "ModelErrorException": (True, LLM_UNAVAILABLE),
    "ValidationException": (False, LLM_REJECTED),
    "AccessDeniedException": (False, LLM_REJECTED),
    "ResourceNotFoundException": (False, LLM_REJECTED),
    "UnrecognizedClientException": (False, LLM_REJECTED),
    "ExpiredTokenException": (False, LLM_REJECTED),
}


class BedrockConverseProvider:
    """A Bedrock model called through ``bedrock-runtime`` ``converse``."""

    name = "bedrock"

    def __init__(self, model_id: str, *, client: BedrockRuntimeClient | None = None, region: str | None = None,
                 timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        """Configure the adapter; no client is created until the first call.

        Args:
            model_id: a Bedrock model id, inference-profile id or ARN.
            client: a ready ``bedrock-runtime`` client (tests); its own timeouts then apply.
            region: the AWS region of the client created on first use.
            timeout_s: read timeout of the client created on first use.
        """
        self.model_id = model_id
        config = {"read_timeout": timeout_s, "connect_timeout": min(_CONNECT_TIMEOUT_S, timeout_s),
                  "retries": {"mode": "standard", "total_max_attempts": _MAX_ATTEMPTS}}
        self._client: LazyClient[BedrockRuntimeClient] = LazyClient("bedrock-runtime", client=client, region=region,
                                                                    config=config)

    @property
    def client(self) -> BedrockRuntimeClient:
        """The boto3 client, created on first use so importing and cold starts cost nothing."""
        return self._client.get()

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """Send the conversation to ``converse`` and return the text of the reply.

        Args:
            messages: system messages become ``system``; the others, merged by role, ``messages``.
            max_tokens: ``inferenceConfig.maxTokens``.
            temperature: ``inferenceConfig.temperature``.

        Returns:
            The concatenated text blocks of ``output.message`` and the model id.

        Raises:
            LLMUnavailableError: throttling, a timeout or a Bedrock-side failure (retryable).
            LLMRejectedError: validation, access or model-id errors, missing credentials, or no user turn.
            LLMResponseError: the reply holds no text.
        """
        system, turns = converse_messages(messages)
        if not turns:
            raise LLMRejectedError("the Bedrock request has no user message", provider=self.name)
        request: dict[str, Any] = {"modelId": self.model_id, "messages": turns,
                                   "inferenceConfig": {"maxTokens": max_tokens, "temperature": temperature}}
        if system:
            request["system"] = system
        response = self._converse(request)
        message = response.get("output", {}).get("message", {})
        text = "".join(block.get("text", "") for block in message.get("content", []))
        usage = response.get("usage", {})
        logger.debug("bedrock converse done", extra={
            "llm_model": self.model_id, "stop_reason": response.get("stopReason"),
            "input_tokens": usage.get("inputTokens"), "output_tokens": usage.get("outputTokens")})
        if not text.strip():
            raise LLMResponseError(f"Bedrock model {self.model_id} returned no text "
                                   f"(stopReason={response.get('stopReason')})", provider=self.name)
        return Completion(text, self.model_id)

    def _converse(self, request: dict[str, Any]) -> ConverseResponseTypeDef:
        try:
            return self.client.converse(**request)
        except ClientError as exc:
            code = str(exc.response.get("Error", {}).get("Code", "ClientError"))
            status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
            retryable, reason = _CLIENT_ERRORS.get(code) or _by_status(status)
            error = LLMUnavailableError if retryable else LLMRejectedError
            raise self._fail(error, f"Bedrock model {self.model_id} failed ({code})", reason, status) from exc
        except (ReadTimeoutError, ConnectTimeoutError) as exc:
            raise self._fail(LLMUnavailableError, f"Bedrock model {self.model_id} timed out", LLM_TIMEOUT) from exc
        except (NoCredentialsError, PartialCredentialsError, NoRegionError) as exc:
            raise self._fail(LLMRejectedError, f"Bedrock is not configured ({type(exc).__name__})",
                             LLM_REJECTED) from exc
        except BotoCoreError as exc:
            raise self._fail(LLMUnavailableError, f"Bedrock could not be reached ({type(exc).__name__})",
                             LLM_UNAVAILABLE) from exc

    def _fail(self, error: type[LLMUnavailableError], message: str, reason: str,
              status: int | None = None) -> LLMUnavailableError:
        logger.warning("llm call failed", extra={"llm_provider": self.name, "llm_model": self.model_id,
                                                 "llm_reason": reason, "upstream_status": status})
        return error(message, provider=self.name, reason=reason, upstream_status=status)


def _by_status(status: int | None) -> tuple[bool, str]:
    # An error code newer than this table: 429 and 5xx (or no status) are transient, other 4xx are ours.
    if status is None or status >= 500:
        return True, LLM_UNAVAILABLE
    return (True, LLM_THROTTLED) if status == 429 else (False, LLM_REJECTED)


def converse_messages(messages: Sequence[Message]) -> tuple[list[SystemContentBlockTypeDef], list[MessageTypeDef]]:
    """Split messages into Converse ``system`` blocks and alternating ``messages``.

    Converse wants the conversation to start with the user and roles to alternate, so
    consecutive messages of one role become one turn with several text blocks, and an
    opening assistant turn (a greeting kept in history) is dropped. Blank texts are
    skipped: Converse rejects empty text blocks.

    Args:
        messages: the port's messages, in order.

    Returns:
        The system blocks and the turns, ready for ``converse``.
    """
    system: list[SystemContentBlockTypeDef] = [{"text": m.content} for m in messages
                                                if m.role is Role.SYSTEM and m.content.strip()]
    merged: list[tuple[ConversationRoleType, list[str]]] = []
    for message in messages:
        if message.role is Role.SYSTEM or not message.content.strip():
            continue
        role: ConversationRoleType = "user" if message.role is Role.USER else "assistant"
        if merged and merged[-1][0] == role:
            merged[-1][1].append(message.content)
        elif merged or role == "user":
            merged.append((role, [message.content]))
    turns: list[MessageTypeDef] = [{"role": role, "content": [{"text": text} for text in texts]}
                                   for role, texts in merged]
    return system, turns
