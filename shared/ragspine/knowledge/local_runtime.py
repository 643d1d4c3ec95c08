"""The embedded default's Gateway runtime: runs in a worker thread, the chunk index as provider, purges."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.facts.ports import FactStore
    from ragspine.ingestion.runner import InProcessRunner
    from ragspine.ingestion.steps import StepContext
    from ragspine.knowledge.model import Space
    from ragspine.retrieval.ports import ChunkIndex

logger = logging.getLogger(__name__)


class ThreadOperationLauncher:
    """Runs each operation's ingestion with ``InProcessRunner`` in one background thread, then ``after`` it."""

    def __init__(self, context: Callable[[], StepContext], *, after: Callable[[str], None],
                 runner: InProcessRunner | None = None) -> None:
        self._context = context
        self.runner = runner  # None: the default InProcessRunner (tests give one with controlled steps)
        self._after = after
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="knowledge-run")
        self._pending: list[Future[None]] = []
        self._lock = threading.Lock()

    def start(self, operation_id: str) -> None:
        """Queue the run; the HTTP request returns at once with the operation PENDING."""
        with self._lock:
            self._pending = [f for f in self._pending if not f.done()]
            self._pending.append(self._pool.submit(self._run, operation_id))

    def _run(self, operation_id: str) -> None:
        from ragspine.ingestion.runner import InProcessRunner

        try:
            (self.runner or InProcessRunner()).run(operation_id, context=self._context())
        except Exception:  # the run records its own failures; this is a crash of the runner itself
            logger.exception("knowledge operation run crashed", extra={"operation_id": operation_id})
        finally:
            self._after(operation_id)

    def drain(self) -> None:
        """Wait for every queued run (tests and shutdown)."""
        with self._lock:
            pending = list(self._pending)
        for future in pending:
            future.result()


class IndexProvisioner:
    """A space is ready when the chunk index is reachable; there is nothing per space to release locally."""

    def __init__(self, index: Callable[[], ChunkIndex | None]) -> None:
        self._index = index

    def prepare(self, space: Space) -> None:
        """Ensure the index exists (raises ProviderUnavailableError when it cannot be reached)."""
        index = self._index()
        if index is not None:
            index.ensure_index()

    def release(self, space: Space) -> None:
        """Nothing to release: an empty space has no chunks."""


class EnginePurger:
    """Removes a deleted document's chunks from the index and its facts from the fact store."""

    def __init__(self, index: Callable[[], ChunkIndex | None], facts: Callable[[], FactStore]) -> None:
        self._index = index
        self._facts = facts

    def purge(self, document_id: str) -> None:
        """Delete every chunk and fact of the document (idempotent)."""
        index = self._index()
        if index is not None:
            index.delete(doc_id=document_id)
        self._facts().delete_by_source(document_id)
