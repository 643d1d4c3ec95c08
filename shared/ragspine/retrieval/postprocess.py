"""Post-processing of ranked hits: dedupe, a per-document cap and a score floor.

Every function takes hits best first and keeps that order: they only drop hits, never
re-score or re-sort them.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Collection, Sequence

from ragspine.retrieval.model import ScoredChunk

# Chunks whose character-trigram sets overlap this much (Jaccard) say the same thing: the
# same paragraph repeated in two versions of a deck, or differing only in punctuation.
DEFAULT_NEAR_DUPLICATE = 0.9
_SHINGLE = 3  # characters: works for CJK text, which has no spaces to split words on


def dedupe(hits: Sequence[ScoredChunk], *, similarity: float = DEFAULT_NEAR_DUPLICATE) -> list[ScoredChunk]:
    """Drop repeated chunk ids and near-identical texts, keeping the best-ranked copy.

    Args:
        hits: ranked hits, best first.
        similarity: Jaccard similarity of character trigrams (after NFKC, case folding and
            dropping punctuation and spaces) at or above which two texts are duplicates.

    Returns:
        The hits without duplicates, in the same order.

    Raises:
        ValueError: ``similarity`` is not in (0, 1].
    """
    if not 0.0 < similarity <= 1.0:
        raise ValueError(f"similarity must be in (0, 1], got {similarity!r}")
    kept: list[ScoredChunk] = []
    kept_ids: set[str] = set()
    kept_shingles: list[frozenset[str]] = []
    for hit in hits:
        if hit.chunk.chunk_id in kept_ids:
            continue
        shingles = _shingles(hit.chunk.text)
        if any(_jaccard(shingles, other) >= similarity for other in kept_shingles):
            continue
        kept.append(hit)
        kept_ids.add(hit.chunk.chunk_id)
        kept_shingles.append(shingles)
    return kept


def cap_per_document(hits: Sequence[ScoredChunk], *, per_doc_cap: int,
                     uncapped: Collection[str] = ()) -> list[ScoredChunk]:
    """Keep at most ``per_doc_cap`` hits of each document, so one long document cannot fill the answer.

    ``uncapped`` documents (the ones a question names) may fill it: the reader asked for them.

    Raises:
        ValueError: ``per_doc_cap`` is below 1.
    """
    if per_doc_cap < 1:
        raise ValueError(f"per_doc_cap must be at least 1, got {per_doc_cap!r}")
    counts: dict[str, int] = {}
    kept = []
    for hit in hits:
        seen = counts.get(hit.chunk.doc_id, 0)
        if seen < per_doc_cap or hit.chunk.doc_id in uncapped:
            counts[hit.chunk.doc_id] = seen + 1
            kept.append(hit)
    return kept


def apply_score_floor(hits: Sequence[ScoredChunk], *, score_floor: float) -> list[ScoredChunk]:
    """Keep the hits scoring at least ``score_floor`` (0 keeps every hit with a non-negative score).

    Raises:
        ValueError: ``score_floor`` is NaN or infinite.
    """
    if not math.isfinite(score_floor):
        raise ValueError(f"score_floor must be finite, got {score_floor!r}")
    return [hit for hit in hits if hit.score >= score_floor]


def postprocess(hits: Sequence[ScoredChunk], *, per_doc_cap: int, score_floor: float,
                similarity: float = DEFAULT_NEAR_DUPLICATE, uncapped: Collection[str] = ()) -> list[ScoredChunk]:
    """Apply the floor, then dedupe, then the per-document cap.

    The floor goes first because it is cheap and shrinks the pairwise dedupe; dedupe goes
    before the cap so a document's duplicates do not use up its share.

    Args:
        hits: ranked hits, best first.
        per_doc_cap: most hits kept per ``doc_id``.
        uncapped: doc_ids exempt from the cap.
        score_floor: lowest score kept.
        similarity: near-duplicate threshold of ``dedupe``.

    Returns:
        The surviving hits, in the same order.

    Raises:
        ValueError: an argument is out of range.
    """
    floored = apply_score_floor(hits, score_floor=score_floor)
    return cap_per_document(dedupe(floored, similarity=similarity), per_doc_cap=per_doc_cap, uncapped=uncapped)


def _shingles(text: str) -> frozenset[str]:
    folded = "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())
    if len(folded) <= _SHINGLE:
        return frozenset((folded,))
    return frozenset(folded[i:i + _SHINGLE] for i in range(len(folded) - _SHINGLE + 1))


def _jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    union = len(left | right)
    return len(left & right) / union if union else 1.0
