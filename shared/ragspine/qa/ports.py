"""Ports of the Q&A engine: the intent parser and the narrative retriever."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ragspine.qa.intent_model import Intent
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    # A retrieved passage in a module of its own: a question answered from the facts never creates its class.
    from ragspine.qa.evidence import Evidence


class IntentParser(Protocol):
    """Turns a question into slots and a route, deterministically (swappable)."""

    def parse(self, question: str) -> Intent:
        """Parse the four slots and choose structured, narrative or composite."""
        ...


class NarrativeRetriever(Protocol):
    """Finds cited passages for a "why / what happened" question."""

    def retrieve(self, query: str, *, top_k: int, max_sensitivity: Sensitivity) -> list[Evidence]:
        """The best passages the caller may see.

        Args:
            query: the user's question (never rewritten from history).
            top_k: how many passages at most.
            max_sensitivity: nothing above this level may be returned (RESTRICTED exit 1).

        Raises:
            ProviderUnavailableError: the index cannot be searched now.
        """
        ...
