"""A total split into its current and non-current parts: "the total deferred revenue" names both rows.

A balance sheet or a note states many items in two rows, the part due within a year and the part
due after it (``Monetary assets, current`` and ``Monetary assets, non-current``, ``Deferred revenue
(current)``, ``Non-current deferred tax assets``), and no row of the whole. "The total USD
denominated monetary assets" names the whole: read as written, its words name neither row well
enough (or, worse, one of the two alone). Where the documents name exactly two rows that are one
item's current and non-current parts, and the words after "total" name that item (its own words,
and words of its section only besides), the phrase is written out as the sum of the two rows ("the
total of … monetary assets, current and … monetary assets, non-current"), which the question's sum
adds, each row cited.

Left as written: an item a row states whole (that row answers), two pairs of rows the words fit
(``USD denominated`` and ``Non-USD denominated`` monetary assets: a hyphenated word of a row's name
must be written in the question, as the question's must be in the row's), and a question with any
word besides the item's, its period and its arithmetic ("the total deferred revenue *at the end of the
period*" beside rows of the balance at the beginning): what the rows are not may be what is asked.
"""

from __future__ import annotations

import unicodedata

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import ASKING_WORDS, label_words

# "total" and the words after it: the item whose two parts are asked (not "the total of", a sum of its own)
_TOTAL = LazyPattern(r"(?<![a-z])total\s+(?!of\s)")
_WORD = LazyPattern(r"[\w&'’/-]+")
_MAX_WORDS = 10
# The part a row's item states: "…, current", "… (non-current)", "… – noncurrent", or "Non-current …" before it.
_PART_AFTER = LazyPattern(r"(?:\s*,\s*|\s*[-–—]\s*|\s+)\(?(?P<part>current|non[\s-]?current)\)?\s*$")
_PART_BEFORE = LazyPattern(r"^(?P<part>current|non[\s-]?current)\s+")
_COMPOUND = LazyPattern(r"[a-z0-9]+(?:-[a-z0-9]+)+")
_A_PART = LazyPattern(r"(?<![a-z-])(?:non[\s-]?)?current(?![a-z])")


def with_current_parts(question: str, glossary: Glossary) -> str:
    """The question with "total <item>" written as the sum of the item's current and non-current rows.

    ``question`` is in NFKC already (as ``parse_slots`` reads it). Returns it unchanged when the
    words after "total" name no such pair of the documents' rows.
    """
    lower = question.lower()
    if "total" not in lower or len(lower) != len(question):
        return question
    cue = _TOTAL.search(lower)
    pairs = _pairs(glossary) if cue is not None else {}
    if cue is None or not pairs:
        return question
    words = list(_WORD.finditer(lower, cue.end()))[:_MAX_WORDS]
    for size in range(len(words), 0, -1):  # the longest item first
        if not label_words(words[size - 1].group()):
            continue  # the item ends at a word of its name, never at a date or a joining word after it
        end = words[size - 1].end()
        named = lower[cue.end():end]
        if glossary.aliases.get(named) or glossary.aliases.get(f"total {named}"):
            return question  # a row states the item whole
        fitting = [pair for base, pair in pairs.items() if _names(named, base)]
        if fitting and label_words(f"{lower[:cue.start()]} {lower[end:]}") - ASKING_WORDS:
            return question  # the question's other words name something the two rows may not be ("at the end")
        if len(fitting) == 1:
            current, non_current = fitting[0]
            return f"{question[:cue.start()]}total of {current} and {non_current}{question[end:]}"
        if fitting:
            return question  # two items' parts fit the words: which is asked stays open
    return question


_PAIRS_MEMO: list[tuple[object, dict[str, tuple[str, str]]]] = []


def _pairs(glossary: Glossary) -> dict[str, tuple[str, str]]:
    """Each item the documents state in a current and a non-current row only: its name without the part, and
    the two rows' names (as the question may name them). Read once per glossary."""
    terms = glossary.terms[SlotKind.METRIC]
    if _PAIRS_MEMO and _PAIRS_MEMO[0][0] is terms:
        return _PAIRS_MEMO[0][1]
    pairs = _paired(glossary)
    _PAIRS_MEMO[:] = [(terms, pairs)]
    return pairs


def _paired(glossary: Glossary) -> dict[str, tuple[str, str]]:
    parts: dict[str, dict[str, str]] = {}
    for code in glossary.terms[SlotKind.METRIC]:
        if not code.startswith(METRIC_PREFIX):
            continue
        label = label_of(code)
        section, colon, item = label.rpartition(": ")
        for pattern in (_PART_AFTER, _PART_BEFORE):
            found = pattern.search(item)
            if found is not None:
                bare = (item[:found.start()] + item[found.end():]).strip(" ,")
                part = "current" if found["part"] == "current" else "non-current"
                parts.setdefault(f"{section}{colon}{bare}", {})[part] = label
                break
    return {base: (rows["current"], rows["non-current"]) for base, rows in parts.items()
            if len(rows) == 2 and glossary.aliases.get(base) is None
            and all(glossary.aliases.get(row, (None, ""))[0] is SlotKind.METRIC for row in rows.values())}


def _names(words: str, base: str) -> bool:
    """Whether ``words`` name the item ``base``: every word of its own, otherwise its section's only, each
    hyphenated word of either written in the other, and no word saying which part."""
    asked, section, item = label_words(words), *_split(base)
    if not item or not item <= asked or not asked <= item | section or _A_PART.search(words):
        return False
    return _compounds(words) == _compounds(base)


def _split(base: str) -> tuple[set[str], set[str]]:
    section, _, item = base.rpartition(": ")
    return label_words(section), label_words(item)


def _compounds(text: str) -> set[str]:
    """The hyphenated words of a text (``non-usd``), in NFKC lower case."""
    return set(_COMPOUND.findall(unicodedata.normalize("NFKC", text).lower()))
