"""The final provenance check: every number in an answer must have a source (seed 002).

Allowed numbers come from found facts, differences computed from found facts, the cited
snippets, and the question itself (periods the user named). Citations (``（来源：…）`` and
``（计算自：…）``) are stripped first: locators such as ``slide=2`` are addresses, not claims.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from dataclasses import dataclass

# A citation may hold one level of brackets itself: heading=香港（ACME_HK）,para=1.
_CITATION = re.compile(r"[（(](?:来源|计算自|source|出典)[:：](?:[^（）()]|[（(][^（）()]*[）)])*[）)]", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])[-+−]?\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True, slots=True)
class ProvenanceReport:
    """Numbers in an answer that no evidence accounts for (empty when the answer is clean)."""

    unsupported: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when every number has a source."""
        return not self.unsupported


def canonical_number(token: str) -> str:
    """One spelling per value: no sign, separators, leading or trailing zeros ("1,320.0" -> "1320")."""
    text = token.lstrip("+-−").replace(",", "")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.lstrip("0") or "0"


def numbers_in(text: str) -> list[str]:
    """Every number written in ``text``, canonical (so 36 and 36.0 compare equal)."""
    return [canonical_number(token) for token in _NUMBER.findall(text)]


def check_provenance(answer: str, *, evidence_texts: Iterable[str]) -> ProvenanceReport:
    """Compare the answer's numbers with the numbers the evidence contains."""
    return check_numbers(answer, allowed={n for text in evidence_texts for n in numbers_in(text)})


def check_numbers(answer: str, *, allowed: Set[str]) -> ProvenanceReport:
    """Compare the answer's numbers (citations stripped) with canonical numbers already known to be sourced."""
    unsupported = [n for n in numbers_in(_CITATION.sub(" ", answer)) if n not in allowed]
    return ProvenanceReport(tuple(dict.fromkeys(unsupported)) if unsupported else ())
