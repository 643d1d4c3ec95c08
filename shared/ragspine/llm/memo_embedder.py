"""``MemoEmbedder``: the vectors of the last few texts kept, so one question is embedded once.

The FAQ's match by meaning and the hybrid retriever embed the same question with the same
query embedder, one after the other: without the memo a narrative question would pay for the
model twice.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from ragspine.llm.ports import Embedder


class MemoEmbedder:
    """An ``Embedder`` that remembers the vectors of its ``size`` most recent texts."""

    def __init__(self, inner: Embedder, *, size: int = 64) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self._size = size
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, list[float]] = OrderedDict()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order; remembered texts are not embedded again.

        Raises:
            ProviderUnavailableError: the inner embedder failed (nothing is remembered then).
        """
        with self._lock:
            known = {t: self._recent[t] for t in texts if t in self._recent}
            for text in known:
                self._recent.move_to_end(text)
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        fresh = dict(zip(missing, self.inner.embed(missing), strict=True)) if missing else {}
        if fresh:
            with self._lock:
                self._recent.update(fresh)
                while len(self._recent) > self._size:
                    self._recent.popitem(last=False)
        return [known[t] if t in known else fresh[t] for t in texts]
