"""Figures tied to the right period: a number a passage states for one year is not a claim about another.

The number check knows only that a value appears somewhere in the evidence. A sentence saying
"FY2025 revenue fell 7.4%" is as wrong as an invented figure when the passage holding 7.4 says
FY2024. For each sentence that names a year, each figure in it is looked up in the sentence's
passages (those it cites, else all); when every passage sentence holding the figure names years
and none is one the answer gives, the figure is misattributed. Paraphrase passes: FY2024,
2024财年 and 2024年度 are all 2024, and a figure whose passage names no year is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.llm.extractive import split_sentences
from ragspine.numbers import normalise, read_numbers, sourced_values
from ragspine.qa.ports import Evidence

_YEAR = re.compile(r"(?<!\d)(?:FY|财年|財年)?\s?((?:19|20)\d{2})(?!\d)")


def years(text: str) -> frozenset[str]:
    """The years a text names (FY2024, 2024年, 2024财年 -> "2024"), NFKC first."""
    return frozenset(_YEAR.findall(normalise(text)))


def misattributed(sentences: Sequence[tuple[str, tuple[int, ...]]], claims_of: Sequence[str],
                  evidence: Sequence[Evidence]) -> tuple[str, ...]:
    """Figures stated for a year their passages do not give them, as "value (year)".

    Args:
        sentences: each answer sentence with the 0-based passages it came from.
        claims_of: each sentence's claim text (citations and layout blanked), in the same order.
        evidence: the passages of the prompt.
    """
    found: list[str] = []
    for (_, passages), claims in zip(sentences, claims_of, strict=True):
        named = years(claims)  # citations blanked: a document name's FY2024 is an address
        if not named:
            continue
        pool = [evidence[i] for i in passages] or list(evidence)
        for mention in read_numbers(claims):
            if mention.value in named or mention.value in _ALL_YEARS:
                continue
            stated = _years_stating(mention.readings, pool) or _years_stating(mention.readings, evidence)
            if stated and all(not (named & ys) for ys in stated):
                found.append(f"{mention.value} ({'/'.join(sorted(named))})")
    return tuple(dict.fromkeys(found))


_ALL_YEARS = frozenset(str(y) for y in range(1900, 2100))


def _years_stating(readings: frozenset[str], pool: Sequence[Evidence]) -> list[frozenset[str]]:
    """The years around each place the pool states the value; empty when no place holds it.

    A place naming no year gives the passage's years, else none: then nothing can be told
    (an empty set), and the figure passes.
    """
    stated = []
    for item in pool:
        text = item.context or item.text
        whole = years(text)
        for sentence in split_sentences(text):
            if readings & sourced_values([sentence]):
                stated.append(years(sentence) or whole)
    if any(not ys for ys in stated):
        return []  # one place states it with no year: the check cannot tell, so it does not reject
    return stated
