"""A row named once beside the columns whose cells are asked: each column's cell of that row read.

A table whose columns are parts (segments, cost types: "Workforce reduction", "Facility costs",
"Total") is read as one row per column, named with the column's heading before the row's label
(``workforce reduction: balance payable``); the ``Total`` column keeps the bare label. A question
names such cells the other way round, the row once and the columns apart: "For Balance payable as at
June 30, 2019, what is the difference between Workforce reduction and Facility costs?", "the net
balances at September 30, 2019 for Cubic Mission Solutions and Cubic Global Defense". Read as
written, only the bare row is named (the total column's figure, which was not asked), and the
column words are left over. Where the documents name a row for each column with that label, the
question is written with each column's row in place of its column words ("Workforce reduction
balance payable"), and the bare label is taken out, so the cells asked are read and nothing else.
The same holds the other way round, where the rows are the parts and the question names the
column's heading once: a ``Total Expected Charges`` column over segment rows is read as
``total expected charges: transportation solutions`` and so on, its ``Total`` row as the bare
heading, and "the difference in total expected charges between Transportation Solutions and
Industrial Solutions" asks the two segments' cells, written "total expected charges Transportation
Solutions", as the documents name them.

A row named right after the words a share divides by ("what percentage of operating leases is due in
more than 5 years") is the whole: its own name is kept beside the column's row, so the row's Total
column cell (the bare label) is read with the cell it is divided into.

"The total" named as one of the columns asked ("the difference in the gross carrying amount
between the current and the total") is the ``Total`` column, whose cell is the bare label: it is
written as that label, so the cell is read beside the other columns'.

Only a document row (a table label, not a glossary metric) named once is read so: a label written
twice ("balances in A and B over total balances") may pair with either column, and the question
stays as written. Column words must be whole words outside every other name the question holds, and
none of them a word asking for arithmetic or a total ("the change in revenue" never reads a ``Change``
column's cell: the question asks a change).
"""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, Mention, SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import ASKING_WORDS

_WORD = LazyPattern(r"[\w&'-]+")
_MAX_COLUMN_WORDS = 5
# words that introduce or join names, never the first or last word of a column's heading
_EDGE_WORDS = frozenset({"the", "a", "an", "and", "or", "to", "of", "for", "in", "between", "vs", "versus",
                         "what", "is", "was", "how", "much", "by", "from", "on", "at", "as", "with"})
# The words naming the whole a share divides by, right before it: "… as a percentage of [the] X", "what
# percentage of X …"
DIVIDES_BY = LazyPattern(r"(?<![a-z])(?:as an? (?:percentage|percent|share|proportion|fraction) of|"
                         r"(?:what|which) (?:percentage|percent|share|proportion|fraction) of)\s+(?:the\s+)?$")
_ASKING = ASKING_WORDS | {"total", "totals", "sum", "combined"}
# "between the current and the total": "total" alone as one of the names joined, a column's heading
_TOTAL_COLUMN = LazyPattern(r"(?<![a-z])(?:and|or|between|vs\.?|versus)\s+(?:the\s+)?(?P<total>total)"
                            r"(?=\s*(?:[?.,;]|$|(?:and|or|vs\.?|versus)(?![a-z])))")


def with_column_rows(question: str, mentions: list[Mention], glossary: Glossary) -> str:
    """The question with each column named beside a row named once written as that column's row.

    ``mentions`` are ``glossary.scan(question)``'s. Returns ``question`` itself when nothing is read so.
    """
    if not question.isascii():
        return question
    lower = question.lower()
    rows = [m for m in mentions if m.kind is SlotKind.METRIC and m.code and m.code.startswith(METRIC_PREFIX)]
    if len(rows) != 1:
        return question
    row = rows[0]
    label = lower[row.start:row.end]
    if _occurrences(lower, label) != 1:
        return question
    columns = _columns_named(lower, label, row.code or "", mentions, glossary)
    if not columns:
        return question
    named = question[row.start:row.end]
    spans = [(start, end, f"{named} {question[start:end]}" if label_first else f"{question[start:end]} {named}")
             for start, end, label_first in columns]
    total = _TOTAL_COLUMN.search(lower)
    # "total" is the glossary's total channel too: a column's heading here, so only another name over it keeps it
    if total is not None and not columns[0][2] and not any(
            m.start < total.end("total") and total.start("total") < m.end for m in mentions
            if m.kind is not SlotKind.CHANNEL):
        spans.append((total.start("total"), total.end("total"), named))  # the Total column's cell: the bare label
    # "what percentage of operating leases is due in more than 5 years": the row named is the whole, its own
    # figure (the Total column's cell) read beside the column's cell it is divided into
    whole = named if len(columns) == 1 and DIVIDES_BY.search(lower[:row.start]) else ""
    pieces: list[str] = []
    at = 0
    for start, end, written in sorted([*spans, (row.start, row.end, whole)]):
        pieces.append(question[at:start])
        pieces.append(written)
        at = end
    pieces.append(question[at:])
    return " ".join("".join(pieces).split())


def _occurrences(lower: str, label: str) -> int:
    words = label.split()
    tokens = [m.group() for m in _WORD.finditer(lower)]
    return sum(tokens[i:i + len(words)] == words for i in range(len(tokens)))


def _columns_named(lower: str, label: str, code: str, mentions: list[Mention],
                   glossary: Glossary) -> list[tuple[int, int, bool]]:
    """Spans of the question's words each naming a column of the row (the longest first), outside every name,
    each with whether the documents write the label first (the column's heading named once, the rows apart).

    Every column read so is read in the same order: a question naming one part once names all the others apart.
    """
    taken = [(m.start, m.end) for m in mentions]
    words = [w for w in _WORD.finditer(lower)]
    found: list[tuple[int, int, bool]] = []
    codes: set[str] = set()
    i = 0
    while i < len(words):
        for size in range(min(_MAX_COLUMN_WORDS, len(words) - i), 0, -1):
            first, last = words[i], words[i + size - 1]
            if first.group() in _EDGE_WORDS or last.group() in _EDGE_WORDS or any(
                    w.group() in _ASKING for w in words[i:i + size]):
                continue
            span = (first.start(), last.end())
            if any(s < span[1] and span[0] < e for s, e in taken):
                continue
            words_named = lower[span[0]:span[1]]
            owner = glossary.aliases.get(f"{words_named} {label}")
            label_first = owner is None
            if label_first:
                owner = glossary.aliases.get(f"{label} {words_named}")
            if owner is None or owner[0] is not SlotKind.METRIC or owner[1] == code or owner[1] in codes:
                continue
            found.append((*span, label_first))
            codes.add(owner[1])
            i += size - 1
            break
        i += 1
    return found if len({label_first for *_, label_first in found}) <= 1 else []
