"""The document rows a question's own words name, for a metric asked back.

When no row is read from a question, the rows offered back must be the ones its words name,
not rows that share a unit with it: "running water consumption (MWh)" names the row "Running
water consumption (tonnes)", never "Diesel (MWh)". What a label or a question writes in brackets
says how a figure is measured, not which row it is.
"""

from __future__ import annotations

import re

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import label_words

_BRACKETED = LazyPattern(r"\([^()]*\)|（[^（）]*）|\[[^\[\]]*\]")


def rows_named_by_words(words: str, glossary: Glossary) -> tuple[str, ...]:
    """Row codes every word of whose label outside brackets ``words`` writes, the most specific first."""
    asked = label_words(words)
    if not asked:
        return ()
    named: list[tuple[int, str]] = []
    for code in glossary.terms[SlotKind.METRIC]:
        if code.startswith(METRIC_PREFIX):
            row = label_words(_BRACKETED.sub(" ", label_of(code)))
            if row and row <= asked:
                named.append((len(row), code))
    return tuple(code for _, code in sorted(named, key=lambda pair: -pair[0]))


def outside_brackets(names: tuple[str, ...], question: str) -> tuple[str, ...]:
    """The names ``question`` writes at least once outside brackets (a bracketed "(MWh)" is a unit, no name)."""
    plain = _BRACKETED.sub(" ", question)
    return tuple(name for name in names if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", plain))
