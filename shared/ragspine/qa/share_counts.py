"""A number of shares asked, the rows read being amounts per share: asked back, never answered with the amount.

"The weighted average number of shares used in basic earnings per share" asks the count basic EPS
divides by; its words also name the EPS row ("Basic earnings per share (cents per share)"), whose
figure is an amount per share, not a number of shares. Where the question asks a count of shares
(its count words stand before any per-share words in English, after them in Chinese and Japanese,
where the asked noun comes last) and every row read is an amount per share, the question is asked
back with the documents' rows of share counts, never answered with the per-share figure. Where the
question names a count row too, and its per-share words only say which figure the count serves ("used in
basic EPS", 基本每股收益所用的, 1株当たり利益の算定に用いた), the count row alone is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyModule, LazyPattern
from ragspine.qa.language import Lang

if TYPE_CHECKING:
    from ragspine.qa import clarification
    from ragspine.qa.clarification import Clarification
else:  # built only when a question is asked back
    clarification = LazyModule("ragspine.qa.clarification")

# A count of shares: "number of (ordinary) shares", "(weighted average) shares outstanding", "share count",
# "how many shares", 股数 / 股份数, 株式数 / 株数 (每股 and 1株当たり hold no 股数 or 株数)
_COUNT = LazyPattern(
    r"(?:\b(?:basic|diluted)\s+)?(?:\bweighted[\s-]+average\s+)?"
    r"(?:\bnumbers?\s+of\s+(?:[a-z]+\s+){0,2}shares\b(?:\s+outstanding\b)?"
    r"|\b(?:[a-z]+\s+){0,2}shares\s+outstanding\b|\boutstanding\s+shares\b|\bshare\s+counts?\b"
    r"|\bhow\s+many\s+shares\b|\bweighted[\s-]+average\s+(?:[a-z]+\s+){0,2}shares\b)"
    r"|(?:加权平均)?(?:普通股?)?(?:股数|股份数(?:量|目)?)|(?:期中平均)?(?:普通)?(?:株式数|株数)")
# An amount per share, in a row's label or a question's words: "earnings per share", "EPS", 每股, 1株当たり;
# a question's "price of outstanding shares" asks an amount per share too
_PER_SHARE = LazyPattern(r"\bper\s+(?:[a-z]+\s+)?share\b|\beps\b|每股|株当たり")
_PRICE = LazyPattern(r"\b(?:prices?|values?)\b|股价|股價|株価")
_CJK = LazyPattern(r"[\u3040-\u30ff\u4e00-\u9fff]")
# Words saying which figure a count serves, between the count's words and the per-share row's in English
# ("used in", "used to calculate", "for computing", "in the calculation of"), before the count in Chinese and
# Japanese (所用的, 用于计算的, の算定に用いた)
_SERVES = LazyPattern(r"^\s*(?:(?:that|which)\s+(?:was|were|is|are)\s+)?(?:used\s+(?:in|for|to\s+(?:calculate|compute))"
                      r"|(?:for|in)\s+(?:calculating|computing|the\s+calculation\s+of)|underlying)\s")
_SERVING = r"(?:所用|用于计算|计算所用|所用之)的?|の?(?:算定|計算)(?:に用いた|上の|に使用した)の?"
_SERVES_BEFORE = LazyPattern(f"(?:{_SERVING})$")
_SERVING_WORDS = LazyPattern(f"(?:{_SERVING})")


def _count_asked(text: str) -> str | None:
    """The words of ``text`` (normalised) asking a number of shares, where that count is the figure asked."""
    count = _COUNT.search(text)
    if count is None:
        return None
    amounts = [m.start() for pattern in (_PER_SHARE, _PRICE) for m in pattern.finditer(text)]
    if _CJK.search(count.group()):  # the asked noun comes last: no per-share words after the count's
        return count.group() if all(start < count.start() for start in amounts) else None
    return count.group() if all(start > count.start() for start in amounts) else None


def counts_over_per_share(question: str, metrics: tuple[str, ...], glossary: Glossary) -> tuple[str, ...]:
    """``metrics`` without the per-share rows, where the question asks a count of shares, names a count row
    too, and writes the per-share row's words only as the figure the count serves; else ``metrics``."""
    if len(metrics) < 2 or not _COUNT.search(text := normalize_text(question)) or _count_asked(text) is None:
        return metrics
    names = {code: normalize_text(_row_name(code, glossary)) for code in metrics}
    counts = [code for code, name in names.items() if _COUNT.search(name) and not _PER_SHARE.search(name)]
    if not counts or not any(_PER_SHARE.search(name) for name in names.values()) or not _serves(text):
        return metrics
    return tuple(code for code in metrics if code in counts or not _PER_SHARE.search(names[code]))


