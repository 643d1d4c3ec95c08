"""Every row of a section added up: "the sum of all tax credit carryforwards" names each row under that heading.

A table's section heading with rows under it and no total row ("Tax credit carryforwards:" over
``Domestic–federal``, ``Domestic–state``, ``Foreign``) is read as rows named ``tax credit
carryforwards: domestic–federal`` and so on (see ``facts.open_vocabulary``); the heading itself
states no figure. A question asking the sum, the total or the aggregate of *all* of them names the
rows by their heading only, so read as written it names no figure and goes to text search. Where the
documents' names hold two rows or more under exactly those words, the question is written with each
row's name in their place ("the sum of tax credit carryforwards: domestic–federal, … and tax credit
carryforwards: foreign"), and the question's sum adds them, each cited. Chinese and Japanese say
"all" before the heading and the sum after it: 所有税收抵免结转的合计, すべての繰越税額控除の合計.

Left as written: a heading that is itself a row's name (it states its own figure), a heading one of
whose rows is a total (the sum would count it twice), a heading with sub-headings under it (their
rows are named otherwise), and any wording without "all" (the sum of "tax credit carryforwards" may
mean one row).
"""

from __future__ import annotations

from collections.abc import Sequence

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.query_metric import QueryResult
from ragspine.lazy import LazyPattern
from ragspine.qa.total_rows import is_a_total

# "the sum of all", "the total of all the": the rows follow
_ALL_OF = LazyPattern(r"(?<![a-z])(?:sum|total)\s+of\s+all\s+(?:the\s+)?")
# 所有X的合计, 全部X之和, すべてのXの合計: "all" before the heading, the sum after it
_ALL_WORDS = ("所有", "全部", "すべての", "全ての")
_ALL_CJK = LazyPattern("|".join(_ALL_WORDS))
_SUM_AFTER_CJK = LazyPattern(r"\s*(?:的|の)?\s*(?:合计|总和|之和|合計|合算)")
_MAX_HEADING_CHARS = 30
_WORD = LazyPattern(r"[\w&'’()/–-]+")
_MAX_HEADING_WORDS = 10
_MAX_ROWS = 12


def with_section_rows(question: str, glossary: Glossary) -> str:
    """The question with "the sum of all <heading>" written as the sum of each row under that heading.

    ``question`` is in NFKC already (as ``parse_slots`` reads it). Returns it unchanged when no
    heading of the documents' rows follows the words.
    """
    lower = question.lower()
    if len(lower) != len(question):  # lower-casing moved the offsets: nothing is spliced
        return question
    cue = _ALL_OF.search(lower) if "all" in lower else None
    if cue is None:
        return question if question.isascii() else _spliced_cjk(question, lower, glossary)
    words = list(_WORD.finditer(lower, cue.end()))[:_MAX_HEADING_WORDS]
    for size in range(len(words), 0, -1):  # the longest heading first
        end = words[size - 1].end()
        rows = _rows_under(lower[cue.end():end].rstrip("?.,;: "), glossary)
        if rows:
            return f"{question[:cue.end()]}{_listed(rows)}{question[end:]}"
    return question


def from_other_tables(results: Sequence[QueryResult]) -> bool:
    """Whether the figures found are cells of more than one table.

    Asked of a sum of a section's rows (the parse's ``section_sum``): two tables may file rows under
    one heading (net sales by product, and by region), and their sum would count the whole twice, so
    nothing is added.
    """
    return len({(f.source_doc_id, f.source_locator.partition(",row=")[0]) for r in results
                if (f := r.fact) is not None}) > 1


def _spliced_cjk(question: str, lower: str, glossary: Glossary) -> str:
    if not any(word in lower for word in _ALL_WORDS):  # most questions: the pattern is not even compiled
        return question
    cue = _ALL_CJK.search(lower)
    if cue is None:
        return question
    last = min(len(lower), cue.end() + _MAX_HEADING_CHARS)
    for end in range(last, cue.end(), -1):  # the longest heading the sum's words follow first
        if not _SUM_AFTER_CJK.match(lower, end):
            continue
        rows = _rows_under(lower[cue.end():end].strip(), glossary)
        if rows:
            return f"{question[:cue.start()]}{'、'.join(rows)}{question[end:]}"
    return question


def _rows_under(heading: str, glossary: Glossary) -> list[str] | None:
    """The names of the documents' rows filed right under ``heading``, two or more and none a total; else None."""
    owner = glossary.aliases.get(heading)
    if owner is not None and owner[0] is SlotKind.METRIC:
        return None  # the words are a row's own name: that row states the figure
    under = [label_of(code) for code in glossary.terms[SlotKind.METRIC]
             if code.startswith(METRIC_PREFIX) and label_of(code).startswith(f"{heading}: ")]
    rows = [row for row in under if row.rpartition(": ")[0] == heading]
    if len(rows) != len(under):
        return None  # rows of a sub-heading too: those the sum would leave out are not named
    if len(rows) < 2 or len(rows) > _MAX_ROWS or any(is_a_total(f"{METRIC_PREFIX}{row}") for row in rows):
        return None
    if not all(glossary.aliases.get(row, (None, ""))[0] is SlotKind.METRIC for row in rows):
        return None  # a row the question could not name back
    return rows


def _listed(rows: list[str]) -> str:
    """"a, b and c"."""
    return f"{', '.join(rows[:-1])} and {rows[-1]}"
