"""How a narrative answer was reached (``AnswerResult.narrative_detail``), built by the narrative channel only.

Apart from ``qa.result`` so that a question answered from the facts, which never reaches the narrative
channel, does not create its class at a cold start.
"""

from __future__ import annotations

from dataclasses import dataclass

from ragspine.qa.result import NarrativeKind


@dataclass(frozen=True, slots=True)
class NarrativeDetail:
    """How the narrative part was reached: the model's fate, why, and what the caller can do."""

    kind: NarrativeKind
    unsupported: tuple[str, ...] = ()  # rejected values, canonical ("48000000000", "7.4 (2025)")
    reason: str | None = None  # the provider's LLM_* code on a timeout or error
    retryable: bool | None = None
    hint: str | None = None  # what to do next, in the question's language
    language_kept: bool | None = None  # the reply is in the question's language (None: no reply)
    asked_again: bool = False  # the model was asked once more for the question's language
    asked_for_answer: bool = False  # ...and once more for what its reply, the question said back, left out
    structured_output: bool | None = None  # the reply came as the requested JSON (None: not requested)