def asks_share_count(question: str) -> bool:
    """Whether ``question`` asks a number of shares (not an amount per share of them)."""
    return bool(_COUNT.search(text := normalize_text(question))) and _count_asked(text) is not None


def serving_words(name: str) -> bool:
    """Whether ``name`` (words no glossary knows) only says which figure a count serves (所用, 算定に用いた)."""
    return bool(_SERVING_WORDS.fullmatch(normalize_text(name).strip()))


def _serves(text: str) -> bool:
    """Whether ``text`` writes its per-share words as the figure its count of shares serves."""
    count = _COUNT.search(text)
    per_share = _PER_SHARE.search(text)
    if count is None or per_share is None:
        return False
    if per_share.start() > count.end():
        return bool(_SERVES.search(text[count.end():per_share.start()]))
    return bool(_SERVES_BEFORE.search(text[:count.start()]))


def _row_name(code: str, glossary: Glossary) -> str:
    """A row's own words: a document row's label, a glossary metric's English name."""
    if code.startswith(METRIC_PREFIX):
        return label_of(code)
    return glossary.term(SlotKind.METRIC, code).name("en")


@dataclass(frozen=True, slots=True)
class PerShareForCount:
    """A number of shares asked of rows that are amounts per share."""

    written: str  # the question's words for the count ("weighted average number of shares")
    question: str  # the question, normalised: the options offered are it with a count row named instead
    row: str  # the per-share row read ("basic earnings per share (cents per share)")
    counts: tuple[str, ...]  # the documents' rows of share counts, in a stable order


def per_share_for_count(question: str, metrics: tuple[str, ...], glossary: Glossary) -> PerShareForCount | None:
    """The count ``question`` asks, where every row of ``metrics`` is an amount per share; else None."""
    if not metrics or not _COUNT.search(text := normalize_text(question)):  # most questions: one search
        return None
    written = _count_asked(text)
    if written is None:
        return None
    names = [normalize_text(_row_name(code, glossary)) for code in metrics]
    if not all(_PER_SHARE.search(name) and not _COUNT.search(name) for name in names):
        return None
    counts = sorted({label_of(code) for code in glossary.terms[SlotKind.METRIC] if code.startswith(METRIC_PREFIX)
                     and _COUNT.search(label := normalize_text(label_of(code))) and not _PER_SHARE.search(label)})
    return PerShareForCount(written, text, names[0], tuple(counts))


_ASK_COUNT = {
    Lang.ZH: "“{row}”是每股金额，不是股数。{choose}",
    Lang.EN: "'{row}' is an amount per share, not a number of shares. {choose}",
    Lang.JA: "「{row}」は1株当たりの金額で、株式数ではありません。{choose}",
}
_CHOOSE = {
    Lang.ZH: ("请选择：{options}", "文件未载明该股数。"),
    Lang.EN: ("Choose one: {options}", "The documents state no such number of shares."),
    Lang.JA: ("次から選んでください：{options}", "資料にはその株式数の記載がありません。"),
}


def ask_for_count(read: PerShareForCount, *, lang: Lang) -> Clarification:
    """The question asked back: the documents' rows of share counts, each offered as the question naming it."""
    options = tuple(clarification.Option(row, read.question.replace(read.written, row, 1), "metric", row)
                    for row in read.counts)
    listed = (", " if lang is Lang.EN else "、").join(option.label for option in options)
    offer, none = _CHOOSE[lang]
    choose = offer.format(options=listed) if options else none
    return clarification.Clarification(_ASK_COUNT[lang].format(row=read.row, choose=choose), options)
