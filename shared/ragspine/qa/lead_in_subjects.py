"""A question naming a table's subject in the words of the sentence leading into it.

"What was the balance of total gross unrecognized tax benefits at the end of period in 2018?"
asks the row ``Balance at end of period`` of the table that "The reconciliation of our total
gross unrecognized tax benefits is as follows:" leads into. The subject's words are no row's, so
the question reads no figure and is asked back which one. Where a sentence leading into a table
(ending with a colon) in a passage the index returns for the question states a run of the
question's words (three content words or more, in a row), that run names the table, not the
row: the question is read again without it, and its answer stands only when every figure comes
from the document whose sentence it was, of a row sharing no word with the run (``answered_from``).

Deterministic: the same index gives the same reading; no model decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine.facts.open_vocabulary import label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import label_words
from ragspine.qa.passage_probe import probe_passages

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ragspine.facts.glossary import Glossary
    from ragspine.facts.query_metric import QueryResult
    from ragspine.qa.ports import NarrativeRetriever
    from ragspine.sensitivity import Sensitivity

MIN_SUBJECT_WORDS = 3  # fewer content words in common say too little to name a table
_SENTENCE_END = LazyPattern(r"(?<=[.!?。])\s+|\n+")
_TOKEN = LazyPattern(r"[A-Za-z0-9][\w'’-]*")


@dataclass(frozen=True, slots=True)
class LeadInSubject:
    """The question without the run of words naming a table, and the document whose sentence states them."""

    question: str
    words: str
    doc: str


def lead_in_subject(question: str, *, glossary: Glossary, retriever: NarrativeRetriever | None,
                    max_sensitivity: Sensitivity) -> LeadInSubject | None:
    """The reading of this module's docstring, or None (no index, no such sentence, or two documents' runs).

    The index is asked only when the words the glossary does not read could hold both a subject
    and a row ("Hong Kong's numbers for 2024" cannot: it is asked back without a search).
    """
    if retriever is None:
        return None
    if len(label_words(glossary.leftover(question, glossary.scan(question)))) <= MIN_SUBJECT_WORDS:
        return None
    evidence = probe_passages(retriever, question, max_sensitivity=max_sensitivity,
                              on_failure="lead-in probe failed; the question is asked back as it stands")
    if evidence is None:
        return None
    found: dict[tuple[int, int], set[str]] = {}
    for item in evidence:
        for sentence in _SENTENCE_END.split(item.text):
            if not sentence.rstrip().endswith((":", "：")):
                continue
            span = _longest_run(question, label_words(sentence))
            if span is not None:
                found.setdefault(span, set()).add(item.doc)
    if not found:
        return None
    longest = max(found, key=lambda span: span[1] - span[0])
    tied = [span for span in found if span[1] - span[0] == longest[1] - longest[0]]
    docs = found[longest]
    if len(tied) != 1 or len(docs) != 1:
        return None
    start, end = longest
    rest = " ".join(f"{question[:start]} {question[end:]}".split())
    return LeadInSubject(rest, question[start:end], docs.pop())


def _longest_run(question: str, stated: set[str]) -> tuple[int, int] | None:
    """The longest run of the question's words whose content words the sentence all states (stop words inside
    it allowed, not at its ends), with ``MIN_SUBJECT_WORDS`` content words or more; its character span."""
    tokens = [(m.start(), m.end(), label_words(m.group())) for m in _TOKEN.finditer(question)]
    best: tuple[int, int] | None = None
    best_count = 0
    i = 0
    while i < len(tokens):
        if not tokens[i][2] or not tokens[i][2] <= stated:
            i += 1
            continue
        j, count, last = i, 0, i
        while j < len(tokens) and tokens[j][2] <= stated:
            if tokens[j][2]:
                count, last = count + 1, j
            j += 1
        if count >= MIN_SUBJECT_WORDS and count > best_count:
            best, best_count = (tokens[i][0], tokens[last][1]), count
        i = j
    return best


def answered_from(subject: LeadInSubject, results: Iterable[QueryResult]) -> bool:
    """Whether some figure was found, every figure found comes from the subject's document, and no row read shares
    a word with the subject: words of the row itself named the row, never the table ("total" of "Total …")."""
    found = [result.fact for result in results if result.fact is not None]
    dropped = label_words(subject.words)
    return bool(found) and all(fact.source_doc_id == subject.doc and not label_words(label_of(fact.metric_code))
                               & dropped for fact in found)
