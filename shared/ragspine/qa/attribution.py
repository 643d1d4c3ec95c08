"""Figures tied to the right period and entity: a number a passage states for one is not a claim about another.

The number check knows only that a value appears somewhere in the evidence. A sentence saying
"FY2025 revenue fell 7.4%" is as wrong as an invented figure when the passage holding 7.4 says
FY2024. For each sentence that names a year, each figure in it is looked up in the prompt's
passages; when every passage sentence holding the figure names years and none is one the answer
gives, the figure is misattributed. Paraphrase passes: FY2024,
2024财年 and 2024年度 are all 2024, and a figure whose passage names no year is left alone. Entities work
the same way through the glossary's names (香港, Hong Kong and ACME_HK are one entity): Japan's
figure under Hong Kong is rejected as "value (ACME_HK)".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ragspine.llm.extractive import split_sentences
from ragspine.numbers import read_numbers, sourced_values
from ragspine.numbers.years import years
from ragspine.qa.evidence import Evidence

Namer = Callable[[str], frozenset[str]]


def misattributed(claims_of: Sequence[str], evidence: Sequence[Evidence], *,
                  entities: Namer | None = None) -> tuple[str, ...]:
    """Figures stated for a year (or entity) no passage gives them, as "value (year)".

    Args:
        claims_of: each answer sentence's claim text (citations and layout blanked).
        evidence: the passages of the prompt.
        entities: names the entities of a text; None checks years only.
    """
    namers: list[Namer] = [years] + ([entities] if entities is not None else [])
    found: list[str] = []
    for claims in claims_of:
        for namer in namers:
            named = namer(claims)  # citations blanked: a document name's FY2024 is an address
            if not named:
                continue
            for mention in read_numbers(claims):
                if mention.value in _ALL_YEARS:
                    continue
                # Any passage of the prompt stating it for the named year or entity sources it: a
                # figure the cited passage gives another entity only has a loose citation.
                stated = _named_where_stated(mention.readings, evidence, namer)
                if stated and all(not (named & ns) for ns in stated):
                    found.append(f"{mention.value} ({'/'.join(sorted(named))})")
    return tuple(dict.fromkeys(found))


_ALL_YEARS = frozenset(str(y) for y in range(1900, 2100))


def _named_where_stated(readings: frozenset[str], pool: Sequence[Evidence], namer: Namer) -> list[frozenset[str]]:
    """What ``namer`` finds around each place the pool states the value; empty when no place holds it.

    A place naming nothing gives its passage's names (text and locator: a heading such as
    香港（ACME_HK） names the entity); a passage naming nothing leaves the check unable to tell,
    and the figure passes.
    """
    stated = []
    for item in pool:
        text = item.context or item.text
        whole = namer(text) or namer(item.locator)
        for sentence in split_sentences(text):
            if readings & sourced_values([sentence]):
                stated.append(namer(sentence) or whole)
    if any(not ns for ns in stated):
        return []
    return stated
