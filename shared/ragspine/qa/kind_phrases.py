"""Phrases naming a kind of figure (fair value, amortized cost, carrying amount …) in a question and a row's name.

A table may give several kinds of figure for one row and date (``Amortized Cost | Fair Value``),
and its reader names each fact by its kind (``fair value: u.s. treasury securities``). Where only
one kind was read, the row's own words still reach that fact, so a question naming another kind
("the amortized cost of U.S. treasury securities") would get the fair value. ``unstated_kind``
finds that case: the question names a kind that no row it was read as carries. The question is
then asked back with the kinds the documents do give, never answered with another kind's figure.

One pattern, built at import and compiled once, is searched once per question; row names are read
only when the question names a kind.
"""

from __future__ import annotations

import re
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

# Each kind's spellings (matched lower case, NFKC) -> the kind's name as an answer says it. Synonyms an
# analyst treats as one figure share a kind: a book value is the carrying amount, a face value the principal.
_SPELLINGS: dict[str, tuple[str, ...]] = {
    "amortized cost": (r"amorti[sz]ed\s+costs?", "摊余成本", "攤餘成本", "償却原価"),
    "fair value": (r"fair[\s-]+values?", "公允价值", "公允價值", "公正価値"),
    "carrying amount": (r"carrying\s+(?:amounts?|values?)", r"book\s+values?", "账面价值", "賬面價值", "帳簿価額"),
    "market value": (r"market\s+values?",),
    "principal amount": (r"(?:principal|face)\s+(?:amounts?|values?)",),
    # one row of both ("unrealized gains (losses)") is of either kind asked
    "unrealized gains and losses": (r"unreali[sz]ed\s+gains?\s*(?:\(|and\s+|or\s+|/\s*)loss(?:es)?\)?",),
    "unrealized gains": (r"unreali[sz]ed\s+(?:gains?|profits?)",),
    "unrealized losses": (r"unreali[sz]ed\s+loss(?:es)?",),
    "net additions": (r"net\s+(?:additions?|adds)",),
    # a row's life in years, beside its fair value in a table of acquired intangibles or fixed assets
    "useful life": (r"(?:(?:weighted[\s-]+)?average\s+)?(?:estimated\s+)?useful\s+li(?:fe|ves)",
                    "使用寿命", "使用年限", "使用壽命", "耐用年数"),
}
# A qualifier that makes a kind its own figure ("gross carrying amount" is not the net one a plain
# "carrying amount" usually is): the qualified kind is named "gross carrying amount".
_QUALIFIERS = r"(?:(gross|net)\s+)?"

_KIND_OF_GROUP: list[str] = []


def _alternatives() -> str:
    parts = []
    for kind, spellings in _SPELLINGS.items():
        _KIND_OF_GROUP.append(kind)
        english = [s for s in spellings if s.isascii()]  # patterns, between word edges; the others written as is
        other = [re.escape(s) for s in spellings if not s.isascii()]
        body = "|".join([rf"\b{_QUALIFIERS}(?:{'|'.join(english)})\b"] if english else [])
        body = "|".join(filter(None, [body, *other]))
        parts.append(f"(?P<k{len(_KIND_OF_GROUP) - 1}>{body})")
    return "|".join(parts)


# built at import, compiled on its first read (a plain lookup's cold start never reads it)
KIND_PHRASE = LazyPattern(_alternatives(), re.IGNORECASE)
_QUALIFIER_AT_START = LazyPattern(r"^(gross|net)\s+")


def kinds_named(text: str) -> frozenset[str]:
    """The kinds of figure ``text`` names, each as ``fair value`` or qualified: ``gross carrying amount``."""
    found = set()
    for match in KIND_PHRASE.finditer(normalize_text(text)):
        kind = _KIND_OF_GROUP[int((match.lastgroup or "k0")[1:])]  # the kind's own group closes last
        qualifier = _QUALIFIER_AT_START.match(match.group().lower())
        found.add(f"{qualifier.group(1)} {kind}" if qualifier and kind != "net additions" else kind)
    return frozenset(found)


def _carries(given: frozenset[str], asked: str) -> bool:
    """Whether a row naming ``given`` kinds is of the ``asked`` kind: a plain kind is carried by any of its
    qualified forms, a net carrying amount by the plain one too (it is net unless called gross)."""
    return any(kind == asked or kind.endswith(" " + asked) or (asked == "net carrying amount" and kind == asked[4:])
               or (kind.endswith("unrealized gains and losses") and asked.startswith("unrealized "))
               for kind in given)


