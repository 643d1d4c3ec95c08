"""Ports the workflow executor depends on (the LLM port lives in ``ragspine.llm.ports``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ragspine.workflows.run.code_node import CodeLimits


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


class CodeRunner(Protocol):
    """Runs a code node somewhere else than this process (on AWS: a Lambda function without permissions)."""

    def run(self, code: str, inputs: Mapping[str, Any], limits: CodeLimits) -> dict[str, Any]:
        """The dict ``main(**inputs)`` returned.

        Raises:
            WorkflowNodeFailedError: the code failed or hit a limit.
            WorkflowCodeIsolationError: the runner is unreachable; the code did not run.
        """
        ...
