"""``StaticRetriever``: a NarrativeRetriever fake over fixed evidence, recording every query."""

from __future__ import annotations

from collections.abc import Sequence

from ragspine.errors import ProviderUnavailableError
from ragspine.qa.ports import Evidence, NarrativeRetriever
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


def evidence(text: str, doc: str = "ACME_FY2024_MDA.docx", locator: str = "heading=香港（ACME_HK）,para=1",
             sensitivity: Sensitivity = Sensitivity.INTERNAL, chunk_id: str | None = None) -> Evidence:
    """One evidence item with sensible defaults."""
    return Evidence(chunk_id=chunk_id or f"c-{abs(hash((doc, locator, text))) % 10**8}", doc=doc, locator=locator,
                    text=text, sensitivity=sensitivity)


_: type[NarrativeRetriever] = StaticRetriever
