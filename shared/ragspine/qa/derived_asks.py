"""A question asking for a derived figure is answered with that figure or not at all, never with an input.

"What was the operating income % margin?", "cash ratio", "EBITDA % margin", 净利率, "revenue
growth in FY2024": the glossary often knows only the input the words are built on (operating
income, cash, EBITDA, 净利, revenue), so reading the names alone would answer the input as if it
were the figure asked. Two steps keep that from happening, both over the question's words with the
glossary's names blanked:

- ``read_derived``: the derived word right after a metric's name ("operating income % margin")
  is read as the formula metric whose formula divides that metric and whose names carry the word
  (OPERATING_MARGIN), when there is exactly one.
- ``unmet_derivation``: a derived word left over that nothing answers (no formula metric named, no
  arithmetic asked, no two periods for a growth) makes the answer a "cannot be computed" line that
  names what is missing, with no number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

from ragspine.facts.glossary import Glossary, Mention, Period, SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.count_asks import without_count_words
from ragspine.qa.label_words import ASKING_WORDS, label_words, label_words_in_order
from ragspine.qa.language import Lang
from ragspine.qa.period_words import without_quarter_words
from ragspine.qa.render import label

# The words of a figure computed from others. Growth words need two periods (the change answers them).
# "how much did revenue grow in FY2025": the verb asks the growth as the noun does
_GROWTH = r"growth|grow|grew|grown|增长率|增长|增速|成長率|成長|増加率|減少率|増減率|伸び率"
_DERIVED = LazyPattern(
    rf"(?<![a-z])(?:margins?|ratio|turnover|{_GROWTH}|returns? on|yield|coverage|conversion cycle|per share"
    r"|days (?:sales|payables?|inventory)(?: outstanding)?)(?![a-z])"
    r"|利润率|利益率|收益率|周转率|周转天数|回転率|回転日数|周转|回転|倍率|比率|率")
_GROWTH_WORD = LazyPattern(rf"^(?:{_GROWTH})$")
# What every match of ``_DERIVED`` holds in the normalised question, lookarounds left out and each space
# any character (blanking a name turns its characters into spaces): without it, no derived word is left.
_DERIVED_CORE = LazyPattern(r"margin|ratio|turnover|gr[oe]w|returns?.on|yield|coverage|conversion.cycle|per.share"
                           r"|days.(?:sales|payable|inventory)|增长|增速|成長|周转|回転|率", re.DOTALL)
# The same as words, each space any character: ``plain_asks`` joins them to its own words in one prefix tree.
DERIVED_CORE_WORDS = ("margin", "ratio", "turnover", "grow", "grew", "return on", "returns on", "yield", "coverage",
                      "conversion cycle", "per share", "days sales", "days payable", "days inventory",
                      "增长", "增速", "成長", "周转", "回転", "率")
# read once: on Python 3.11 a member read off its enum class goes through the metaclass's slow ``__getattr__`` hook
_CHANNEL, _METRIC = SlotKind.CHANNEL, SlotKind.METRIC
# Between a metric's name and its derived word: spaces, a percent sign, a possessive.
_JOINER = LazyPattern(r"^(?:\s|%|％|'s|の|的)*$")

_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "none": "无法计算“{phrase}”：术语表中没有它的计算公式，{inputs}本身并不是所问的数值，因此不提供数值。",
        "growth": "无法计算“{phrase}”：增长需要两个期间（起止两年），问题只给出一个期间，因此不提供数值。",
        "part": "问题所问的不只是读到的行（{rows}）：“{words}”不是任何已读到的行，因此不提供数值。",
    }),
    Lang.EN: MappingProxyType({
        "none": "The {phrase} cannot be computed: the glossary has no formula for it, and {inputs} alone is not "
                "the figure asked, so no value is given.",
        "growth": "The {phrase} cannot be computed: a growth needs two periods (the years it runs from and to) "
                  "and the question names one, so no value is given.",
        "part": "The question names more than the row it was read as ({rows}): '{words}' is no row read here, "
                "so no value is given.",
    }),
    Lang.JA: MappingProxyType({
        "none": "「{phrase}」は計算できません：用語集にその計算式がなく、{inputs}そのものは問われた数値ではないため、"
                "数値は示しません。",
        "growth": "「{phrase}」は計算できません：伸び率には起点と終点の二つの期間が必要ですが、質問の期間は一つのため、"
                  "数値は示しません。",
        "part": "質問は読み取った行（{rows}）より多くを述べています：「{words}」はどの行でもないため、"
                "数値は示しません。",
    }),
})


@dataclass(frozen=True, slots=True)
class DerivedWord:
    """A derived word of the question, the metric named just before it (if any) and the phrase they make."""

    word: str
    metric: str | None
    phrase: str

    @property
    def growth(self) -> bool:
        return bool(_GROWTH_WORD.match(self.word))


# The last question read: an ask reads it twice (the intent's ``read_derived``, then ``unmet_derivation``).
_last_read: tuple[str, Glossary, tuple[DerivedWord, ...]] | None = None


def derived_words(question: str, glossary: Glossary) -> list[DerivedWord]:
    """The derived words left once the glossary's names are blanked, each with the metric it qualifies."""
    global _last_read
    last = _last_read  # one read of the shared slot: another thread may replace it meanwhile
    if last is not None and last[1] is glossary and last[0] == question:
        return list(last[2])
    found = _derived_words(question, glossary)
    _last_read = (question, glossary, tuple(found))
    return found


