"""Names the documents state in their text: words of those documents, not companies the domain does not know.

"What were the total liabilities of IMFT in 2018?" names IMFT, a joint venture whose balance
sheet a report's table gives and whose text says so ("the assets and liabilities of IMFT");
"What was the issued DSU in 2019?" an abbreviation the notes define ("the following DSUs were
issued"). Neither is a glossary entity nor a word of a stored row, so the question would be
asked back which company IMFT is. Where a visible document states every such name as written,
the question is answered from that document alone, and only with figures whose row the passage
stating the name names too: the report that says "IMFT sales to Intel" never answers Intel's
liabilities with IMFT's. Anything else keeps the question back, and a name no visible document
states ("Globex") is asked back as before.

A word merely capitalised is read as the documents' own only where the question quotes their
wording: "the average of Committed global credit facilities", where the text writes "committed
global credit facilities" in lower case and the row read is "credit facilities". The question
capitalised a common word of that phrase; a name keeps its capital wherever a document writes it,
so "Hotels" or "Intel" beside a row stays asked back.

Deterministic: the same index gives the same reading; no model decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine.facts.glossary import SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import label_words
from ragspine.qa.passage_probe import probe_passages
from ragspine.text import CJK

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary
    from ragspine.facts.query_metric import QueryResult
    from ragspine.qa.ports import NarrativeRetriever
    from ragspine.sensitivity import Sensitivity


_CJK = LazyPattern(f"[{CJK}]")
_ABBREVIATION = LazyPattern(r"[A-Z][A-Z0-9&.-]*[A-Z0-9]")
# A passage pointing at a table: "The following table presents …", "… are shown below", "… as follows:"
_WORD = LazyPattern(r"[^\W_]+(?:[-'’][^\W_]+)*")
# the words of one phrase: spaces, hyphens and commas between them, never a sentence's end
_BETWEEN_WORDS = r"[\s,\-–]+"
# a capitalised word opens the phrase quoting a row at most this many words before the row's last word
_PHRASE_WORDS = 6
# what may come just before a sentence's first word: its end, a line's end, a heading's or a table cell's mark
_SENTENCE_OPENERS = frozenset(".!?:;\n#|*-–")
_POINTS_AT_TABLE = LazyPattern(r"(?i)\b(?:following\s+table|table\s+below|shown\s+below|as\s+follows)\b|[:：]\s*$")


@dataclass(frozen=True, slots=True)
class StatedNames:
    """Unknown names of a question and, per visible document stating them all, its passages stating one.

    ``common_words``: those of ``names`` that are no name at all, a capitalised word of a phrase the
    documents write in lower case (said with the answer as no reading of a company).
    """

    names: tuple[str, ...]
    passages: Mapping[str, tuple[str, ...]]
    common_words: tuple[str, ...] = ()


def names_stated(names: Iterable[str], question: str, *, retriever: NarrativeRetriever | None,
                 max_sensitivity: Sensitivity, rows: Iterable[str] = ()) -> StatedNames | None:
    """The visible documents whose retrieved passages state every one of ``names`` as written, or None.

    Latin names are read only when written in capitals, and matched as whole words in their own
    case ("IMFT", "IMFT's"; never "imft" inside another word), CJK names as written. A word merely
    capitalised counts only as the first word of a phrase of the question that runs on to the
    words of one of ``rows`` (the names of the rows read) and that the document writes in lower
    case ("committed global credit facilities"). None when no document states them all, when a
    name is a month (dates are periods), when there is no index, or when the index cannot be reached.
    """
    wanted = tuple(name for name in names if name.strip())
    # a month ("as of September 30, 2018") has no label words: a date is a period, asked back as one
    if retriever is None or not wanted or any(name.isascii() and not label_words(name) for name in wanted):
        return None
    # a Latin name counts in capitals, an abbreviation its document defines (IMFT, DSU); a word merely
    # capitalised ("Hotels", "Intel") may be a segment or a company whose figure the row is not, so it
    # counts only as the question's copy of a phrase the document writes in lower case
    plain = tuple(name for name in wanted if not _CJK.search(name) and not _ABBREVIATION.fullmatch(name))
    phrases = {name: lower_case_phrase(name, question, rows) for name in plain}
    if any(phrase is None for phrase in phrases.values()):
        return None
    evidence = probe_passages(retriever, question, max_sensitivity=max_sensitivity,
                              on_failure="name probe failed; the name stays unknown")
    if evidence is None:
        return None
    texts: dict[str, list[str]] = {}
    for item in evidence:
        texts.setdefault(item.doc, []).append(item.text)

    def states(passage: str, name: str) -> bool:
        phrase = phrases.get(name)
        return phrase.search(passage) is not None if phrase is not None else _states(passage, name)

    # a word the document also writes with its capital inside a sentence ("the Hotels segment") is its name
    stating = {doc: tuple(p for p in passages if any(states(p, name) for name in wanted))
               for doc, passages in texts.items()
               if all(any(states(p, name) for p in passages) for name in wanted)
               and not any(_capitalised_inside_a_sentence(p, name) for p in passages for name in plain)}
    return StatedNames(wanted, stating, plain) if stating else None


def lower_case_phrase(name: str, question: str, rows: Iterable[str]) -> re.Pattern[str] | None:
    """The question's words from ``name`` on to the last word of a row's name, as a passage writes them in
    lower case; None when no row's words follow the name within a few words.

    "Committed global credit facilities" with the row "credit facilities" matches "committed global
    credit facilities"; "Committed" before "revenue" with the row "credit facilities" is None.
    """
    items = [own for row in rows if (own := label_words(row.rpartition(": ")[2]))]
    words = [(m.group(), m.start()) for m in _WORD.finditer(question)]
    starts = [i for i, (word, _) in enumerate(words) if word == name]
    if len(starts) != 1 or not items:
        return None
    first = starts[0]
    for last in range(first + 1, min(first + 1 + _PHRASE_WORDS, len(words))):
        said = label_words(" ".join(word for word, _ in words[first + 1:last + 1]))
        if any(own <= said for own in items):
            lower = [word.lower() for word, _ in words[first:last + 1]]
            return re.compile(r"(?<![\w])" + _BETWEEN_WORDS.join(map(re.escape, lower)) + r"(?![\w])")
    return None


def ties_every_figure(stated: StatedNames, results: Iterable[QueryResult], glossary: Glossary) -> bool:
    """Whether each figure found comes from a document stating the names, in a passage naming its row too.

    At least one figure must be found; a row is named when the passage holds at least half of
    its label's words (a CJK label: its line item as written), or when the passage points at a table
    and names the row's section: "The following table presents the assets and liabilities of IMFT"
    names each row under ``Assets``, "Property, plant, and equipment" too.
    """
    found = [result.fact for result in results if result.fact is not None]
    return bool(found) and all(
        any(names_row(passage, fact.metric_code, glossary) or _leads_into_section(passage, fact.metric_code)
            for passage in stated.passages.get(fact.source_doc_id, ()))
        for fact in found)


def metric_names(code: str, glossary: Glossary) -> list[str]:
    """A metric's names: a document row's label, or a glossary metric's names and aliases."""
    if code.startswith(METRIC_PREFIX):
        return [label_of(code)]
    return [*glossary.term(SlotKind.METRIC, code).names.values(),
            *(alias for alias, (kind, owner) in glossary.aliases.items() if kind is SlotKind.METRIC and owner == code)]


