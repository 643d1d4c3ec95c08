"""The embedded default's Gateway runtime: runs in a worker thread, the chunk index as provider, purges."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from ragspine.ingestion.runner import InProcessRunner

if TYPE_CHECKING:
    from ragspine.facts.ports import FactStore
    from ragspine.ingestion.operations import OperationStore
    from ragspine.ingestion.runner import InProcessRunner
    from ragspine.ingestion.steps import StepContext
    from ragspine.knowledge.model import Space
    from ragspine.retrieval.ports import ChunkIndex

logger = logging.getLogger(__name__)


class ThreadOperationLauncher:
    """Runs each operation's ingestion with ``InProcessRunner`` on a few worker threads, then ``after`` it.

    Fair by space: queued runs are taken space by space in turn, and with more than one worker
    no space holds more than ``workers - 1`` of them, so a space's large or hostile upload never
    keeps another space's upload waiting (one space alone still uses every worker it may).
    """

    def __init__(self, context: Callable[[], StepContext], *, after: Callable[[str], None],
                 runner: InProcessRunner | None = None, workers: int = 2,
                 operations: OperationStore | None = None) -> None:
        """Args:
            operations: where ``start`` reads an operation's space (None: the step context's store).
        """
        self._context = context
        self._operations = operations
        self.runner = runner  # None: the default InProcessRunner (tests give one with controlled steps)
        self._after = after
        self._workers = max(1, workers)
        self._queue = FairQueue(per_key_limit=max(1, self._workers - 1))
        self._changed = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._closed = False

    def start(self, operation_id: str) -> None:
        """Queue the run; the HTTP request returns at once with the operation PENDING.

        Raises:
            RuntimeError: the launcher was closed.
        """
        space = self._space_of(operation_id)
        with self._changed:
            if self._closed:
                raise RuntimeError("the operation launcher is closed")
            self._queue.push(space, operation_id)
            if len(self._threads) < self._workers:
                thread = threading.Thread(target=self._work, name=f"knowledge-run-{len(self._threads)}", daemon=True)
                self._threads.append(thread)
                thread.start()
            self._changed.notify_all()

    def _space_of(self, operation_id: str) -> str:
        try:
            operation = (self._operations or self._context().operations).get(operation_id)
        except Exception:  # noqa: BLE001 - fairness only: an unreadable operation still runs, in a shared lane
            logger.warning("could not read the space of a knowledge operation", extra={"operation_id": operation_id})
            return ""
        return operation.space.space_id if operation is not None and operation.space is not None else ""

    def _work(self) -> None:
        while True:
            with self._changed:
                taken = self._queue.take()
                while taken is None:
                    if self._closed:
                        return  # the thread ends, and with it its database connections
                    self._changed.wait()
                    taken = self._queue.take()
            space, operation_id = taken
            try:
                self._run(operation_id)
            finally:
                with self._changed:
                    self._queue.done(space)
                    self._changed.notify_all()

    def _run(self, operation_id: str) -> None:
        try:
            (self.runner or InProcessRunner()).run(operation_id, context=self._context())
        except Exception:  # the run records its own failures; this is a crash of the runner itself
            logger.exception("knowledge operation run crashed", extra={"operation_id": operation_id})
        finally:
            self._after(operation_id)

    def drain(self) -> None:
        """Wait for every queued and running run (tests and shutdown)."""
        with self._changed:
            while not self._queue.idle():
                self._changed.wait()

    def close(self) -> None:
        """Take no more runs, finish the queued ones, and end the worker threads (waits for them)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            threads, self._threads = self._threads, []
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join()


class FairQueue:
    """Queued items per key (a space), handed out key by key in turn, at most ``per_key_limit`` running per key.

    Not thread-safe by itself: the launcher holds its condition around every call.
    """

    def __init__(self, *, per_key_limit: int) -> None:
        self._limit = per_key_limit
        self._waiting: OrderedDict[str, deque[str]] = OrderedDict()  # the key served longest ago first
        self._running: dict[str, int] = {}

    def push(self, key: str, item: str) -> None:
        """Queue ``item`` under ``key``."""
        self._waiting.setdefault(key, deque()).append(item)

    def take(self) -> tuple[str, str] | None:
        """The next item of the first key in turn below its limit (that key goes to the back), or None."""
        for key, items in self._waiting.items():
            if self._running.get(key, 0) < self._limit:
                item = items.popleft()
                if items:
                    self._waiting.move_to_end(key)
                else:
                    del self._waiting[key]
                self._running[key] = self._running.get(key, 0) + 1
                return key, item
        return None

    def done(self, key: str) -> None:
        """An item of ``key`` finished."""
        self._running[key] -= 1
        if not self._running[key]:
            del self._running[key]

    def idle(self) -> bool:
        """Nothing queued and nothing running."""
        return not self._waiting and not self._running


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
