"""``HashingEmbedder``: a tiny deterministic embedder for tests.

It is NOT the product's embedder and carries no meaning beyond shared tokens: texts that share
words (Latin) or characters and character bigrams (CJK) get similar vectors, paraphrases with
other words do not. It needs no package and no model, costs microseconds, and returns the same
vector for the same text in every process (blake2b, not Python's salted ``hash``), which makes
it a good stand-in for index, fusion and service tests.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

from ragspine.errors import ConfigurationError

_LATIN = re.compile(r"[0-9a-z]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def hashing_tokens(text: str) -> list[str]:
    """Lower-cased Latin words and numbers, plus CJK characters and CJK character bigrams."""
    lowered = text.lower()
    tokens = _LATIN.findall(lowered)
    for run in _CJK.findall(lowered):
        tokens.extend(run)
        tokens.extend(run[i:i + 2] for i in range(len(run) - 1))
    return tokens


class HashingEmbedder:
    """Feature hashing of ``hashing_tokens`` into ``dimension`` signed buckets, L2-normalised."""

    def __init__(self, dimension: int = 64, *, name: str = "hashing") -> None:
        """Choose the vector size.

        Raises:
            ConfigurationError: ``dimension`` below 2.
        """
        if dimension < 2:
            raise ConfigurationError("dimension must be at least 2")
        self.name = name
        self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order (all zeros for a text without tokens)."""
        return [self._vector(text) for text in texts]

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dimension
        for token in hashing_tokens(text):
            digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dimension
            # A signed hash keeps collisions from always adding up (Weinberger et al., 2009).
            vector[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = math.sqrt(sum(value * value for value in vector))
        return [value / norm for value in vector] if norm else vector
