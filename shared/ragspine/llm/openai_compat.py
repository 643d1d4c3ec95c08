"""``OpenAICompatibleProvider``: the LLMProvider port on any ``/chat/completions`` HTTP endpoint (httpx).

The API key is a secret: it travels only in the ``Authorization`` header of each request. It
is kept out of ``repr``, error messages and logs, and the remote error body (where some
servers echo the key) is never read into a message.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import httpx

from ragspine.llm.chat import Completion, Message
from ragspine.llm.errors import (
    LLM_BAD_RESPONSE,
    LLM_REJECTED,
    LLM_THROTTLED,
    LLM_TIMEOUT,
    LLM_UNAVAILABLE,
    LLMRejectedError,
    LLMResponseError,
    LLMUnavailableError,
)

if TYPE_CHECKING:
    import httpx

logger = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 30.0
# How each structured-output setting puts a JSON schema into the request's ``response_format``.
STRUCTURED_OUTPUTS = ("off", "json_schema", "json_object")


class OpenAICompatibleProvider:
    """A chat model behind an OpenAI-compatible ``POST {base_url}/chat/completions``."""

    name = "openai"

    def __init__(self, base_url: str, api_key: str | None, model: str, *, timeout_s: float = DEFAULT_TIMEOUT_S,
                 client: httpx.Client | None = None, max_tokens: int | None = None,
                 structured_output: str = "off") -> None:
        """Configure the adapter; no HTTP client is created until the first call.

        Args:
            base_url: the API root, e.g. ``https://api.openai.com/v1`` (no trailing path).
            api_key: the bearer token; empty or None sends no ``Authorization`` header (local servers).
            model: the ``model`` field of every request.
            timeout_s: the timeout of each request, also applied to an injected client.
            client: a ready ``httpx.Client`` (tests use one with a ``MockTransport``).
            max_tokens: this endpoint's cap on ``max_tokens`` (a slow local model gets a shorter reply).
            structured_output: ``off``, or how ``complete_json`` sends its schema: ``json_schema``
                (OpenAI, llama.cpp's server, vLLM) or ``json_object`` with a ``schema`` (llama-cpp-python).

        Raises:
            ValueError: an unknown ``structured_output``.
        """
        if structured_output not in STRUCTURED_OUTPUTS:
            raise ValueError(f"structured_output must be one of {', '.join(STRUCTURED_OUTPUTS)}, "
                             f"not {structured_output!r}")
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self._api_key = api_key or None
        self._timeout_s = timeout_s
        self._client = client
        self._max_tokens = max_tokens
        self.structured_output = structured_output

    def __repr__(self) -> str:
        return f"OpenAICompatibleProvider(url={self.url!r}, model={self.model!r})"

    @property
    def client(self) -> httpx.Client:
        """The httpx client, created on first use so importing costs nothing."""
        if self._client is None:
            import httpx

            self._client = httpx.Client(timeout=self._timeout_s)
        return self._client

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """POST the conversation and return ``choices[0].message.content``.

        Args:
            messages: sent in order as ``{"role", "content"}`` objects.
            max_tokens: the ``max_tokens`` field.
            temperature: the ``temperature`` field.

        Returns:
            The reply text and the model the server reports (else the configured one).

        Raises:
            LLMUnavailableError: a timeout, a connection failure, HTTP 429 or 5xx (retryable).
            LLMRejectedError: any other HTTP 4xx, e.g. 401 for a wrong key (not retryable).
            LLMResponseError: a 2xx reply without JSON or without text (not retryable).
        """
        return self._post(messages, max_tokens=max_tokens, temperature=temperature)

    def complete_json(self, messages: Sequence[Message], schema: Mapping[str, Any], *, name: str,
                      max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """Like ``complete``, asking the endpoint to reply with JSON matching ``schema``.

        The reply text is returned as sent: a server that ignores ``response_format`` may still
        answer in free text, and the caller decides what to do with that. With
        ``structured_output="off"`` this is a plain ``complete``.

        Raises:
            The errors of ``complete``; a server that refuses ``response_format`` answers HTTP 4xx
            (``LLMRejectedError``): set ``structured_output`` to the form it supports, or ``off``.
        """
        if self.structured_output == "json_schema":
            response_format: dict[str, Any] = {"type": "json_schema",
                                               "json_schema": {"name": name, "strict": True, "schema": dict(schema)}}
        elif self.structured_output == "json_object":
            response_format = {"type": "json_object", "schema": dict(schema)}
        else:
            return self.complete(messages, max_tokens=max_tokens, temperature=temperature)
        return self._post(messages, max_tokens=max_tokens, temperature=temperature, response_format=response_format)

    def _post(self, messages: Sequence[Message], *, max_tokens: int, temperature: float,
              response_format: dict[str, Any] | None = None) -> Completion:
        if self._max_tokens is not None:
            max_tokens = min(max_tokens, self._max_tokens)
        body: dict[str, Any] = {"model": self.model,
                                "messages": [{"role": m.role.value, "content": m.content} for m in messages],
                                "max_tokens": max_tokens, "temperature": temperature}
        if response_format is not None:
            body["response_format"] = response_format
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        try:
            response = self.client.post(self.url, json=body, headers=headers, timeout=self._timeout_s)
        except httpx.TimeoutException as exc:
            raise self._fail(LLMUnavailableError, f"model {self.model} timed out after {self._timeout_s:g} s",
                             LLM_TIMEOUT) from exc
        except httpx.HTTPError as exc:
            raise self._fail(LLMUnavailableError, f"model {self.model} could not be reached ({type(exc).__name__})",
                             LLM_UNAVAILABLE) from exc
        status = response.status_code
        # Some servers answer an unsupported response_format with 400, 422 or even 500 (llama-cpp-python).
        unsupported = (f"; if it does not support response_format {response_format['type']}, set "
                       f"RAGSPINE_OPENAI_STRUCTURED_OUTPUT to another form or off"
                       if response_format is not None and status != 429 and status >= 400 else "")
        if status == 429 or status >= 500:
            reason = LLM_THROTTLED if status == 429 else LLM_UNAVAILABLE
            raise self._fail(LLMUnavailableError, f"model {self.model} is unavailable (HTTP {status}){unsupported}",
                             reason, status)
        if status >= 400:
            raise self._fail(LLMRejectedError, f"model {self.model} rejected the request (HTTP {status}){unsupported}",
                             LLM_REJECTED, status)
        return Completion(self._reply_text(response), self._reply_model(response))

    def _reply_text(self, response: httpx.Response) -> str:
        try:
            content = response.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise self._fail(LLMResponseError, f"model {self.model} sent a reply without choices[0].message",
                             LLM_BAD_RESPONSE, response.status_code) from exc
        if not isinstance(content, str) or not content.strip():
            raise self._fail(LLMResponseError, f"model {self.model} sent a reply without text",
                             LLM_BAD_RESPONSE, response.status_code)
        return content

    def _reply_model(self, response: httpx.Response) -> str:
        payload: Any = response.json()
        model = payload.get("model") if isinstance(payload, dict) else None
        return model if isinstance(model, str) and model else self.model

    def _fail(self, error: type[LLMUnavailableError], message: str, reason: str,
              status: int | None = None) -> LLMUnavailableError:
        logger.warning("llm call failed", extra={"llm_provider": self.name, "llm_model": self.model,
                                                 "llm_reason": reason, "upstream_status": status})
        return error(f"OpenAI-compatible {message}", provider=self.name, reason=reason, upstream_status=status)
