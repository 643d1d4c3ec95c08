"""Fusion of ranked lists, as pure functions: every fusion the retriever and both indexes run.

Two kinds of fusion, for two different jobs:

- *The two legs of one hybrid search* (BM25 and cosine over the same candidates): ``fuse_legs``,
  by ``HybridFusion.MIN_MAX`` (each leg's scores scaled to [0, 1] over its candidates, then
  averaged; the default of both deployments) or ``HybridFusion.RRF``. The embedded index fuses
  snapshot positions, the OpenSearch adapter chunk ids: the same function, the same mode
  (``RAGSPINE_HYBRID_FUSION``). Measured in docs/retrieval.md: min-max ranks at least as well as
  RRF on every evaluation set, because it keeps how far apart the scores are (a confident BM25
  match is not outvoted by a dense near tie), where RRF gives each leg's rank 1 the same say.
- *Rankings whose scores are not comparable* (one per library, the named documents', the
  statement pages'): ``fuse``, Reciprocal Rank Fusion over ``ScoredChunk`` lists with weights.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from ragspine.retrieval.model import ScoredChunk

# Cormack, Clarke & Buettcher (2009), "Reciprocal Rank Fusion outperforms Condorcet and
# individual Rank Learning Methods", SIGIR: k = 60 damps the weight of the very top ranks so
# that no single list dominates; they found it robust across collections without tuning.
RRF_K = 60
FUSED_SOURCE = "rrf"


class HybridFusion(enum.StrEnum):
    """How the lexical and dense legs of one search are combined."""

    MIN_MAX = "min_max"
    RRF = "rrf"


Key = TypeVar("Key", int, str)  # a snapshot position (embedded index) or a chunk id (OpenSearch)


def fuse_legs(legs: Sequence[tuple[Sequence[Key], Sequence[float]]], *, mode: HybridFusion, top_k: int,
              weights: Sequence[float] | None = None) -> list[tuple[Key, float]]:
    """The best ``top_k`` candidates of a hybrid search and their fused scores, best first.

    Args:
        legs: each leg's candidate keys best first and their scores (higher is better); a
            key appears at most once per leg.
        mode: ``MIN_MAX``: a candidate scores the mean over the legs of its score scaled to
            [0, 1] between the leg's lowest and highest (1 when they are equal, as OpenSearch's
            ``min_max`` normalisation does; 0 in a leg that did not return it).
            ``RRF``: the sum of ``1 / (RRF_K + rank)``; RRF ties whenever two candidates swap
            ranks across the legs, and the min-max score decides them then (never the order
            documents were ingested in).
        top_k: how many to return.
        weights: one positive weight per leg, relative to each other; equal when omitted (RRF then
            adds exactly ``1 / (RRF_K + rank)`` per leg).

    Returns:
        ``(key, score)`` pairs; equal scores are ordered by key, so the result never depends on
        dict or thread order.

    Raises:
        ValueError: ``weights`` has the wrong length or a weight that is not positive and finite.
    """
    if not legs:
        return []
    if weights is not None and (len(weights) != len(legs) or not all(math.isfinite(w) and w > 0 for w in weights)):
        raise ValueError(f"give one positive finite weight per leg ({len(legs)}), got {list(weights)!r}")
    shares = [1.0 / len(legs)] * len(legs) if weights is None else [w / sum(weights) for w in weights]
    scaled = _scaled_totals(legs, shares)
    if mode is HybridFusion.MIN_MAX:
        best = sorted(scaled.items(), key=lambda item: (-item[1], item[0]))
        return best[:top_k]
    totals: dict[Key, float] = {}
    for (keys, _), share in zip(legs, shares, strict=True):
        for rank, key in enumerate(keys, start=1):
            totals[key] = totals.get(key, 0.0) + len(legs) * share / (RRF_K + rank)
    ordered = sorted(totals.items(), key=lambda item: (-item[1], -scaled.get(item[0], 0.0), item[0]))
    return ordered[:top_k]


def _scaled_totals(legs: Sequence[tuple[Sequence[Key], Sequence[float]]], shares: Sequence[float]) -> dict[Key, float]:
    """Every candidate's min-max fused score: its scores scaled per leg, then the legs' weighted mean."""
    totals: dict[Key, float] = {}
    for (keys, scores), share in zip(legs, shares, strict=True):
        if not len(scores):
            continue
        low, high = min(scores), max(scores)
        span = high - low
        for key, score in zip(keys, scores, strict=True):
            # A leg whose candidates all score alike (a lone BM25 match) rates each as its best.
            totals[key] = totals.get(key, 0.0) + share * ((score - low) / span if span > 0 else 1.0)
    return totals


def fuse(rankings: Sequence[Sequence[ScoredChunk]], *, k: int = RRF_K,
         weights: Sequence[float] | None = None) -> list[ScoredChunk]:
    """Fuse ranked lists by Reciprocal Rank Fusion, keyed by ``chunk_id``.

    Each list contributes ``weight / (k + rank)`` (rank counted from 1) to every chunk it
    holds; only the raw order of each list matters, never its scores, so lists scored on
    different scales (one library or another, a named document's ranking) fuse fairly. A chunk
    listed twice in one list counts once, at its best rank. A list with weight 0 is ignored.

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
