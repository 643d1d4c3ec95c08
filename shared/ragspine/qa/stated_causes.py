"""The causes a cited passage states for a why-question and the model's answer leaves out, quoted.

Asked why, a 1.5B model often gave one clause of its cited passage and left out the sentence
that says why: the scope of Project Lotus without "为应对成本压力" that starts it. Such a
sentence is found in the passages the answer cites: it states a cause or purpose (a marker such
as 原因是, 为应对, による, ため, because, due to) and shares at least ``MIN_SHARED`` content words with
the question. When the answer does not already give that cause (half the words of the clause
holding the marker), the sentence is appended word for word, as a quote
with its citation: the passage's own words, so no figure or claim is the model's. Only a sentence
written in the question's script is quoted (a Chinese cause under an English answer is not one the
reader asked for).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

from ragspine.qa.evidence import Evidence
from ragspine.qa.support import content_words, script_of

# Words that state a cause or purpose, in the documents' languages (a passage may be in any of them).
_CAUSE = re.compile(
    r"原因是|原因在于|主要原因|因为|由于|为应对|为了|以减轻|以应对|得益于|推高|随之"
    r"|ため|による|により|を受け|を反映"
    r"|\bbecause\b|\bdue to\b|\bdriven by\b|\bas a result\b|\bin order to\b|\bto offset\b|\bled to\b",
    re.IGNORECASE)
# A reply's own words giving a cause: the markers above and the looser ones a reply writes in its own words.
_REPLY_CAUSE = re.compile(r"受[^，。,]{0,12}影响|によって|\bas a result\b|\bbecause of\b|\bowing to\b|\bthanks to\b",
                          re.IGNORECASE)
_CLAUSE_MARK = re.compile(r"[，,、；;：:]")
_SENTENCE_END = re.compile(r"(?<=[。！？!?])|(?<=\.)\s+")
# Question content words a sentence must share to be about what was asked (a subject and a topic).
MIN_SHARED = 2
# Share of the cause clause's own words (the question's aside) the answer holds when it already gives it.
SAID = 0.5
MAX_QUOTED = 2
QUOTE_LABEL = MappingProxyType({"zh": "资料原文：“{sentence}”", "en": "The passage says: \"{sentence}\"",
                                "ja": "資料の原文：「{sentence}」"})


def unsaid_causes(question: str, answer: str, cited: Sequence[Evidence]) -> list[tuple[str, Evidence]]:
    """The cause sentences of the ``cited`` passages that are about the question and not in ``answer``.

    Args:
        question: the user's why-question.
        answer: the model's answer, its own words (a rendered citation's locator is no cause it gave).
        cited: the passages the answer cites, in order of first use.

    Returns:
        Up to ``MAX_QUOTED`` (sentence, passage) pairs, in passage order, each sentence once.
    """
    asked = content_words(question)
    said = content_words(answer)
    script = script_of(question)
    found: list[tuple[str, Evidence]] = []
    seen: set[str] = set()
    for item in cited:
        for sentence in _sentences(item.text):
            if sentence in seen or not _CAUSE.search(sentence) or script_of(sentence) != script:
                continue
            seen.add(sentence)
            if len(content_words(sentence) & asked) < MIN_SHARED:
                continue
            cause = content_words(_cause_clause(sentence)) - asked
            if not cause or len(cause & said) >= SAID * len(cause):  # the answer already gives this cause
                continue
            found.append((sentence, item))
            if len(found) == MAX_QUOTED:
                return found
    return found


def gives_cause(answer: str) -> bool:
    """Whether ``answer`` (the model's own words) states a cause or purpose by a marker (因为, due to, ため)."""
    return _CAUSE.search(answer) is not None or _REPLY_CAUSE.search(answer) is not None


def cause_to_name(question: str, evidence: Sequence[Evidence], order: Sequence[int]) -> tuple[int, str] | None:
    """The 0-based passage and its first sentence stating a cause that is about ``question``, among ``order``.

    ``order`` lists the passages to look in, best first (those the reply cited, then the others about what
    was asked). The sentence may be in any language: it is named to the model, not quoted to the reader.
    """
    asked = content_words(question)
    for i in order:
        for sentence in _sentences(evidence[i].text):
            if _CAUSE.search(sentence) and len(content_words(sentence) & asked) >= MIN_SHARED:
                return i, sentence
    return None


def _cause_clause(sentence: str) -> str:
    """The clause holding the sentence's first cause marker ("为应对成本压力", "because spending weakened")."""
    found = _CAUSE.search(sentence)
    if found is None:
        return ""
    starts = [m.end() for m in _CLAUSE_MARK.finditer(sentence, 0, found.start())]
    end = _CLAUSE_MARK.search(sentence, found.end())
    return sentence[starts[-1] if starts else 0:end.start() if end else len(sentence)]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]
