"""Ranking metrics: recall@k and MRR over ranked citation keys (pure functions).

With one gold chunk per query (CMRC2018, jfinqa, most of TAT-QA) recall@k is the usual
"is the gold paragraph in the top k". When a question lists several gold chunks, they are
alternative answers (the same fact stated in two documents), so the query counts as
recalled at k when any of them is in the top k, and its reciprocal rank is that of the
first gold hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from tests.eval.model import Key

CUTOFFS = (1, 5, 10)
MAX_RANK = max(CUTOFFS)  # MRR is MRR@10: a gold answer below rank 10 scores 0


def first_gold_rank(ranked: Sequence[Key], gold: Iterable[Key]) -> int | None:
    """The 1-based rank of the first gold key in ``ranked`` (within ``MAX_RANK``), else None."""
    wanted = frozenset(gold)
    for rank, key in enumerate(ranked[:MAX_RANK], start=1):
        if key in wanted:
            return rank
    return None


def summarise(ranks: Sequence[int | None]) -> dict[str, float]:
    """recall@1/5/10 and MRR@10 of a list of first-gold ranks (None: not found); 4 decimals.

    Raises:
        ValueError: ``ranks`` is empty.
    """
    if not ranks:
        raise ValueError("no queries to score")
    n = len(ranks)
    out = {f"recall@{k}": round(sum(r is not None and r <= k for r in ranks) / n, 4) for k in CUTOFFS}
    out["mrr"] = round(sum(1.0 / r for r in ranks if r is not None) / n, 4)
    return out


def not_worse(candidate: dict[str, float], baseline: dict[str, float]) -> bool:
    """Whether ``candidate`` is at least ``baseline`` on every recall cutoff and on MRR."""
    return all(candidate[name] >= baseline[name] for name in (*(f"recall@{k}" for k in CUTOFFS), "mrr"))


def paired(candidate: Mapping[str, int | None], baseline: Mapping[str, int | None]) -> dict[str, int]:
    """Per-query comparison on the same queries: who ranks the gold higher, and recall@5 won or lost.

    A gold not found (None) ranks below every found one.
    """
    def order(rank: int | None) -> int:
        return MAX_RANK + 1 if rank is None else rank

    out = {"better": 0, "worse": 0, "same": 0, "gained_at_5": 0, "lost_at_5": 0}
    for qid, rank in candidate.items():
        mine, theirs = order(rank), order(baseline[qid])
        out["better" if mine < theirs else "worse" if mine > theirs else "same"] += 1
        out["gained_at_5"] += mine <= 5 < theirs
        out["lost_at_5"] += theirs <= 5 < mine
    return out
