"""A glossary metric's name inside a longer name a document's row states: "deferred revenue" is no revenue.

The glossary's revenue is named "revenue"; a table's rows ``Deferred revenue (current)`` and
``Deferred revenue (non-current)`` hold that word inside a longer line item. "The ratio of current
deferred revenue to non-current deferred revenue" names the rows, but the scan reads "revenue" as
the glossary's metric and the answer is "no data for revenue". A careful reader takes the longest
name the documents state: where the words written just before the metric's name (one to a few
content words, no word that only asks for arithmetic, nor "total") make with it a run of words some
document row's label writes in that order ("deferred revenue", "hardware revenue"; 繰延収益 over a
row of that name), the metric is not read there, and the question's words are left to the rows'
readers (``label_words``), which take a row only where one is clearly meant.

Kept as the metric: a longer name the glossary itself lists (the scan already took the longest
alias), and a longer name no open row states (a row coded as the metric has no open label: its
figures are the metric's own). "net sales" over rows of "Net sales" is the rows' where the glossary
lists only "sales".
"""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, Mention, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import ASKING_WORDS, label_words_in_order

_MAX_QUALIFIERS = 3  # words before the name: "current deferred revenue", "net product sales"
_NOT_QUALIFYING = ASKING_WORDS | {"total"}  # "total revenue" is the metric; "average revenue" asks its mean
_CJK_CHARS = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+"
_CJK_NAME = LazyPattern(_CJK_CHARS)
# The characters just before a name that may qualify it: kanji and katakana written right before it, after
# any particle (hiragana, 的, 和, …: "の流動資産" names 流動資産, never the row その他の流動資産)
_CJK_TAIL = LazyPattern(r"[\u30a0-\u30ff\u3400-\u9fff\uf900-\ufaff]+$")
_CJK_PARTICLE = LazyPattern(r".*[的和与與及或占是为為在]")
_MAX_CJK_QUALIFIER = 6

_MEMO: list[tuple[object, tuple[frozenset[tuple[str, ...]], tuple[str, ...]]]] = []


def without_names_inside_rows(question: str, mentions: list[Mention], glossary: Glossary) -> list[Mention]:
    """``mentions`` less each glossary metric's whose name the question writes inside a longer row name."""
    metrics = [m for m in mentions if m.kind is SlotKind.METRIC and m.code and not m.code.startswith(METRIC_PREFIX)]
    if not metrics:
        return mentions
    runs, labels = _row_names(glossary)
    if not labels:
        return mentions
    norm = normalize_text(question)
    inside = [m for m in metrics if _inside_row_name(norm, m, mentions, runs, labels)]
    return [m for m in mentions if m not in inside] if inside else mentions


def _inside_row_name(norm: str, mention: Mention, mentions: list[Mention],
                     runs: frozenset[tuple[str, ...]], labels: tuple[str, ...]) -> bool:
    before_start = max((m.end for m in mentions if m.end <= mention.start), default=0)
    before = norm[before_start:mention.start]
    name = norm[mention.start:mention.end]
    if _CJK_NAME.fullmatch(name):  # written without spaces: the characters just before the name, as one row writes them
        qualifier = _CJK_TAIL.search(before)
        written = qualifier.group() if qualifier is not None else ""
        tail = _CJK_PARTICLE.sub("", written, count=1)[-_MAX_CJK_QUALIFIER:]
        return any(f"{tail[at:]}{name}" in label for at in range(len(tail)) for label in labels)
    own = label_words_in_order(name)
    if not own:
        return False
    qualifiers = label_words_in_order(before)
    for size in range(1, min(_MAX_QUALIFIERS, len(qualifiers)) + 1):
        word = qualifiers[-size]
        if word in _NOT_QUALIFYING:
            return False
        if (*qualifiers[-size:], *own) in runs:
            return True
    return False



def _row_names(glossary: Glossary) -> tuple[frozenset[tuple[str, ...]], tuple[str, ...]]:
    """Every run of two or more content words the documents' open row labels write in order, and the labels
    themselves (for names written without spaces). Read once per glossary."""
    terms = glossary.terms[SlotKind.METRIC]
    if _MEMO and _MEMO[0][0] is terms:
        return _MEMO[0][1]
    runs: set[tuple[str, ...]] = set()
    labels: list[str] = []
    for code in terms:
        if not code.startswith(METRIC_PREFIX):
            continue
        label = label_of(code)
        labels.append(normalize_text(label))
        words = label_words_in_order(label)
        runs.update(tuple(words[at:end]) for at in range(len(words)) for end in range(at + 2, len(words) + 1))
    found = (frozenset(runs), tuple(labels))
    _MEMO[:] = [(terms, found)]
    return found
