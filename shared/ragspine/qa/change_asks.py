"""A change of a share asked, answered only by figures that are shares: never by the change of amounts.

Two stated figures of one series always give a change line (``FY2019 vs FY2018 up 53353``).
"What was the change in the percentage of sales from APAC?" asks how a share of a total moved;
when the figures found are the amounts (net sales from APAC, in a currency, or beyond ±100 in
no stated unit, which no percentage of a total can be), their change answers another question,
and a wrong number is worse than none. The change line is then replaced by a sentence saying so,
with no number; the stated figures stay, each with its source.

Not withheld, because the line states both readings: a "percentage change" of a figure that is
itself a percentage (the relative change, with the change in points as the amount), and the change
of two negative figures (costs written in parentheses: the signed change, then the change by size,
``structured.render_difference``).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from ragspine.facts.glossary import normalize_text
from ragspine.facts.unit_scales import money_unit
from ragspine.lazy import LazyPattern
from ragspine.qa.language import Lang
from ragspine.qa.structured import StructuredOutcome

if TYPE_CHECKING:
    from ragspine.qa.difference import Difference

_CHANGE = LazyPattern(r"(?<![a-z])(?:change[sd]?|increase[sd]?|decrease[sd]?|difference|differ|growth|grew|"
                     r"movement)(?![a-z])|変化|増減|变化|变动|增减|增长|減少|増加")
# "the percentage of sales from APAC", "percent of total revenue", "share of", "proportion of", 占比, 構成比
_SHARE = LazyPattern(r"(?<![a-z])(?:percent(?:age)?|proportion|share|%)\s+of(?![a-z])|占比|构成比|構成比|割合|比重")
_WHOLE = 100  # a share of a total, in percent, lies within ±100

_TEXT = MappingProxyType({
    Lang.ZH: "问题所问的是占比（占总额的百分比）的变化，而找到的是金额：金额的变化不是占比的变化，"
             "此处也不据此计算占比，因此不提供变化值。",
    Lang.EN: "The question asks how a share (a percentage of a total) changed, and the figures found are amounts: "
             "their change is not the change of the share, and the share is not computed from them here, so no "
             "change is given.",
    Lang.JA: "質問は構成比（合計に占める割合）の変化を問うていますが、見つかったのは金額です：金額の変化は構成比の変化"
             "ではなく、ここでは構成比も計算しないため、変化は示しません。",
})


def share_change_unanswered(question: str, difference: Difference) -> bool:
    """Whether ``question`` asks the change of a share and ``difference`` is a change of amounts."""
    text = normalize_text(question)
    if not _SHARE.search(text) or not _CHANGE.search(text):
        return False
    figures = (difference.earlier, difference.later)
    if all(f.unit == "PCT" for f in figures):
        return False
    # amounts in a currency, or figures no share of a total can be (beyond ±100 in no stated unit)
    return any(money_unit(f.unit) is not None or not f.unit and abs(f.value) > _WHOLE for f in figures)


def with_change_read(outcome: StructuredOutcome, question: str, *, lang: Lang = Lang.ZH) -> StructuredOutcome:
    """``outcome`` with the change lines that answer another question than the share asked replaced by why."""
    unanswered = [d for d in outcome.differences if share_change_unanswered(question, d)]
    if not unanswered:  # most answers: no change line, or none answering another question
        return outcome
    shown = _lines_of(outcome)
    if any(id(d) not in shown for d in unanswered):
        return outcome
    dropped = {shown[id(d)] for d in unanswered}
    lines = [line for at, line in enumerate(outcome.lines) if at not in dropped]
    lines.insert(min(dropped), _TEXT[lang])
    kept = tuple(d for d in outcome.differences if d not in unanswered)
    return replace(outcome, lines=tuple(lines), differences=kept)


def without_change_lines(outcome: StructuredOutcome) -> StructuredOutcome:
    """``outcome`` without its change lines: each row's own change answers another question than the change
    (or gap) of averages computed in its place."""
    shown = _lines_of(outcome)
    if not outcome.differences or len(shown) != len(outcome.differences):
        return outcome
    dropped = set(shown.values())
    return replace(outcome, lines=tuple(line for at, line in enumerate(outcome.lines) if at not in dropped),
                   differences=())


def _lines_of(outcome: StructuredOutcome) -> dict[int, int]:
    """The line each difference is rendered on (``run_structured`` puts them last, in the differences' order)."""
    first = len(outcome.lines) - len(outcome.differences)
    if first < 0:
        return {}
    return {id(d): first + i for i, d in enumerate(outcome.differences) if _cites(outcome.lines[first + i], d)}


def _cites(line: str, diff: Difference) -> bool:
    return (f"{diff.earlier.source_doc_id} · {diff.earlier.source_locator}" in line
            and f"{diff.later.source_doc_id} · {diff.later.source_locator}" in line)