def names_row(passage: str, code: str, glossary: Glossary) -> bool:
    """Whether a passage names a metric: at least half the words of one of its names, or a CJK name as written."""
    names = metric_names(code, glossary)
    words = label_words(passage)
    for name in names:
        own = label_words(name)
        if own and len(own & words) * 2 >= len(own):
            return True
        item = name.rpartition(": ")[2].strip()
        if not own and item and item in passage:  # CJK: no word breaks, the line item as written
            return True
    return False


def _leads_into_section(passage: str, code: str) -> bool:
    """Whether a passage pointing at a table names every word of a document row's section heading."""
    if not code.startswith(METRIC_PREFIX):
        return False
    section, colon, _ = label_of(code).rpartition(": ")
    own = label_words(section) if colon else set()
    return bool(own) and own <= label_words(passage) and _POINTS_AT_TABLE.search(passage) is not None


def _capitalised_inside_a_sentence(text: str, word: str) -> bool:
    """Whether ``text`` writes ``word`` with its capital anywhere but at a sentence's or a heading's start."""
    for match in re.finditer(rf"(?<![\w]){re.escape(word)}(?![\w])", text):
        before = text[:match.start()].rstrip(" \t\"“‘'(")
        if before and before[-1] not in _SENTENCE_OPENERS:
            return True
    return False


def _states(text: str, name: str) -> bool:
    if _CJK.search(name):
        return name in text
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None
