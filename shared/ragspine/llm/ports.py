"""Ports for language models and embedders."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Role(enum.StrEnum):
    """Who says a message."""

    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's reply and the model that produced it."""

    text: str
    model: str


class LLMProvider(Protocol):
    """A chat model: the offline extractive provider, Bedrock Converse, or OpenAI-compatible."""

    name: str

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        """Generate a reply.

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
