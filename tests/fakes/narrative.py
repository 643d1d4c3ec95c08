"""``StaticRetriever``: a NarrativeRetriever fake over fixed evidence, recording every query."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ragspine.errors import ProviderUnavailableError
from ragspine.qa.evidence import Evidence
from ragspine.qa.ports import NarrativeRetriever
from ragspine.sensitivity import Sensitivity


class StaticRetriever:
    """Returns its evidence (within the ceiling unless ``honour_ceiling`` is False); records queries."""

    def __init__(self, evidence: Sequence[Evidence] = (), *, honour_ceiling: bool = True,
                 fail: bool = False) -> None:
        self.evidence = list(evidence)
        self.honour_ceiling = honour_ceiling
        self.fail = fail
        self.queries: list[str] = []

    def retrieve(self, query: str, *, top_k: int, max_sensitivity: Sensitivity) -> list[Evidence]:
        self.queries.append(query)
        if self.fail:
            raise ProviderUnavailableError("the index is unreachable")
        allowed = [e for e in self.evidence if not self.honour_ceiling or e.sensitivity <= max_sensitivity]
        return allowed[:top_k]


def _stable_id(*parts: str) -> str:
    # hash() of a str changes per process (PYTHONHASHSEED); digits could collide with a figure the trace tests look for.
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12].translate(str.maketrans("0123456789", "ghijklmnop"))


def evidence(text: str, doc: str = "ACME_FY2024_MDA.docx", locator: str = "heading=香港（ACME_HK）,para=1",
             sensitivity: Sensitivity = Sensitivity.INTERNAL, chunk_id: str | None = None) -> Evidence:
    """One evidence item with sensible defaults."""
    return Evidence(chunk_id=chunk_id or f"c-{_stable_id(doc, locator, text)}", doc=doc, locator=locator,
                    text=text, sensitivity=sensitivity)


_: type[NarrativeRetriever] = StaticRetriever
