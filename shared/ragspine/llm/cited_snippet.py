"""A snippet the extractive provider reads back from its prompt: its text and its citation, verbatim.

Built only when the extractive provider is asked (the narrative channel; ``llm.extractive`` loads this
module then): apart from it so that a process answering from the facts does not create the class.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CitedSnippet:
    """One snippet parsed back from the block: its text and its citation, verbatim."""

    text: str
    citation: str
