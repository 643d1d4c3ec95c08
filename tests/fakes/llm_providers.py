"""LLMProvider fakes: one that records prompts, one that fabricates, one that fails.

All three implement the ``LLMProvider`` port and record every message list they were sent,
so canary and history tests can scan exactly what would have reached a model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.llm.chat import Completion, Message
from ragspine.llm.extractive import ExtractiveProvider
from ragspine.llm.ports import LLMProvider

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Call:
    """One ``complete`` call as the provider saw it."""

    messages: tuple[Message, ...]
    max_tokens: int
    temperature: float


class _Recorder:
    """Keeps every call; the base of the fakes below."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def _record(self, messages: Sequence[Message], max_tokens: int, temperature: float) -> None:
        self.calls.append(Call(tuple(messages), max_tokens, temperature))

    def sent_text(self) -> str:
        """Every message content of every call, one per line: what a model would have read."""
        return "\n".join(m.content for call in self.calls for m in call.messages)


class RecordingProvider(_Recorder):
    """Replies with scripted texts in order (the last one repeats), or delegates to another provider.

    With no replies and no delegate it answers like the offline ``ExtractiveProvider``.
    """

    def __init__(self, *replies: str, delegate: LLMProvider | None = None, name: str = "recording") -> None:
        super().__init__()
        self.name = name
        self._replies = list(replies)
        self._delegate = delegate if delegate is not None or replies else ExtractiveProvider()

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        self._record(messages, max_tokens, temperature)
        if self._delegate is not None:
            return self._delegate.complete(messages, max_tokens=max_tokens, temperature=temperature)
        reply = self._replies[min(len(self.calls), len(self._replies)) - 1]
        return Completion(reply, self.name)


class AdversarialProvider(_Recorder):
    """A model that fabricates: it states numbers found nowhere in its prompt and cites nothing.

    ``invented`` holds the numbers of the last reply; each is checked to be absent from every
    message it was sent, so a provenance check must reject the whole answer.
    """

    CANDIDATES = ("37.5", "1234", "98.6", "4321", "12.7")

    def __init__(self, *, name: str = "adversarial") -> None:
        super().__init__()
        self.name = name
        self.invented: tuple[str, ...] = ()

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        self._record(messages, max_tokens, temperature)
        prompt = "\n".join(m.content for m in messages)
        fresh = [n for n in self.CANDIDATES if n not in prompt]
        # Beyond the candidates, a digit run longer than any in the prompt cannot occur in it.
        longest = max((len(run) for run in _DIGITS.findall(prompt)), default=0)
        while len(fresh) < 2:
            fresh.append("9" * (longest + len(fresh) + 1))
        self.invented = tuple(fresh[:2])
        first, second = self.invented
        text = (f"Revenue grew {first}% because of strong demand, and next year it will reach {second} million. "
                f"收入增长了{first}%，明年将达到{second}百万。")
        return Completion(text, self.name)


class FailingProvider(_Recorder):
    """Raises the given exception on every call (after recording the call)."""

    def __init__(self, exc: Exception, *, name: str = "failing") -> None:
        super().__init__()
        self.name = name
        self.exc = exc

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 800, temperature: float = 0.0) -> Completion:
        self._record(messages, max_tokens, temperature)
        raise self.exc
