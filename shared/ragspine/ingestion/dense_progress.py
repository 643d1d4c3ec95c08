"""The dense leg's progress per operation, saved where the operation's detail reads it.

The background embedder works through every pending passage of the index, oldest first;
``DenseProgressRecorder`` hears each batch it embeds and saves, on the SUCCEEDED operation of
each version in the batch, its passages done and total, its passages per second over the
recent batches and the seconds left at that rate. It saves an operation at most every few
seconds (and once more when its last passage has its vector), so the store is not written per
batch.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ragspine.errors import RagspineError
from ragspine.ingestion.operations import DenseProgress, Operation, OperationStatus, OperationStore, utcnow
from ragspine.retrieval.dense_backfill import BackfillIndex, BackfillProgress

logger = logging.getLogger(__name__)

SAVE_EVERY_S = 3.0  # at most one write per operation in this time while its passages are pending
RATE_WINDOW_S = 30.0  # the rate is measured over this operation's batches of the last half minute


@dataclass(slots=True)
class _Version:
    """One version's batches in the window, and when its operation was last saved."""

    operation_id: str | None = None  # looked up when a save is first due (again while not found)
    batches: deque[tuple[float, float, int]] = field(default_factory=deque)  # (began, ended, passages)
    saved_at: float | None = None

    def rate(self, now: float, window_s: float) -> float | None:
        """Passages per second over the batches that ended in the window (None without one)."""
        while self.batches and self.batches[0][1] < now - window_s:
            self.batches.popleft()
        if not self.batches:
            return None
        span = self.batches[-1][1] - self.batches[0][0]
        passages = sum(n for _, _, n in self.batches)
        return passages / span if span > 0 else None


class DenseProgressRecorder:
    """The ``on_progress`` of a ``BackgroundEmbedder``: each version's dense progress on its operation."""

    def __init__(self, operations: OperationStore, index: BackfillIndex, *, save_every_s: float = SAVE_EVERY_S,
                 window_s: float = RATE_WINDOW_S, clock: Callable[[], float] = time.monotonic) -> None:
        self._operations = operations
        self._index = index
        self._save_every_s = save_every_s
        self._window_s = window_s
        self._clock = clock
        self._versions: dict[tuple[str, str], _Version] = {}

    def __call__(self, progress: BackfillProgress) -> None:
        """Record the batch; save each of its versions whose save is due (or whose last passage it embedded)."""
        now = self._clock()
        counts: dict[tuple[str, str], int] = {}
        for chunk in progress.batch:
            if chunk.version_id is not None:
                key = (chunk.doc_id, chunk.version_id)
                counts[key] = counts.get(key, 0) + 1
        for key, passages in counts.items():
            version = self._versions.get(key)
            if version is None:
                version = self._versions[key] = _Version()
            version.batches.append((now - progress.batch_seconds, now, passages))
            self._maybe_save(key, version, now)

    def _operation_id(self, doc_id: str, version_id: str) -> str | None:
        """The SUCCEEDED operation that activated this version (the latest, should one be replayed)."""
        try:
            found = self._operations.list_operations(doc_id=doc_id)
        except RagspineError as exc:
            logger.warning("dense progress: the operations store cannot be read", extra={"error_code": exc.code})
            return None
        matching = [op.id for op in found if op.version_id == version_id and op.status is OperationStatus.SUCCEEDED]
        return matching[-1] if matching else None

    def _maybe_save(self, key: tuple[str, str], version: _Version, now: float) -> None:
        pending = self._index.vectors_pending(doc_id=key[0], version_id=key[1])
        due = version.saved_at is None or now - version.saved_at >= self._save_every_s
        if pending and not due:
            return
        version.saved_at = now
        if version.operation_id is None:
            # Not found yet: the version's passages can be searched a moment before its run records SUCCEEDED.
            version.operation_id = self._operation_id(*key)
            if version.operation_id is None:
                if not pending:
                    del self._versions[key]
                return
        rate = None if not pending else version.rate(now, self._window_s)
        try:
            operation = self._operations.get(version.operation_id)
            if operation is not None:
                self._operations.save(replace(operation, dense=_progress(operation, pending, rate)))
        except RagspineError as exc:
            # The vectors are what matters; the next due save tries again.
            logger.warning("dense progress could not be saved", extra={"error_code": exc.code})
        if not pending:
            del self._versions[key]


def _progress(operation: Operation, pending: int, rate: float | None) -> DenseProgress:
    """The operation's passages done and total, and the time left at ``rate`` (None when done or unknown)."""
    total = max(operation.chunks_count, pending)
    return DenseProgress(done=total - pending, total=total, per_second=round(rate, 2) if rate else None,
                         seconds_left=round(pending / rate, 1) if rate and pending else None, updated_at=utcnow())
