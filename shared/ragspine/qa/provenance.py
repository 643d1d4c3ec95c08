"""The final provenance check: every number in an answer must have a source (seed 002).

Allowed numbers come from found facts, differences computed from found facts, the cited
snippets, and the question itself (periods the user named). Citations (``（来源：…）`` and
``（计算自：…）``) are stripped first: locators such as ``slide=2`` are addresses, not claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

_CITATION = re.compile(r"[（(](?:来源|计算自|source|出典)[:：][^）)]*[）)]", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])[-+−]?\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True, slots=True)
class ProvenanceReport:
    """Numbers in an answer that no evidence accounts for (empty when the answer is clean)."""

    unsupported: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when every number has a source."""
        return not self.unsupported


def numbers_in(text: str) -> list[Decimal]:
    """Every number written in ``text`` as a Decimal (thousands separators and signs dropped)."""
    found = []
    for token in _NUMBER.findall(text):
        try:
            found.append(abs(Decimal(token.replace(",", "").replace("−", "-"))))
        except InvalidOperation:
            continue
    return found


def check_provenance(answer: str, *, evidence_texts: Iterable[str]) -> ProvenanceReport:
    """Compare the answer's numbers with the numbers the evidence contains (numerically: 36 == 36.0)."""
    allowed = {n.normalize() for text in evidence_texts for n in numbers_in(text)}
    claimed = numbers_in(_CITATION.sub(" ", answer))
    unsupported = tuple(dict.fromkeys(str(n) for n in claimed if n.normalize() not in allowed))
    return ProvenanceReport(unsupported)
