"""Ports the workflow executor depends on (the LLM port lives in ``ragspine.llm.ports``)."""

from __future__ import annotations

from typing import Any, Protocol


class KnowledgeRetriever(Protocol):
    """Our own retriever, as a knowledge-retrieval node sees it."""

    def retrieve(self, query: str, *, top_k: int) -> list[dict[str, Any]]:
        """The best ``top_k`` chunks for ``query``, each a JSON-compatible mapping.

        Dify's ``result`` items carry ``content`` and ``metadata``; adapters should follow that
        shape so templates written for Dify keep working.

        Raises:
            ProviderUnavailableError: the index cannot be reached.
        """
        ...