def _derived_words(question: str, glossary: Glossary) -> list[DerivedWord]:
    norm = normalize_text(question)
    if _DERIVED_CORE.search(norm) is None:  # most questions: no derived word, no names blanked to look for one
        return []
    mentions = [m for m in glossary.scan(question) if m.kind is not _CHANNEL]
    left = glossary.leftover(question, mentions)
    if len(left) != len(norm):  # blanking keeps positions; when it cannot, read no derived word
        return []
    # a derived word inside a name ("gross margin", 毛利率) is blanked with it: the core search shows none is left
    # before ``_DERIVED``, which opens with a lookbehind and so is tried at every position, runs
    if _DERIVED_CORE.search(left) is None:
        return []
    metrics = [m for m in mentions if m.kind is _METRIC and m.code]
    found: list[DerivedWord] = []
    for match in _DERIVED.finditer(left):
        before = _metric_before(metrics, match.start(), norm)
        start = before.start if before is not None else match.start()
        found.append(DerivedWord(match.group(), before.code if before is not None else None,
                                 norm[start:match.end()].strip()))
    return found


def _metric_before(metrics: list[Mention], at: int, norm: str) -> Mention | None:
    near = [m for m in metrics if m.end <= at and _JOINER.match(norm[m.end:at])]
    return near[-1] if near else None


def read_derived(question: str, metrics: tuple[str, ...], glossary: Glossary) -> tuple[str, ...]:
    """``metrics`` with "<metric> <derived word>" read as the one formula metric it names, when one does.

    "operating income % margin" is OPERATING_MARGIN (its formula divides operating income and its
    names say margin); an input with no such formula metric stays as it is (``unmet_derivation``
    then says the figure cannot be computed).
    """
    if not glossary.formulas:
        return metrics
    chosen = list(metrics)
    for found in derived_words(question, glossary):
        if found.metric is None or found.metric not in chosen:
            continue
        candidates = [code for code, formula in glossary.formulas.items()
                      if formula.inputs[:1] == (found.metric,) and _names_word(code, found.word, glossary)]
        if len(candidates) == 1:
            chosen[chosen.index(found.metric)] = candidates[0]
    return tuple(dict.fromkeys(chosen))


def _row_states(code: str, word: str) -> bool:
    """Whether a document row's own label holds the derived word ("Cash dividend per share (NT dollars)"
    holds "per share"): the row states the figure, so no derivation of it is asked."""
    return code.startswith(METRIC_PREFIX) and re.search(rf"(?<![a-z]){re.escape(word.lower())}(?![a-z])",
                                                        label_of(code)) is not None


def _names_word(code: str, word: str, glossary: Glossary) -> bool:
    pattern = re.compile(rf"(?<![a-z]){re.escape(word.rstrip('s'))}" if word[:1].isascii() else re.escape(word))
    return any(owner == code and pattern.search(alias) for alias, (_, owner) in glossary.aliases.items())


def unmet_derivation(question: str, metrics: tuple[str, ...], periods: int, glossary: Glossary, lang: Lang,
                     *, computes: bool, analysis: bool, rows_described: bool = False) -> str | None:
    """The "cannot be computed" line when the question asks a derived figure nothing here computes; else None.

    ``rows_described``: the question's words beside its row were read as the document's own words
    about the row's table, so they are not weighed as something else the question asks.

    Nothing is unmet when the question names a formula metric, asks arithmetic or an analysis
    (ratio, average, CAGR, share, rank), or asks a growth over two periods or more.
    """
    if not metrics:
        return None
    beyond = [] if rows_described else beyond_the_rows(question, metrics, glossary)
    if beyond:
        names = [label(glossary.term(SlotKind.METRIC, m), lang) for m in metrics]
        return _TEXT[lang]["part"].format(rows=", ".join(names) if lang is Lang.EN else "、".join(names),
                                          words=", ".join(beyond))
    if computes or analysis or any(m in glossary.formulas for m in metrics):
        return None
    unmet = [w for w in derived_words(question, glossary)
             if not (w.growth and periods >= 2) and not any(_row_states(m, w.word) for m in metrics)]
    if not unmet:
        return None
    first = unmet[0]
    text = _TEXT[lang]
    names = [label(glossary.term(SlotKind.METRIC, m), lang) for m in metrics]
    inputs = "、".join(names) if lang is not Lang.EN else ", ".join(names)
    if first.growth:
        return text["growth"].format(phrase=first.phrase)
    return text["none"].format(phrase=first.phrase, inputs=inputs)


