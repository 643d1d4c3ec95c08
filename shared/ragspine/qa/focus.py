"""The passages a question is asked again from, after a reply that only said the question back.

Shown five passages (two paragraphs of one section often reach the model as the same section
text under two numbers), a 1.5B model answered how-questions by saying them back, and said the
same words back when asked again over the same passages with a line naming what was missing: the
added line did not change its first tokens. Asked again over fewer passages, the prompt is another
one: the paragraph sharing the most topic words with the question (its content words, the subject
and the asking left out) comes first, then the passages the reply cited (the model took them for
the answer), each shown text once, at most ``MAX_FOCUS``.

The re-ask also names one sentence as the place to answer from (``answering_sentence``), only among
the passages about what the question asks (its entity and year: another region's sentence on the same
words was named for a Mainland China question): the one sharing most topic words with the question.
When none shares a word (a Japanese question over Chinese passages: 変化 and 变化, 店舗 and 门店), the
one sharing most Han characters with the question's topic words; none when no character is shared
either. The passage of the named sentence then leads the passages asked from.

The first ask can be narrowed the same way (``first_shown``): the passages ranked by the topic words
they share with the question, each shown text once, the first ``limit`` of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ragspine.lazy import LazyPattern
from ragspine.qa.evidence import Evidence
from ragspine.qa.on_topic import topic_words
from ragspine.qa.support import content_words

MAX_FOCUS = 2
_SENTENCE_END = LazyPattern(r"(?<=[。！？!?])|(?<=\.)\s+")
_HAN = LazyPattern(r"[\u3400-\u9fff\uf900-\ufaff]")


def first_shown(question: str, evidence: Sequence[Evidence], limit: int, *,
                subject: Callable[[str], str] = str) -> tuple[int, ...]:
    """The 0-based passages of ``evidence`` the first prompt gives, best first; () for every one as retrieved.

    Ranked by the topic words each passage's own text shares with the question (retrieval order among
    equals), a text shown once, the first ``limit`` (0: no limit and no reordering).
    """
    if limit <= 0 or not evidence:
        return ()
    held = _topic_words_held(question, evidence, subject)
    ranked = sorted(range(len(evidence)), key=lambda i: -held[i])  # stable: retrieval order among equals
    return _each_text_once(ranked, evidence)[:limit]


def focus(question: str, cited: Sequence[int], evidence: Sequence[Evidence], *,
          subject: Callable[[str], str] = str, named: int | None = None) -> tuple[int, ...]:
    """The 0-based passages of ``evidence`` to ask from again, best first; () when none stands out.

    Args:
        question: the user's question.
        cited: the passages the reply that said the question back cited (0-based).
        evidence: the passages the first prompt gave.
        subject: blanks the question's subject out of a text (the entities and periods it names).
        named: the passage of the sentence named to answer from; it leads when given, else the one
            holding most of the question's topic words does.
    """
    if named is not None:
        lead = [named]
    else:
        held = _topic_words_held(question, evidence, subject)
        best = max(range(len(evidence)), key=lambda i: held[i], default=None)  # the first of equals
        lead = [best] if best is not None and held[best] > 0 else []
    return _each_text_once([*lead, *cited], evidence)[:MAX_FOCUS]


def _topic_words_held(question: str, evidence: Sequence[Evidence], subject: Callable[[str], str]) -> list[int]:
    """How many of the question's topic words each passage's own text holds."""
    topic = topic_words(question, subject=subject)
    return [len(content_words(subject(item.text)) & topic) for item in evidence]


def _each_text_once(order: Sequence[int], evidence: Sequence[Evidence]) -> tuple[int, ...]:
    """``order`` without a passage whose shown text (its section's, else its own) an earlier one shows."""
    chosen: list[int] = []
    shown: set[str] = set()
    for i in order:
        text = evidence[i].context or evidence[i].text
        if text not in shown:
            shown.add(text)
            chosen.append(i)
    return tuple(chosen)


def answering_sentence(question: str, evidence: Sequence[Evidence], order: Sequence[int], *,
                       subject: Callable[[str], str] = str) -> tuple[int, str] | None:
    """The 0-based passage and the sentence of its own text to answer ``question`` from, among ``order``.

    ``order`` holds the passages about what the question asks. The sentence sharing the most topic
    words with the question, else (none shares a word) the most Han characters of them, the earliest
    among equals; None when none shares either: a sentence named by position alone was the wrong one
    (the fall in revenue for how the team responded).
    """
    topic = topic_words(question, subject=subject)
    sentences = [(i, sentence.strip()) for i in order for sentence in _SENTENCE_END.split(evidence[i].text)
                 if sentence.strip()]
    words = [content_words(subject(sentence)) for _, sentence in sentences]
    found = _most(sentences, [len(w & topic) for w in words])
    if found is None:
        characters = _han(topic)
        found = _most(sentences, [len(_han(w) & characters) for w in words])
    return found


def _most(sentences: Sequence[tuple[int, str]], held: Sequence[int]) -> tuple[int, str] | None:
    """The first sentence holding the most, None when none holds any."""
    best = max(range(len(sentences)), key=lambda k: held[k], default=None)  # the first of equals
    return sentences[best] if best is not None and held[best] > 0 else None


def _han(words: frozenset[str]) -> frozenset[str]:
    """The Han characters of ``words``: what a Japanese word and its Chinese counterpart may still share."""
    return frozenset(c for word in words for c in word if _HAN.match(c))
