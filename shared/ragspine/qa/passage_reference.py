"""A passage reference found in a model's answer (``answer_structure.passage_references``).

Built only for a narrative answer that cites its passages (``qa.answer_structure`` loads this module then):
apart from it so that a figure read from the facts, whose answer names no passage, does not create the class.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PassageReference:
    """A reference in an answer: where it stands and the 1-based passage numbers it names."""

    start: int
    end: int
    passages: tuple[int, ...]
