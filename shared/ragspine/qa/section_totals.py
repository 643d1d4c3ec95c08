"""A section heading named as a figure is its total row: "the average of Net revenues by geographical region".

A table may file its rows under headings that say more than any glossary term ("Net revenues by
geographical region of shipment:" over ``EMEA``, ``Americas``, ``Asia Pacific``, ``Total revenues``);
the rows are read as ``net revenues by geographical region of shipment: emea`` and so on (see
``facts.open_vocabulary``) and the heading itself states no figure. A question naming that heading
word for word, and none of its rows, asks the figure the heading stands for: its one total row. Read as
written, the glossary's term inside the heading ("revenues") would win and find no figure, or the
company's figure under another heading.

Left as written: a heading that is itself a name of the glossary (a bare "revenue" or "net sales"
stays the company's revenue), a heading that says no more than a glossary name inside it, a heading
with no total row or more than one, and a question that also names one of the heading's rows
("cloud and license revenues from the Americas": a part of it, never its total).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.qa.label_words import label_words
from ragspine.qa.total_rows import is_a_total

_MIN_WORDS_BEYOND_TERM = 2  # the heading says more than the glossary's term: "net revenues by region", not "net sales"


def with_section_totals(question: str, glossary: Glossary) -> str:
    """The question with a section heading it names as a figure written as that section's total row's name.

    ``question`` is in NFKC already (as ``parse_slots`` reads it). Returns it unchanged when it names
    no such heading.
    """
    lower = question.lower()
    if len(lower) != len(question) or not lower.isascii():  # offsets must hold; CJK headings are not read here
        return question
    rows_of = _rows_by_heading(glossary)
    for heading in sorted(rows_of, key=len, reverse=True):  # the longest heading first
        if heading not in lower:  # most headings: the question does not write them at all
            continue
        match = re.search(rf"(?<![\w-]){re.escape(heading)}(?![\w-]|:)", lower)
        if match is None or heading in glossary.aliases:
            continue
        rows = rows_of[heading]
        totals = [row for row in rows if is_a_total(f"{METRIC_PREFIX}{row}")]
        if len(totals) != 1 or not _says_more_than_a_term(heading, glossary):
            continue
        outside = label_words(f"{lower[:match.start()]} {lower[match.end():]}")
        if any(_item_named(row, outside) for row in rows if row not in totals):
            continue  # a row of the heading named beside it: the question asks a part, never the whole
        if glossary.aliases.get(totals[0], (None, ""))[0] is not SlotKind.METRIC:
            continue  # a row the question could not name back
        return f"{question[:match.start()]}{totals[0]}{question[match.end():]}"
    return question


# The headings of the last few glossaries' metric sections, each kept with the section it was read from: the
# entry holds that object, so its id names no other while the entry stands (every full parse reads this).
_HEADINGS: dict[int, tuple[Mapping[str, object], dict[str, list[str]]]] = {}
_HEADINGS_KEPT = 8


def _rows_by_heading(glossary: Glossary) -> dict[str, list[str]]:
    """The documents' row names filed right under each heading (headings of one level only), read once per
    glossary's metric section."""
    metrics = glossary.terms[SlotKind.METRIC]
    kept = _HEADINGS.get(id(metrics))
    if kept is not None and kept[0] is metrics:
        return kept[1]
    rows = _read_rows_by_heading(glossary)
    if len(_HEADINGS) >= _HEADINGS_KEPT:
        _HEADINGS.clear()
    _HEADINGS[id(metrics)] = (metrics, rows)
    return rows


def _read_rows_by_heading(glossary: Glossary) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for code in glossary.terms[SlotKind.METRIC]:
        if code.startswith(METRIC_PREFIX) and ": " in (label := label_of(code)):
            heading = label.rpartition(": ")[0]
            if ": " not in heading:
                rows.setdefault(heading, []).append(label)
    return rows


def _says_more_than_a_term(heading: str, glossary: Glossary) -> bool:
    """Whether the heading holds words beyond those of every glossary name written inside it."""
    words = label_words(heading)
    if len(words) <= _MIN_WORDS_BEYOND_TERM:
        return False
    inside = [label_words(m.raw) for m in glossary.scan(heading) if m.kind is SlotKind.METRIC]
    return all(len(words - named) >= _MIN_WORDS_BEYOND_TERM for named in inside)


def _item_named(row: str, outside: set[str]) -> bool:
    """Whether the question's words outside the heading hold every word of the row's own item."""
    item = label_words(row.rpartition(": ")[2])
    return bool(item) and item <= outside