# One or two words beside a row's name qualify it ("the net difference in sale of modules" is the row
# ``Modules`` of a table of net sales); more than that, and more than the row's own words, and the row
# names less than half of what the question asks about: the question describes something else.
QUALIFYING_WORDS = 2


def beyond_the_rows(question: str, metrics: tuple[str, ...], glossary: Glossary) -> list[str]:
    """The question's content words no document row read explains, in its order, when they say it asks something
    else; else [].

    "For adjusted operating costs, what was the percentage change in the amount of before
    exceptional items, acquisition related costs, acquired intangible asset amortisation and
    share-based payment?" reads the row ``Adjusted operating costs``, and twelve words of the
    question name something that row is not; "the total amount capitalized to internal use software
    related to continuing operations" is not the balance row ``Internal use software`` (four words
    beyond its three). Only rows read from documents (``label:…``) are
    weighed: the glossary's own metrics are named by their aliases, not word by word.
    """
    if not all(m.startswith(METRIC_PREFIX) for m in metrics):
        return []
    own = set().union(*(label_words(label_of(m)) for m in metrics))
    # "between the third quarter and fourth quarter": periods, read apart from the rows; "how many quarters … lower
    # than $2.00": the count asked of the rows
    left = without_count_words(without_quarter_words(glossary.leftover(question, glossary.scan(question))))
    beyond = [word for word in label_words_in_order(left) if word not in own and word not in ASKING_WORDS]
    return beyond if len(beyond) > max(QUALIFYING_WORDS, len(own)) else []


# The question defines the figure it asks ("ROA is defined as: net income / average total assets").
_DEFINES = LazyPattern(r"(?<![a-z])(?:defined as|define|definition|calculated as|computed as|formula)(?![a-z])"
                      r"|で求め|で計算|定义为|计算公式")


def without_formula_inputs(question: str, metrics: tuple[str, ...], glossary: Glossary) -> tuple[str, ...]:
    """``metrics`` without those a named formula metric is computed from, when the question defines that figure.

    "ROA is defined as: FY2017 net income / (average total assets …)": the figure asked is ROA;
    net income and total assets are its inputs, cited in its computed line, not answers of their
    own (were ROA not computable, they would stand in for it). "Revenue and operating margin"
    without a definition asks both.
    """
    named = [m for m in metrics if m in glossary.formulas]
    if not named or not _DEFINES.search(normalize_text(question)):
        return metrics
    inputs: set[str] = set()
    stack = list(named)
    while stack:
        for name in glossary.formulas[stack.pop()].inputs:
            if name not in inputs:
                inputs.add(name)
                if name in glossary.formulas:
                    stack.append(name)
    kept = tuple(m for m in metrics if m not in inputs or m in named and not _inside(m, named, glossary))
    return kept or metrics


def _inside(metric: str, named: list[str], glossary: Glossary) -> bool:
    """Whether formula metric ``metric`` is an input of another named formula metric (EBITDA in EBITDA margin)."""
    return any(metric in glossary.formulas[other].inputs for other in named if other != metric)


def averages_balances(metric: str, glossary: Glossary, depth: int = 0) -> bool:
    """Whether formula metric ``metric`` reads a balance a year before (AVG or PRIOR), directly or through inputs."""
    formula = glossary.formulas.get(metric)
    if formula is None or depth > 4:
        return False
    return bool(formula.averaged or formula.prior) or any(averages_balances(m, glossary, depth + 1)
                                                          for m in formula.inputs)


def opening_year_only(metrics: tuple[str, ...], periods: tuple[Period, ...],
                      glossary: Glossary) -> tuple[Period, ...] | None:
    """The closing year alone when "average X between FY2018 and FY2019" defines an average-balance figure.

    "FY2019 fixed asset turnover = FY2019 revenue / (average PP&E between FY2018 and FY2019)":
    the two years are the opening and closing balances of one FY2019 figure, not two figures to
    average. None when the question is not of that form.
    """
    fiscal = sorted((p for p in periods if p.period_type == "FY" and p.period.isdigit()), key=lambda p: p.period)
    if len(fiscal) != 2 or len(periods) != 2 or int(fiscal[1].period) - int(fiscal[0].period) != 1:
        return None
    if not any(averages_balances(m, glossary) for m in metrics):
        return None
    return (fiscal[1],)
