"""Scope against the ingested knowledge: "outside our business" means outside the domain *and* the documents.

Screening decides from the domain's words alone (glossary aliases, business terms, off-topic
subjects). A company that ingests its own filings asks about things no word list foresaw
("AMCOR's Adjusted EBITDA"), and a subject that is off-topic for most companies (electric
cars) is the business of a company whose documents are about it. So an out-of-scope verdict
is checked once more against the documents the caller may see: it stands unless the
documents themselves state the question's subject words. Deterministic: the same index gives
the same verdict; no model decides.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ragspine.facts.glossary import SlotKind
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.qa.label_words import label_words
from ragspine.qa.passage_probe import probe_passages
from ragspine.qa.screening import RefusalReason, screening_text
from ragspine.qa.slots import parse_slots
from ragspine.text import CJK

if TYPE_CHECKING:
    from ragspine.domain import standard_names
    from ragspine.facts.glossary import Glossary
    from ragspine.qa.ports import NarrativeRetriever
    from ragspine.qa.refusal import Refusal
    from ragspine.sensitivity import Sensitivity
else:  # the pack's file is read only when a question names no business term: most never load it
    standard_names = LazyModule("ragspine.domain.standard_names")


# Chinese and Japanese runs as the retrieval index reads them: 々 and 〇 stay inside their words (各々, 二〇二四年)
_CJK_RUN = LazyPattern(rf"[{CJK}]{{2,}}")
_WORD = LazyPattern(rf"[a-z][a-z0-9&\-]*[a-z0-9]|[{CJK}]{{2,}}")
# Words that say nothing about a subject, beyond the glossary's fillers (which a domain owns).
_PLAIN = frozenset({
    "about", "above", "after", "again", "against", "all", "also", "any", "been", "before", "being", "both",
    "but", "each", "every", "few", "more", "most", "other", "over", "same", "some", "such", "than", "that",
    "their", "them", "then", "there", "these", "they", "this", "those", "through", "under", "until", "very",
    "what", "which", "while", "will", "your", "you", "our", "tell", "know", "give", "want", "need", "like",
    "please", "say", "said", "says", "thing", "things", "something", "anything", "today", "now", "below",
})
# Words that say when, not what: a month, however abbreviated ("Aug 2007-Jan 2011"), or the end of a
# period ("at end of period", "the ending balance"). A document states its subject without them.
_WHEN = frozenset({
    "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul", "july",
    "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec", "december",
    "end", "ending", "ended", "period", "periods",
})
# Words that ask for a comparison or a computation, or instruct how to answer: they say what to
# do with the subject, not what it is ("In which year were Inventories larger?" is about inventories).
_ASKING = frozenset({
    "larger", "smaller", "bigger", "higher", "lower", "greater", "less", "change", "changes", "changed",
    "increase", "increases", "increased", "decrease", "decreases", "decreased", "difference", "percentage",
    "percent", "absolute", "average", "ratio", "proportion", "calculate", "calculated", "compute", "computed",
    "year", "years", "implication", "implications", "extract", "answer", "round", "rounded", "billions",
    "millions", "thousands", "primarily", "using", "details", "outlined", "based", "provided", "shown",
    "nominal", "terms",
})
_SUFFIXES = ("ing", "es", "ed", "s")
_MIN_STEM = 4


def subject_words(question: str, glossary: Glossary) -> list[str]:
    """The words of a question that could name its subject: no slot mentions, fillers or plain words."""
    text = screening_text(glossary.leftover(question, glossary.scan(question)))
    fillers = set(glossary.fillers)
    cjk_fillers = sorted((f for f in fillers if not f.isascii()), key=len, reverse=True)
    words: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group().removesuffix("'s")
        if word.isascii():
            parts = word.split("-") if "-" in word else [word]  # "debt-to-asset": debt, asset
            words += [part for part in parts
                      if len(part) >= 3 and part not in fillers and part not in _PLAIN and part not in _WHEN]
            continue
        for filler in cjk_fillers:  # no word breaks in CJK text: fillers split a run into words
            word = word.replace(filler, " ")
        words += [part for part in word.split() if len(part) >= 2]
    return list(dict.fromkeys(words))


def covered_by_knowledge(refusal: Refusal, question: str, *, retriever: NarrativeRetriever | None,
                         glossary: Glossary, max_sensitivity: Sensitivity) -> bool:
    """Whether the documents the caller may see contradict an out-of-scope refusal.

    The question is in scope when visible passages state most of its subject words (a strict
    majority, so one common word shared by chance is not enough); an off-topic subject must
    itself be among the words stated ("How did the weather affect admissions?" is answered
    where a report discusses the weather; "Will the weather be fine tomorrow?" still is not).
    """
    if retriever is None or refusal.reason is not RefusalReason.OUT_OF_SCOPE:
        return False
    off_topic = refusal.rule.split(":", 1)[1] if refusal.rule.startswith("OFF_TOPIC:") else None
    words = subject_words(question, glossary)
    if off_topic is not None and off_topic not in words:
        words.append(off_topic)
    if not words:
        return False
    evidence = probe_passages(retriever, question, max_sensitivity=max_sensitivity,
                              on_failure="scope probe failed; the refusal stands")
    if evidence is None:
        return False
    texts = [screening_text(f"{e.doc} {e.text}") for e in evidence]
    stated = {word for word in words if any(_states(text, word) for text in texts)}
    if off_topic is not None and off_topic not in stated:
        return False
    # A strict majority of the subject words, or of those left once the words that only ask
    # for a comparison or computation are set aside ("larger", "percentage change").
    core = [word for word in words if word not in _ASKING]
    return len(stated) * 2 > len(words) or (bool(core) and len(stated.intersection(core)) * 2 > len(core))


def names_misspelt_domain_terms(refusal: Refusal, question: str, *, glossary: Glossary) -> bool:
    """Whether a "no business term" refusal meets a question whose misspelt names read as the domain's.

    "gross margn of hong kng 2025" names no term as typed; the bounded fuzzy reading of the
    slots (``qa/near_miss.py``: one edit a word, a metric and an entity read together, or one
    beside a well-spelt other) finds the domain's metric and entity, so it is in scope.
    """
    if refusal.reason is not RefusalReason.OUT_OF_SCOPE or refusal.rule != "NO_BUSINESS_TERM":
        return False

    slots = parse_slots(question, glossary=glossary)
    return any(reading.kind in (SlotKind.METRIC, SlotKind.ENTITY)
               for miss in slots.near_misses for reading in miss.readings)


def names_a_standard_metric(refusal: Refusal, question: str, *, glossary: Glossary) -> bool:
    """Whether a "no business term" refusal meets a question about a standard statement line alone.

    "What is the COGS for 2019?" names no word the domain lists, but cost of goods sold is a line
    of every company's income statement (``domain/standard_names.py``): the question is about the
    business, and the parse then decides whether the documents state it. Only where the line's
    name is the question's whole subject (words asking for a comparison or computation aside):
    "AMCOR's Adjusted EBITDA" names another subject too, which the documents must state. An
    off-topic subject stays refused: only the absence of a business term is lifted.
    """
    if refusal.reason is not RefusalReason.OUT_OF_SCOPE or refusal.rule != "NO_BUSINESS_TERM":
        return False
    named = standard_names.standard_metric_names().findall(screening_text(question))
    if not named:
        return False
    words = {word for name in named for word in _WORD.findall(name)}
    return all(word in words or word in _ASKING for word in subject_words(question, glossary))


def names_the_documents_rows(refusal: Refusal, question: str, *, glossary: Glossary) -> bool:
    """Whether a "no business term" refusal meets a question in the words of the documents' own rows.

    The rows the tables state are the business of whoever ingested them, though the question
    seldom writes a label whole: "the 2018 IFRS9 opening balance of financial assets" for the row
    ``Financial assets: Opening balance – IFRS 9``. In scope when a strict majority of the
    question's subject words (those asking for a comparison or computation aside) are words of
    the stored rows (a Chinese or Japanese run is one when most of its character pairs are the
    labels'); the parse then decides which row, if any, is named. An off-topic subject stays
    refused: only the absence of a business term is lifted.
    """
    if refusal.reason is not RefusalReason.OUT_OF_SCOPE or refusal.rule != "NO_BUSINESS_TERM":
        return False
    labels = [label_of(code) for code in glossary.terms[SlotKind.METRIC] if code.startswith(METRIC_PREFIX)]
    if not labels:
        return False
    rows: set[str] = set().union(*(label_words(label) for label in labels))
    row_pairs: set[str] = set().union(*(_cjk_pairs(label) for label in labels))
    named = 0
    said = 0
    for word in subject_words(question, glossary):
        if word in _ASKING:
            continue
        if word.isascii():
            own = label_words(word)
            if own:
                said += 1
                named += own <= rows
            continue
        # no word breaks in Chinese or Japanese: a run is the rows' word when most of its
        # character pairs are pairs of the stored labels (金融资产 of 金融资产：期初余额)
        pairs = _cjk_pairs(word)
        said += 1
        named += len(pairs & row_pairs) * 2 > len(pairs)
    return said > 0 and named * 2 > said


def _cjk_pairs(text: str) -> set[str]:
    """The pairs of adjacent characters within each Chinese or Japanese run of ``text``."""
    return {run[i:i + 2] for run in _CJK_RUN.findall(text) for i in range(len(run) - 1)}


def _stem(word: str) -> str:
    """The word without one inflection ending, if ``_MIN_STEM`` letters remain (scopes, leases: scope, lease)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            return word[: -len(suffix)]
    return word


def _states(text: str, word: str) -> bool:
    """Whether ``text`` states ``word``: CJK as characters, Latin as a whole word up to an inflection ending.

    Words of fewer than ``_MIN_STEM`` letters are matched exactly.
    """
    if not word.isascii():
        return word in text
    stem = _stem(word)
    if len(stem) < _MIN_STEM:  # a short word is matched as typed ("car" is not "cars", "care")
        return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text) is not None
    return re.search(rf"(?<![a-z0-9]){re.escape(stem)}(?:ing|es|ed|s|e)?(?![a-z0-9])", text) is not None
