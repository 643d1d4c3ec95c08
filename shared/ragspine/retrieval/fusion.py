"""Reciprocal Rank Fusion: merge ranked hit lists into one, as a pure function."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from ragspine.retrieval.model import ScoredChunk

# Cormack, Clarke & Buettcher (2009), "Reciprocal Rank Fusion outperforms Condorcet and
# individual Rank Learning Methods", SIGIR: k = 60 damps the weight of the very top ranks so
# that no single list dominates; they found it robust across collections without tuning.
DEFAULT_RRF_K = 60
FUSED_SOURCE = "rrf"


def fuse(rankings: Sequence[Sequence[ScoredChunk]], *, k: int = DEFAULT_RRF_K,
         weights: Sequence[float] | None = None) -> list[ScoredChunk]:
    """Fuse ranked lists by Reciprocal Rank Fusion, keyed by ``chunk_id``.

    Each list contributes ``weight / (k + rank)`` (rank counted from 1) to every chunk it
    holds; only the raw order of each list matters, never its scores, so lists scored on
    different scales (BM25, cosine, one library or another) fuse fairly. A chunk listed
    twice in one list counts once, at its best rank. A list with weight 0 is ignored.

    Args:
        rankings: ranked lists, best first.
        k: the RRF damping constant (>= 0).
        weights: one non-negative finite weight per list; all 1.0 when omitted.

    Returns:
        The fused hits, best first, each a copy of its first appearance with the fused
        score and source ``"rrf"``; equal scores are ordered by ``chunk_id`` so the result
        never depends on dict or thread order.

    Raises:
        ValueError: ``k`` is negative, or ``weights`` has the wrong length or a negative,
            infinite or NaN weight.
    """
    weights = _checked_weights(rankings, k=k, weights=weights)
    totals: dict[str, float] = {}
    first_seen: dict[str, ScoredChunk] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        if weight == 0.0:
            continue
        seen_here: set[str] = set()
        for rank, hit in enumerate(ranking, start=1):
            chunk_id = hit.chunk.chunk_id
            if chunk_id in seen_here:
                continue
            seen_here.add(chunk_id)
            first_seen.setdefault(chunk_id, hit)
            totals[chunk_id] = totals.get(chunk_id, 0.0) + weight / (k + rank)
    ordered = sorted(totals, key=lambda chunk_id: (-totals[chunk_id], chunk_id))
    return [replace(first_seen[chunk_id], score=totals[chunk_id], source=FUSED_SOURCE) for chunk_id in ordered]


def _checked_weights(rankings: Sequence[Sequence[ScoredChunk]], *, k: int,
                     weights: Sequence[float] | None) -> list[float]:
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"RRF k must be a non-negative integer, got {k!r}")
    if weights is None:
        return [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings: give one weight per ranking")
    checked = [float(w) for w in weights]
    if any(not math.isfinite(w) or w < 0.0 for w in checked):
        raise ValueError(f"RRF weights must be finite and non-negative, got {list(weights)!r}")
    return checked
