"""Whether each sentence of an answer says what the passage it cites says.

The number check knows a figure is somewhere in the passages, the citation step knows which
passage a sentence names; neither knows whether the sentence's words come from that passage. A
small model citing the paragraph on Mainland China's online share gave as the cause a clause of
the store-layout paragraph. A sentence's own content words (CJK character bigrams, Latin word
stems; numbers and the question's words removed, since saying the question's subject back is no
claim) must be found in the passage it cites, for at least ``MIN_SUPPORT`` of them. A sentence
its cited passage does not support is re-cited to the one retrieved passage that does; with
none, or several, it is unsupported. A sentence whose cited passages are all in another language
than it (a translation) cannot be compared word for word and is left as cited, unless some
passage in its own language supports it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.numbers import normalise, read_numbers
from ragspine.qa.evidence import Evidence
from ragspine.text import CJK, HIRAGANA, Tokenizer, s_stem

# Share of a sentence's own content words its passage must hold. Measured on the 1.5B model's
# held-out and dev replies: sentences drawn from their cited passage hold 0.5 or more of their
# words there (a reworded clause keeps half), a clause taken from another paragraph of the same
# section 0.2 or less (the section's shared words: 中国内地, 线上).
MIN_SUPPORT = 0.4
# Below this many content words of its own, a sentence no passage supports is left alone: it is the
# question said back with a word or two ("2025年度、中国内地は店舗網を調整しました。", 3 bigrams),
# which the off-question check judges, while every unsupported claim measured had 5 or more.
MIN_WORDS = 4

# Function words and question words: shared by any two texts of a language, they support nothing.
_STOP = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "did", "do", "does", "for", "from", "has",
    "had", "have", "how", "in", "into", "is", "it", "its", "of", "on", "or", "that", "the", "their", "this",
    "to", "was", "were", "what", "when", "which", "while", "who", "why", "will", "with",
    "什么", "为什", "多少", "怎么", "如何", "哪些", "是否", "原因", "因为", "主要", "由于",
    # The frame of an answer: "根据资料", "according to the passages", "資料によると", "综上所述".
    "根据", "资料", "資料", "如下", "以下", "综上", "所述", "according", "passage", "passages",
})
# A sentence ending in a colon announces what follows ("原因如下：", "The reasons are:"): no claim.
_LEAD_IN = re.compile(r"[:：]\s*$")
_CJK_CHAR = re.compile(f"[{CJK}]")
_LATIN_LETTER = re.compile(r"[A-Za-z]")
_PARAGRAPH = re.compile(r",\s*para=\d+$")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN_WORD = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_CONTENT = Tokenizer(scripts=(CJK,), numbers=True, casefold=True, drop_grams=HIRAGANA, stopwords=_STOP,
                     stem=s_stem, distinct=True)


@dataclass(frozen=True, slots=True)
class Support:
    """What the check found for one sentence: kept as cited, re-cited, or unsupported (neither)."""

    kept: bool
    recited: int | None = None  # 0-based passage the sentence draws from, in place of the ones it cited
    section: int | None = None  # 0-based cited passage whose section (its context) the sentence draws from


def content_words(text: str) -> frozenset[str]:
    """The content tokens of ``text``: CJK bigrams, Latin stems; numbers and function words dropped.

    A number in any form (2.1, 百分之二点一, two) is left out: the number check judges figures, and a
    figure spelt in another script than its passage's would otherwise count as words it lacks.
    """
    normal = normalise(text)
    for mention in read_numbers(normal):
        normal = normal.replace(mention.text, " ", 1)
    return frozenset(_CONTENT.tokens(normal))


def share(words: frozenset[str], passage: str) -> float:
    """The share of ``words`` that ``passage`` holds (1.0 for no words: nothing to check)."""
    if not words:
        return 1.0
    return len(words & content_words(passage)) / len(words)


def section_locator(locator: str) -> str | None:
    """The locator of the section a paragraph's locator sits in (``heading=X,para=2`` -> ``heading=X``)."""
    section = _PARAGRAPH.sub("", locator)
    return section if section != locator and section else None


def support(claims: str, cited: Sequence[int], evidence: Sequence[Evidence], question: str) -> Support:
    """Whether the sentence (its claim text) is supported by the passages it cites, else where it comes from.

    In order: the cited passages' own text holds enough of its words (kept); exactly one retrieved
    passage does, or holds all the words any other supporting one holds and more (re-cited to it);
    with no passage supporting it: a cited passage's context (the section shown to the model
    around it) holds its words (re-cited to that section, or kept when the locator already names
    the whole unit, a slide); it has too few words of its own to judge (kept); else unsupported.
    Cited passages all written in another script than the sentence (CJK against Latin letters)
    cannot be judged by words: the sentence is kept as cited. Chinese and Japanese share Han
    characters and are judged (a Japanese sentence quoting a Chinese passage shares its bigrams).

    Args:
        claims: the sentence with citations and layout blanked.
        cited: 0-based indexes of the passages the sentence cites (none: nothing to check).
        evidence: the passages of the prompt.
        question: the user's question; its words are not the sentence's own.
    """
    words = content_words(claims) - content_words(question)
    if not cited or not words or _LEAD_IN.search(claims):
        return Support(kept=True)
    own = len(words)
    cited_text = " ".join(evidence[i].text for i in cited)
    if _KANA.search(claims) and _HAN_WORD.search(cited_text) and not _KANA.search(cited_text):
        # A Japanese sentence citing a Chinese passage: its kana words and the bigrams spanning a particle
        # (に取, を本) cannot be in a passage without kana, so only its Han words are compared; counted
        # whole, a sentence copying the passage's clauses between Japanese words held a fifth of them.
        words = frozenset(w for w in words if _HAN_WORD.fullmatch(w)) or words
    if share(words, cited_text) >= MIN_SUPPORT:
        return Support(kept=True)
    held = [words & content_words(e.text) for e in evidence]
    if all(script_of(evidence[i].text) != script_of(claims) for i in cited):
        # Written in another script (Chinese cited for an English sentence): a translation shares no
        # word with its passage, so words cannot judge the citation, nor move it to a passage that
        # states the same in the sentence's own script ("Tourist spending weakened and three Canton
        # Road stores closed" translates the Chinese passage it cites; an English slide holds 4 of
        # its 6 words and omits the stores).
        return Support(kept=True)
    supporters = [i for i, h in enumerate(held) if len(h) >= MIN_SUPPORT * len(words)]
    leading = [i for i in supporters if not any(held[i] < held[j] for j in supporters)]
    if len(leading) == 1:
        return Support(kept=False, recited=leading[0])
    if not supporters:
        for i in cited:
            if evidence[i].context and share(words, evidence[i].context) >= MIN_SUPPORT:
                whole = section_locator(evidence[i].locator) is None  # a slide: its locator names it all
                return Support(kept=True) if whole else Support(kept=False, section=i)
        if own < MIN_WORDS:
            return Support(kept=True)
    return Support(kept=False)


def script_of(text: str) -> str:
    """``cjk`` or ``latin``: the script most of the text is written in (a CJK character is about a word)."""
    return "cjk" if len(_CJK_CHAR.findall(text)) >= len(_LATIN_LETTER.findall(text)) / 2 else "latin"
