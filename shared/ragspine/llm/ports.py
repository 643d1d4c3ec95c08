"""Ports for language models and embedders."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    # The chat's classes in a module of their own: a process that never asks a model never creates them.
    from ragspine.llm.chat import Completion, Message


class Role(enum.StrEnum):
    """Who says a message."""

    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"


class LLMProvider(Protocol):
    """A chat model: the offline extractive provider, Bedrock Converse, or OpenAI-compatible."""

    name: str

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """Generate a reply.

        Raises:
            ProviderUnavailableError: timeout, throttling or a provider error (retryable or not).
        """
        ...


@runtime_checkable
class StructuredLLMProvider(LLMProvider, Protocol):
    """A chat model that can be asked for a reply matching a JSON schema (``structured_output`` not ``off``)."""

    structured_output: str

    def complete_json(self, messages: Sequence[Message], schema: Mapping[str, Any], *, name: str,
                      max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """Generate a reply the endpoint constrains to ``schema`` (a server may ignore it: check the text).

        Raises:
            ProviderUnavailableError: timeout, throttling or a provider error (retryable or not).
        """
        ...


class Embedder(Protocol):
    """Turns texts into vectors of a fixed dimension."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order.

        Raises:
            ProviderUnavailableError: the model cannot be loaded or called.
        """
        ...
