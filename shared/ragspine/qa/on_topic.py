"""The sentences of an answer that speak to what the question asks, apart from those that string on other passages.

Asked why Mainland China's fulfilment times improved, a small model copied the region's whole
section: revenue growth, new stores, then the sentence on the warehouse network that answers.
Every sentence is sourced and about the entity asked, so no earlier check withholds it. What
sets the unrelated ones apart is the question's topic: its content words once the subject (the
entities and periods it names, which every passage of that region and year shares) is left out.
A sentence counts the topic words of the paragraphs it cites too, when they are written in the
question's language (a translation shares no words; a whole section holds every topic of its
region and tells nothing). When one sentence holds at least ``MIN_TOPIC`` topic words, a passage
pasted whole whose sentence holds fewer than ``MIN_SHARE`` of that sentence's count is off the
topic and is dropped, unless it cites a passage an on-topic sentence cites (it goes on with that
passage: "广东道的三家门店关闭" after the fall in revenue it explains) or it announces a list
("原因如下："). A passage in another language than the question's is never judged: it says the
topic in other words. A short sentence of the model's own, an answer with no clearly on-topic sentence,
and an answer of one sentence are left as they are: words cannot tell which of its parts answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ragspine.lazy import LazyPattern
from ragspine.llm.extractive import detect_language
from ragspine.qa.support import content_words

# Topic words the best sentence must hold before any other sentence is judged against it.
MIN_TOPIC = 2
# Share of the best sentence's topic words below which a sentence is about something else. Measured
# on the 1.5B model's replies and the sample sections: a copied neighbouring paragraph holds 0 or 1
# of the 6-8 the answering sentence holds, a second clause of the answer 2 or more of its 3-6.
MIN_SHARE = 1 / 3
# Only a passage pasted whole is dropped: at least this many content words (a clause of 5-8 characters
# gives fewer) and this share of them in the passage it cites. A short sentence of the model's own
# ("访客每月减少12,000人") may be a second cause the question's words do not name.
MIN_COPIED_WORDS = 8
MIN_COPIED = 0.8
_LEAD_IN = LazyPattern(r"[:：]\s*$")
# The asking itself ("为什么…有所", "なぜですか"): its characters would join the topic's into bigrams no answer holds.
_ASKING = LazyPattern(r"为什么|为何|怎么样?|如何|是否|有所|什么|哪些|なぜ|どうして|どのように|どのような|"
                      r"でしょうか|ですか|ましたか|のは")

Blank = Callable[[str], str]


def off_topic(question: str, claims_of: Sequence[str], cited: Sequence[Sequence[int]], passages: Sequence[str],
              copied_from: Sequence[str], *, subject: Blank = str) -> tuple[int, ...]:
    """The 0-based sentences that leave the question's topic while another sentence speaks to it.

    Args:
        question: the user's question.
        claims_of: each sentence's claim text (citations and layout blanked).
        cited: the passages each sentence cites (0-based indexes into ``passages``).
        passages: the cited paragraphs' texts ("" for a whole section); one in the question's language
            counts with the sentence citing it (a sentence's own words may leave out the topic its
            paragraph states: "この価格改定により…回復").
        copied_from: the cited passages' texts as shown (a section's whole text), to tell a pasted passage.
        subject: blanks the question's subject out of a text (the entities and periods it names).
    """
    if len(claims_of) < 2:
        return ()
    topic = topic_words(question, subject=subject)
    language = detect_language(question)
    held = [len(content_words(subject(" ".join([claims, *(passages[p] for p in cited[i]
                                                        if detect_language(passages[p]) == language)])))
                & topic)
            for i, claims in enumerate(claims_of)]
    best = max(held)
    if best < MIN_TOPIC:
        return ()
    on = [i for i, h in enumerate(held) if h >= MIN_SHARE * best]
    their_passages = {p for i in on for p in cited[i]}
    return tuple(i for i, h in enumerate(held)
                 if h < MIN_SHARE * best and not set(cited[i]) & their_passages and not _LEAD_IN.search(claims_of[i])
                 and _copied(claims_of[i], [copied_from[p] for p in cited[i]], language))


def topic_words(question: str, *, subject: Blank = str) -> frozenset[str]:
    """The question's content words with its subject (``subject`` blanks it) and its asking left out."""
    return content_words(_ASKING.sub(" ", subject(question)))


def _copied(claims: str, cited: Sequence[str], language: str) -> bool:
    """Whether the sentence is a passage in ``language`` pasted whole: long, nearly every word of it in what it cites.

    A passage in another language (Chinese under a Japanese question) states the topic in other words,
    so it cannot be judged by the question's.
    """
    words = content_words(claims)
    source = " ".join(text for text in cited if detect_language(text) == language)
    return len(words) >= MIN_COPIED_WORDS and len(words & content_words(source)) >= MIN_COPIED * len(words)
