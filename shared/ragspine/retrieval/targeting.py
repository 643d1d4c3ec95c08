"""Which indexed documents a question names, by their company (or entity) and fiscal year.

"What was Amazon's FY2017 DPO?" names one filing: the company of its document context and
its period. BM25 over the context alone cannot settle that (every page of 20 filings says
"10-K", most say a year), so the retriever asks this module for the documents named and
ranks their passages first (``HybridRetriever``); a question naming no known company
targets nothing and is searched as before.

Matching is on words, case and punctuation aside: a company matches when its name, without
legal suffixes ("Inc.", "Corporation", a leading "The"), is a run of the question's words,
or is written together as one word ("Coca Cola" ~ "Cocacola", "Kraft Heinz's" ~
"Kraftheinz"). Of that company's documents the question then keeps those whose year it
names, the latest of them when it names several (a 10-K of 2022 holds 2020 to 2022:
"FY2020 to FY2022" asks the 2022 filing). A company named without a year of its documents
names none of them: on the ACME sample, "Which membership levels does ACME offer?" would
otherwise target every ACME report but the policy that answers it (R@1 0.635 -> 0.615).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

_WORD = re.compile(r"[^\W_]+")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_SUFFIXES = frozenset({"the", "inc", "incorporated", "corporation", "corp", "company", "co", "plc", "ltd",
                       "limited", "llc", "lp", "sa", "ag", "nv", "se", "holdings", "group", "and", "subsidiaries"})
_MAX_JOINED = 3  # "Coca Cola" is two words for one name; three covers "Wal Mart Stores"


@dataclass(frozen=True, slots=True)
class DocumentRef:
    """One searchable document and its context: what a question may name it by."""

    doc_id: str
    company: str | None
    doc_period: str | None


@runtime_checkable
class DocumentCatalog(Protocol):
    """An index that can list its documents' contexts (both shipped indexes can)."""

    def documents(self) -> list[DocumentRef]:
        """Every document with a searchable passage, each once."""
        ...


def company_words(company: str) -> tuple[str, ...]:
    """``"The Boeing Company"`` → ``("boeing",)``; the name's words without legal suffixes."""
    words = [w for w in _WORD.findall(company.casefold())]
    kept = [w for w in words if w not in _SUFFIXES]
    return tuple(kept or words)


def named_documents(query: str, documents: Sequence[DocumentRef]) -> tuple[str, ...]:
    """The doc_ids the question names (see the module docstring); empty when it names none."""
    words = _WORD.findall(query.casefold())
    if not words or not documents:
        return ()
    runs = _runs(words)
    joined = {"".join(words[i:i + n]) for n in range(1, _MAX_JOINED + 1) for i in range(len(words) - n + 1)}
    by_company: dict[tuple[str, ...], list[DocumentRef]] = {}
    for ref in documents:
        if ref.company:
            key = company_words(ref.company)
            if key and (key in runs.get(len(key), ()) or "".join(key) in joined):
                by_company.setdefault(key, []).append(ref)
    if not by_company:
        return ()
    years = {int(y) for y in _YEAR.findall(query)}
    chosen: list[str] = []
    for refs in by_company.values():
        dated = [(year, ref) for ref in refs if (year := _year(ref.doc_period)) is not None and year in years]
        if dated:
            latest = max(year for year, _ in dated)
            chosen.extend(ref.doc_id for year, ref in dated if year == latest)
    return tuple(dict.fromkeys(chosen))


def _runs(words: Sequence[str]) -> dict[int, set[tuple[str, ...]]]:
    """Every run of 1 to 6 consecutive words, by length."""
    return {n: {tuple(words[i:i + n]) for i in range(len(words) - n + 1)} for n in range(1, 7)}


def _year(period: str | None) -> int | None:
    match = _YEAR.search(period or "")
    return int(match.group(1)) if match else None