@dataclass(frozen=True, slots=True)
class UnstatedKind:
    """A kind of figure the question asks that the rows it was read as do not give."""

    asked: str  # the kind asked ("amortized cost")
    written: str  # the question's words for it, as matched ("amortized cost")
    question: str  # the question, normalised: the options offered are it with another kind named
    row: str  # the row's own words ("u.s. treasury securities")
    # the kinds the documents give for that row, each with the rows' words for it: (("fair value", "fair value"),)
    given: tuple[tuple[str, str], ...]


def unstated_kind(question: str, metrics: tuple[str, ...], glossary: Glossary) -> UnstatedKind | None:
    """The kind ``question`` names that none of its ``metrics`` carries, with the kinds the documents give for
    the row; None when the question names no kind, every kind named is carried, or no document row was read.

    Only where the rows read name a kind of their own is another kind refused: a row naming none is of the kind
    its table or the text around it says ("the fair value of plan assets" over a table of the assets), which
    its name does not keep. Only the documents' own rows (``label:`` codes) are checked: a glossary metric's
    name is the glossary's, not the table's, and says nothing of the kinds its table gives.
    """
    if not KIND_PHRASE.search(question):  # most questions: one search (case-blind), nothing else
        return None
    rows = {label_of(code): kinds_named(label_of(code)) for code in metrics if code.startswith(METRIC_PREFIX)}
    kinded = [row for row, kinds in rows.items() if kinds]
    if not kinded:  # rows naming no kind: the kind is the table's or its text's ("fair value of plan assets")
        return None
    carried = frozenset().union(*rows.values(), *(kinds_named(glossary.term(SlotKind.METRIC, code).name("en"))
                                                  for code in metrics if not code.startswith(METRIC_PREFIX)))
    text = normalize_text(question)
    for match in KIND_PHRASE.finditer(text):
        asked = next(iter(kinds_named(match.group())))
        if not _carries(carried, asked):
            item = kinded[0].rpartition(": ")[2]
            return UnstatedKind(asked, match.group(), text, item, _kinds_given(item, kinded[0], glossary))
    return None


def _kinds_given(item: str, row: str, glossary: Glossary) -> tuple[tuple[str, str], ...]:
    """The kinds ``row`` and the documents' other rows named ``item`` (under any heading) give, each with the
    words the rows write it in (``("fair value", "fair value")``), in a stable order."""
    given: dict[str, str] = {}
    labels = (label_of(code) for code in glossary.terms[SlotKind.METRIC] if code.startswith(METRIC_PREFIX))
    for label in (row, *labels):
        if label.rpartition(": ")[2] == item:
            for match in KIND_PHRASE.finditer(label):
                given.setdefault(next(iter(kinds_named(match.group()))), match.group())
    return tuple(sorted(given.items()))


# The kinds with a name in Chinese and Japanese; any other is named in English in every language.
_NAMES = {
    "amortized cost": {Lang.ZH: "摊余成本", Lang.JA: "償却原価"},
    "fair value": {Lang.ZH: "公允价值", Lang.JA: "公正価値"},
    "carrying amount": {Lang.ZH: "账面价值", Lang.JA: "帳簿価額"},
    "useful life": {Lang.ZH: "使用寿命", Lang.JA: "耐用年数"},
}
_ASK_KIND = {
    Lang.ZH: "文件给出的“{row}”是{given}，未载明{asked}。请选择：{given}",
    Lang.EN: "The documents give {given} for '{row}'; they state no {asked}. Choose one: {given}",
    Lang.JA: "資料は「{row}」について{given}を記載しており、{asked}は記載していません。次から選んでください：{given}",
}


def _name(kind: str, lang: Lang) -> str:
    """A kind's name in the question's language, where it has one (else the English name)."""
    return _NAMES.get(kind, {}).get(lang, kind)


def ask_for_kind(unstated: UnstatedKind, *, lang: Lang) -> Clarification:
    """The question asked back: the kinds the documents give for the row, each offered as the question asking it
    in the rows' own words (a Chinese question reaches an English table's "fair value" written so)."""
    options = tuple(clarification.Option(_name(kind, lang), unstated.question.replace(unstated.written, words, 1),
                                         "metric", kind) for kind, words in unstated.given)
    listed = (", " if lang is Lang.EN else "、").join(option.label for option in options)
    text = _ASK_KIND[lang].format(row=unstated.row, given=listed, asked=_name(unstated.asked, lang))
    return clarification.Clarification(text, options)
