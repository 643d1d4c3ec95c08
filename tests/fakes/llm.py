"""LLM and embedder fakes: scripted replies, failures, and a record of every prompt."""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence

from ragspine.errors import ProviderUnavailableError
from ragspine.llm.chat import Completion, Message
from ragspine.llm.ports import Embedder, LLMProvider
from tests.fakes.chunks import tokens


class RecordingLLMProvider:
    """Replies with scripted texts (the last one repeats) or a function of the messages; records every call."""

    def __init__(self, replies: Sequence[str] | Callable[[Sequence[Message]], str] = ("",),
                 *, name: str = "recording") -> None:
        self.name = name
        self._replies = replies
        self.calls: list[list[Message]] = []

    @property
    def prompts(self) -> list[str]:
        """Each call's messages joined into one text, to assert on what the model saw."""
        return ["\n".join(message.content for message in call) for call in self.calls]

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        self.calls.append(list(messages))
        if callable(self._replies):
            return Completion(self._replies(messages), self.name)
        index = min(len(self.calls), len(self._replies)) - 1
        return Completion(self._replies[index], self.name)


class FailingLLMProvider:
    """Raises ProviderUnavailableError on every call (timeouts, throttling), recording the attempt."""

    def __init__(self, *, name: str = "failing") -> None:
        self.name = name
        self.calls: list[list[Message]] = []

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        self.calls.append(list(messages))
        raise ProviderUnavailableError("the model timed out")


class RecordingEmbedder:
    """Hashes tokens into a small unit vector (deterministic across runs); records texts; can fail."""

    def __init__(self, *, dimension: int = 16, fail: bool = False, name: str = "hashing") -> None:
        self.name = name
        self.dimension = dimension
        self.fail = fail
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts.extend(texts)
        if self.fail:
            raise ProviderUnavailableError("the embedding model cannot be loaded")
        return [self._vector(text) for text in texts]

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dimension
        for token in tokens(text):
            vector[zlib.crc32(token.encode()) % self.dimension] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]


_llm: type[LLMProvider] = RecordingLLMProvider  # the fakes must keep matching the ports
_failing: type[LLMProvider] = FailingLLMProvider
_embedder: type[Embedder] = RecordingEmbedder
