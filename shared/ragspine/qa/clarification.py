"""A question asked back and the one-click options offered (``AnswerResult.clarification``, ``refinements``).

Built only when a question is asked back or answered with an assumed company or period that has other
values (``qa.clarify`` loads this module then): apart from ``qa.result`` so that a question naming what it
asks does not create their classes at a cold start.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Option:
    """A one-click choice: what to show, and the question a client sends back to pick it."""

    label: str
    question: str
    slot: str
    value: str


@dataclass(frozen=True, slots=True)
class Clarification:
    """A question asked back instead of answering, with the options offered."""

    question: str
    options: tuple[Option, ...]
