"""Question-level arithmetic over found facts: averages, ratios, CAGR, sums and differences, consistency checks.

Deterministic and stated in words: each computed line says what was computed, shows the result
rounded as the question asks (``arithmetic_cues``), cites every input with ``（计算自：…）`` and
hands its numbers to the provenance check (``StructuredOutcome.computed``). Nothing is computed
from a figure that was not found: the line names the missing inputs instead. Money of one
currency in different scales is put on the finest scale; currencies are never converted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from types import MappingProxyType

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.query_metric import QueryResult
from ragspine.facts.unit_scales import common_unit, money_unit, rescale
from ragspine.qa.analytics.periods import quarters_of
from ragspine.qa.arithmetic_cues import AVERAGE, PERIOD_SUM, Arithmetic
from ragspine.qa.change_asks import without_change_lines
from ragspine.qa.derived import ComputedFigure, cited, spaced
from ragspine.qa.differing_figures import differing
from ragspine.qa.language import Lang
from ragspine.qa.period_parts import mixes_whole_and_part, without_wholes
from ragspine.qa.render import label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.rounding import within_rounding
from ragspine.qa.scale_wording import RESCALED
from ragspine.qa.structured import StructuredOutcome, format_decimal
from ragspine.qa.total_rows import is_a_total

DEFAULT_RATIO_PLACES = 2
Key = tuple[str, str, str, Period]  # metric, entity, channel, period

_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "mean_growth": "{who}{what} {span} 平均增长率：{value}%（{n} 个增长率的平均：{rates}）",
        "w_mean_growth": "平均增长率",
        "growth_sign": "{what}无法计算：{missing} 的起点数值不为正数，增长率没有意义，因此不提供数值。",
        "growth_open": "问题所问的是增长率的平均，但平均哪些增长率（各期或各实体）并不明确，因此不提供数值。",
        "average": "{who}{what}{span}平均值：{value}{unit}（{n} 个数的平均）",
        "by_size": "；各数均以负数列示，按绝对值为 {value}{unit}",
        "part_by_size": "；{a}以负数列示，按绝对值为 {value}{unit}",
        "ratio": "{who}{period} {a}与{b}之比：{value}{unit}",
        "per_unit": "{who}{period} 平均每单位{b}的{a}：{value} {unit}",
        "cagr": "{who}{what} {first}–{last} 年均复合增长率（{n} 年）：{value}%",
        "sum": "{who}{period} {terms}：{value}{unit}",
        "gap": "{period} {what}：{a}比{b}{direction} {value}{unit}",
        "row_gap": "{who}{period} {a}与{b}之差：{value}{unit}（{side}）",
        "row_relative": "{who}{period} {a}相对{b}的差异百分比：{value}%",
        "row_more": "{a}比{b}高", "row_less": "{a}比{b}低", "row_same": "{a}与{b}相同",
        "more": "高", "less": "低", "same": "相同，差",
        "check_yes": "{period} {who}{a} {left}{unit} 等于 {terms} {right}{unit}：一致",
        "check_no": "{period} {who}{a} {left}{unit} 不等于 {terms} {right}{unit}：不一致，相差 {gap}{unit}",
        "check_rounding": "{period} {who}{a} {left}{unit} 与 {terms} {right}{unit}：一致（在四舍五入范围内，"
                          "相差 {gap}{unit}）",
        "missing": "无法计算{what}：缺少 {missing} 的数据，因此不提供数值。",
        "conflict": "不计算{what}：各来源的 {missing} 数值不一致，未作取舍，因此不据任何一方计算。",
        "units": "无法计算{what}：单位不同（{units}），币种之间不作换算。",
        "rescaled": RESCALED[Lang.ZH],
        "row_unit": "（{periods} 未注明单位，按同一表格同一行其他数值的单位 {unit} 计）",
        "join": "、", "plus": " + ", "minus": " − ",
        "w_average": "平均值", "w_ratio": "比率", "w_cagr": "年均复合增长率", "w_sum": "合计", "w_gap": "差额",
        "w_check": "一致性核对", "unstated": "未注明单位",
        "one_figure_a_year": "（每年只列示一个数值，该年的平均值即该数值，因此平均值的变化即各年数值之间的变化。）",
        "change_of_means": "问题所问的是平均值之间的变化，此处不计算，因此不提供数值。",
        "gap_sign": "{a}与{b}之差在所问各年方向不同：平均差额按带符号计算或按各年差额的绝对值计算结果不同，"
                    "因此不提供数值。",
        "gap_negative": "{a}或{b}以负数列示：差额按带符号数值还是按绝对值计算并不明确，因此不提供数值。",
        "mean_gap": "{who}{span} {a}平均值与{b}平均值之差：{value}{unit}（{side}；均值分别为 {first} 与 {second}）",
        "mean_change": "{who}{what}平均值的变化（{later} 较 {earlier}）：{value}{unit}"
                       "（均值分别为 {second} 与 {first}）",
        "w_mean_change": "平均值的变化",
        "part_share": "{who}{period} {a}占（{terms}）合计的比例：{value}{unit}（合计 {total}{total_unit}）",
        "parts_share": "{who}{period} （{terms}）合计占{b}的比例：{value}{unit}（合计 {total}{total_unit}）",
        "average_in_name": "“平均”也是所读行名称中的词：问题是否要求各期平均值并不明确，因此不提供数值。",
        "whole_unclear": "问题所问的是部分占整体的比例，但哪一个数值是整体（合计）并不明确，因此不提供数值。",
        "whole_and_part": "所问期间中既有全年又有该年的部分季度，全年数已含各季度，二者不合并平均，因此不提供数值。",
    }),
    Lang.EN: MappingProxyType({
        "mean_growth": "{who}{what} {span} average growth: {value}% (mean of {n} growth rates: {rates})",
        "w_mean_growth": "average growth",
        "growth_sign": "The {what} cannot be computed: {missing} starts from a figure that is not positive, where a "
                       "growth rate has no meaning, so no value is given.",
        "growth_open": "The question asks for an average of growth rates, and which rates (of which periods or "
                       "entities) are averaged is not clear, so no value is given.",
        "average": "{who}{what}{span} average: {value}{unit} (mean of {n} figures)",
        "by_size": "; all are written as negatives, so by size {value}{unit}",
        "part_by_size": "; {a} is written as a negative, so by size {value}{unit}",
        "ratio": "{who}{period} ratio of {a} to {b}: {value}{unit}",
        "per_unit": "{who}{period} {a} per {b}: {value} {unit}",
        "cagr": "{who}{what} {first}–{last} compound annual growth rate ({n} years): {value}%",
        "sum": "{who}{period} {terms}: {value}{unit}",
        "gap": "{period} {what}: {a} is {value}{unit} {direction} {b}",
        "row_gap": "{who}{period} difference between {a} and {b}: {value}{unit} ({side})",
        "row_relative": "{who}{period} percentage difference of {a} from {b}: {value}%",
        "row_more": "{a} above {b}", "row_less": "{a} below {b}", "row_same": "{a} level with {b}",
        "more": "above", "less": "below", "same": "level with",
        "check_yes": "{period} {who}{a} {left}{unit} equals {terms} {right}{unit}: yes, they match",
        "check_no": "{period} {who}{a} {left}{unit} does not equal {terms} {right}{unit}: no, they differ by "
                    "{gap}{unit}",
        "check_rounding": "{period} {who}{a} {left}{unit} against {terms} {right}{unit}: yes, they agree within "
                          "rounding ({gap}{unit} apart)",
        "missing": "The {what} cannot be computed: there is no figure for {missing}, so no value is given.",
        "conflict": "The {what} is not computed: the sources state different figures for {missing} and neither "
                    "is chosen, so nothing is computed from either.",
        "units": "The {what} cannot be computed: the units differ ({units}) and currencies are never converted.",
        "rescaled": RESCALED[Lang.EN],
        "row_unit": " ({periods} states no unit: read in {unit}, the unit the same table row states)",
        "join": ", ", "plus": " + ", "minus": " − ",
        "w_average": "average", "w_ratio": "ratio", "w_cagr": "growth rate", "w_sum": "sum", "w_gap": "difference",
        "w_check": "consistency check", "unstated": "unit not stated",
        "one_figure_a_year": "(One figure is stated for each year, so each year's average is that figure and the "
                             "change of the averages is the change between those figures.)",
        "change_of_means": "The question asks for a change between averages, which is not computed here, so no "
                           "value is given.",
        "gap_sign": "The gap between {a} and {b} runs one way in some years asked and the other way in others: "
                    "the average difference signed and the average of its sizes differ, so no value is given.",
        "gap_negative": "{a} or {b} is written as a negative: whether their difference is of the signed figures "
                        "or of their sizes is not clear, so no value is given.",
        "mean_gap": "{who}{span} average {a} minus average {b}: {value}{unit} ({side}; means {first} and {second})",
        "mean_change": "{who}{what} change of the average ({later} against {earlier}): {value}{unit} "
                       "(means {second} and {first})",
        "w_mean_change": "change of the average",
        "part_share": "{who}{period} {a} as a share of {terms} combined: {value}{unit} (sum {total}{total_unit})",
        "parts_share": "{who}{period} {terms} combined as a share of {b}: {value}{unit} (sum {total}{total_unit})",
        "average_in_name": "\"Average\" is also a word of the row's own name: whether a mean over the periods is "
                           "asked is not clear, so no value is given.",
        "whole_unclear": "The question asks for a part as a share of a whole, and which figure is the whole (a "
                         "total) is not clear, so no value is given.",
        "whole_and_part": "The periods asked hold a year and some of its own quarters; the year already includes "
                          "them, so they are not averaged together and no value is given.",
    }),
    Lang.JA: MappingProxyType({
        "mean_growth": "{who}{what} {span} の平均成長率：{value}%（{n} 個の成長率の平均：{rates}）",
        "w_mean_growth": "平均成長率",
        "growth_sign": "{what}は計算できません：{missing} の起点の数値が正でなく、成長率に意味がないため、"
                       "数値は示しません。",
        "growth_open": "質問は成長率の平均を求めていますが、どの期間・どの対象の成長率を平均するか明らかでないため、"
                       "数値は示しません。",
        "average": "{who}{what}{span}の平均：{value}{unit}（{n} 個の数値の平均）",
        "by_size": "；いずれも負の値で記載されており、絶対値では {value}{unit}",
        "part_by_size": "；{a}は負の値で記載されており、絶対値では {value}{unit}",
        "ratio": "{who}{period} {a}の{b}に対する比率：{value}{unit}",
        "per_unit": "{who}{period} {b}1単位あたりの{a}：{value} {unit}",
        "cagr": "{who}{what} {first}–{last} の年平均成長率（{n} 年）：{value}%",
        "sum": "{who}{period} {terms}：{value}{unit}",
        "gap": "{period} {what}：{a}は{b}より {value}{unit} {direction}",
        "row_gap": "{who}{period} {a}と{b}の差：{value}{unit}（{side}）",
        "row_relative": "{who}{period} {a}の{b}に対する差の割合：{value}%",
        "row_more": "{a}は{b}より高い", "row_less": "{a}は{b}より低い", "row_same": "{a}と{b}は同じ",
        "more": "高い", "less": "低い", "same": "同じ（差",
        "check_yes": "{period} {who}{a} {left}{unit} は {terms} {right}{unit} と一致します",
        "check_no": "{period} {who}{a} {left}{unit} は {terms} {right}{unit} と一致しません（差 {gap}{unit}）",
        "check_rounding": "{period} {who}{a} {left}{unit} は {terms} {right}{unit} と四捨五入の範囲内で一致します"
                          "（差 {gap}{unit}）",
        "missing": "{what}は計算できません：{missing} のデータがないため、数値は示しません。",
        "conflict": "{what}は計算しません：{missing} の数値が資料間で一致せず、どちらも採用していないためです。",
        "units": "{what}は計算できません：単位が異なり（{units}）、通貨は換算しません。",
        "rescaled": RESCALED[Lang.JA],
        "row_unit": "（{periods} は単位の記載がないため、同じ表の同じ行が示す単位 {unit} として計算）",
        "join": "、", "plus": " + ", "minus": " − ",
        "w_average": "平均", "w_ratio": "比率", "w_cagr": "年平均成長率", "w_sum": "合計", "w_gap": "差",
        "w_check": "整合性の確認", "unstated": "単位の記載なし",
        "one_figure_a_year": "（各年の数値は一つだけで、その年の平均はその数値のため、"
                             "平均の変化は各年の数値の間の変化です。）",
        "change_of_means": "質問は平均どうしの変化を求めていますが、ここでは計算しないため、数値は示しません。",
        "gap_sign": "{a}と{b}の差は所問の年によって向きが異なり、符号付きの平均と差の大きさの平均が一致しないため、"
                    "数値は示しません。",
        "gap_negative": "{a}または{b}が負数で記載されており、差を符号付きの数値で取るか大きさで取るかが明確でないため、"
                        "数値は示しません。",
        "mean_gap": "{who}{span} {a}の平均と{b}の平均の差：{value}{unit}（{side}；平均はそれぞれ {first} と {second}）",
        "mean_change": "{who}{what}の平均の変化（{later} の {earlier} に対する）：{value}{unit}"
                       "（平均はそれぞれ {second} と {first}）",
        "w_mean_change": "平均の変化",
        "part_share": "{who}{period} （{terms}）の合計に占める{a}の割合：{value}{unit}（合計 {total}{total_unit}）",
        "parts_share": "{who}{period} {b}に占める（{terms}）の合計の割合：{value}{unit}（合計 {total}{total_unit}）",
        "average_in_name": "「平均」は読んだ行の名前の語でもあります：期間の平均が問われているかは明らかでないため、"
                           "数値は示しません。",
        "whole_unclear": "質問は全体に占める部分の割合を求めていますが、どの数値が全体（合計）か"
                         "明らかでないため、数値は示しません。",
        "whole_and_part": "問われた期間に通期とその一部の四半期が含まれ、通期は四半期を含むため、"
                          "合わせて平均せず、数値は示しません。",
    }),
})
Made = tuple[str, tuple[str, ...]]  # a line and the numbers it shows


@dataclass(frozen=True, slots=True)
class _OnOneUnit:
    """Inputs put on one unit, that unit, and the note saying which scales were reconciled."""

    values: list[Decimal]
    unit: str
    note: str
    facts: list[Fact]


def with_arithmetic(outcome: StructuredOutcome, arithmetic: Arithmetic, *, glossary: Glossary,
                    lang: Lang = Lang.ZH) -> StructuredOutcome:
    """``outcome`` with the computed lines the question asks for (and their numbers for provenance)."""
    if not arithmetic.computes:
        return outcome
    results = outcome.results
    found: dict[Key, Fact] = {(f.metric_code, f.entity, f.channel, Period(f.period_type, f.period)): f
                              for f in (*outcome.figures, *(r.fact for r in results)) if f is not None}
    asked = _asked(results)
    calc = _Calc(glossary, lang, arithmetic, found,
                 {r.fact for r in results if r.fact is not None and differing(r.fact, r.conflicts)})
    made: list[Made] = []
    metrics, entities, periods, channels = asked
    whole_and_parts = _whole_and_its_parts(entities, glossary) if arithmetic.consistency and len(metrics) == 1 else None
    if arithmetic.consistency and len(metrics) >= 3:
        made += calc.consistency(metrics, entities, periods, channels)
    elif whole_and_parts is not None:  # "did the segments' operating income add up to the group's?"
        made += calc.parts_add_up(metrics[0], *whole_and_parts, periods, channels)
    elif arithmetic.cagr:
        made += calc.cagr(metrics, entities, periods, channels)
    elif arithmetic.parts_whole and set(arithmetic.parts_whole) == set(metrics):
        made += calc.share_of_parts(arithmetic.parts_whole[0], list(arithmetic.parts_whole[1:]), entities, periods,
                                    channels)
    elif arithmetic.parts_over and _only_parts_over(arithmetic.parts_over, metrics, found):
        made += calc.parts_over_whole(arithmetic.parts_over[0], list(arithmetic.parts_over[1:]), entities, periods,
                                      channels)
    elif arithmetic.ratio and len(metrics) == 2:
        made += calc.ratio(metrics, entities, periods, channels)
    elif arithmetic.ratio and len(metrics) == 1 and len(entities) == 1 and _in_written_order(periods, arithmetic):
        made += calc.period_ratio(metrics[0], entities[0], _in_written_order(periods, arithmetic), channels)
    elif arithmetic.ratio and len(metrics) == 1 and len(entities) == 1 and _quarter_and_its_year(periods, arithmetic):
        made += calc.period_ratio(metrics[0], entities[0], _quarter_and_its_year(periods, arithmetic), channels)
    elif arithmetic.ratio and arithmetic.add and not arithmetic.subtract and len(metrics) >= 3:
        # "the proportion of the sum of A and B over C" with the parts and the whole not told apart: the sum of
        # all three is no answer to a share, and which figure divides is not clear
        made.append((calc.text["whole_unclear"], ()))
    elif (arithmetic.subtract or arithmetic.add) and len(metrics) >= 2:
        made += calc.combine(metrics, entities, periods, channels, subtract=arithmetic.subtract)
    elif _sums_periods(arithmetic, metrics, periods):
        made += calc.period_sum(metrics[0], entities, periods, channels)
    elif _sums_entities(arithmetic, metrics, entities, glossary):
        made += calc.entity_sum(metrics[0], entities, periods, channels)
    elif arithmetic.average and arithmetic.growth:  # a mean of growth rates, never of the amounts they run between
        made += calc.mean_growth(metrics, entities, periods, channels)
    elif arithmetic.average and _average_named_by_row(metrics, arithmetic):
        made.append((calc.text["average_in_name"], ()))  # "average shares vested": the row's own word, or a mean?
    elif arithmetic.average and arithmetic.change and _two_spans(arithmetic, metrics, entities):
        made += calc.mean_change(metrics[0], entities[0], arithmetic.spans, channels)
        outcome = without_change_lines(outcome)  # each year's change is not the change of the averages
    elif arithmetic.average and arithmetic.change and _two_rows_averaged(arithmetic, metrics, entities, periods):
        made += calc.mean_gap(metrics, entities[0], periods, channels)
        outcome = without_change_lines(outcome)  # each row's change is not the gap of their averages
    elif arithmetic.average and arithmetic.change and _figure_of_each_year(arithmetic, asked, found):
        # "the change in the average X from 2018 to 2019", X stated once a year: each year's mean is its figure,
        # and the change line already answers; said so
        return replace(outcome, lines=(*outcome.lines, calc.text["one_figure_a_year"]))
    elif arithmetic.average and arithmetic.change:
        made.append((calc.text["change_of_means"], ()))  # which averages are compared is not said
    elif arithmetic.average and outcome.mean_refused:
        pass  # the mean asked (of a computed figure) cannot be given: another row's mean would read as it
    elif arithmetic.average and mixes_whole_and_part(without_wholes(periods)):
        made.append((calc.text["whole_and_part"], ()))  # a year beside some of its quarters: no mean of the two
    elif arithmetic.average:  # a year asked with its four quarters: the quarters are averaged, not the year too
        made += calc.average(metrics, entities, without_wholes(periods), channels)
    elif arithmetic.entity_gap and len(entities) == 2:
        made += calc.entity_gap(metrics, entities, periods, channels)
    elif _relative_gap_of_two_rows(arithmetic, metrics, entities, periods):
        made += calc.row_relative_gap(metrics, entities[0], periods[0], channels)
    elif _gap_of_two_rows(arithmetic, metrics, entities, periods):
        made += calc.row_gap(metrics, entities[0], periods[0], channels)
    elif ((arithmetic.share_of or (arithmetic.ratio and arithmetic.percent)) and len(metrics) == 1
          and not _stated_in_percent(metrics[0], found) and not outcome.computed):
        # "the percentage of software in total", "software as a percentage of total": the whole read as no row,
        # so the part's amount is no answer (each division's share of the group, computed, read its whole)
        made.append((calc.text["whole_unclear"], ()))
    elif arithmetic.share_of and len(metrics) >= 3 and not outcome.computed:
        # "hardware revenue % of total revenue" read as three rows and no share computed: which is the part and
        # which the whole is not clear, and the part's amount alone is no answer to a share
        made.append((calc.text["whole_unclear"], ()))
    if not made:
        return outcome
    if not outcome.computed and not any(numbers for _, numbers in made):  # the inputs are not the figure asked
        return replace(outcome, lines=tuple(line for line, _ in made), sources=(), status=AnswerStatus.NOT_FOUND,
                       computed=(), leading=0)
    # The figure asked leads (after a mean of computed figures, which the question named first); the stated
    # figures it was computed from follow.
    at = outcome.leading
    lines = [*outcome.lines[:at], *(line for line, _ in made), *outcome.lines[at:]]
    computed = [*outcome.computed, *(n for _, numbers in made for n in numbers)]
    return replace(outcome, lines=tuple(lines), computed=tuple(computed))


def _stated_in_percent(metric: str, found: dict[Key, Fact]) -> bool:
    """Whether the row's figures found are percentages: a share asked of it is its own figure."""
    units = {fact.unit for key, fact in found.items() if key[0] == metric}
    return units == {"PCT"}


def _whole_and_its_parts(entities: list[str], glossary: Glossary) -> tuple[str, list[str]] | None:
    """The one entity named whose parts (entities one level below it) are named too, at least two; else None."""
    terms = glossary.terms[SlotKind.ENTITY]
    wholes = [e for e in entities if sum(terms[p].parent == e for p in entities if p in terms) >= 2]
    if len(wholes) != 1:
        return None
    parts = [e for e in entities if e in terms and terms[e].parent == wholes[0]]
    return (wholes[0], parts) if len(parts) + 1 == len(entities) else None


def _sums_entities(arithmetic: Arithmetic, metrics: list[str], entities: list[str], glossary: Glossary) -> bool:
    """One additive figure of two named entities or more, added up: "the combined net sales of A and B".

    Only when the words ask a sum ("total", "combined", 合计) and nothing else, and no entity named is
    a part of another (a group and its own segment never add up).
    """
    other = (arithmetic.average, arithmetic.ratio, arithmetic.cagr, arithmetic.subtract, arithmetic.entity_gap,
             arithmetic.consistency, arithmetic.change)
    if not (arithmetic.add or arithmetic.period_sum) or any(other) or len(metrics) != 1 or len(entities) < 2:
        return False
    if metrics[0] not in glossary.terms[SlotKind.METRIC] or not glossary.term(SlotKind.METRIC, metrics[0]).additive:
        return False
    named = set(entities)
    for entity in entities:
        parent = glossary.term(SlotKind.ENTITY, entity).parent
        while parent:
            if parent in named:
                return False
            parent = glossary.term(SlotKind.ENTITY, parent).parent if parent in glossary.terms[SlotKind.ENTITY] \
                else None
    return True


def _sums_periods(arithmetic: Arithmetic, metrics: list[str], periods: list[Period]) -> bool:
    """One figure over two periods or more, added up: "the total deposits in 2018 and 2019".

    Only when the question's own words say so ("total", "sum", "altogether", 合计, with the names
    blanked, so the row "Total cost of revenue" named in full asks no sum), or a lower-case "total"
    stands beside the periods named (``periods_totalled``: "the total cost of revenue in both 2019
    and 2018"), and no other computation is asked; periods of one kind only (a year and its quarters
    never add up).
    """
    other = (arithmetic.average, arithmetic.ratio, arithmetic.cagr, arithmetic.subtract, arithmetic.entity_gap,
             arithmetic.consistency, arithmetic.change)
    if arithmetic.period_sum == 0 or any(other) or len(metrics) != 1 or len(periods) < 2:
        return False
    # a row read loosely keeps its own "Total" in the question's words: that "total" names the row
    own = len(PERIOD_SUM.findall(label_of(metrics[0]))) if metrics[0].startswith(METRIC_PREFIX) else 0
    return (arithmetic.periods_totalled or arithmetic.sum_words > own) and len({p.period_type for p in periods}) == 1


def _only_parts_over(parts_over: tuple[str, ...], metrics: list[str], found: dict[Key, Fact]) -> bool:
    """Whether the whole and its parts are every metric read that has a figure: the one name qualifying the
    parts ("revenue from A and B") is read beside them, and only when it states no figure (else it may be
    the whole or a part, and the question is left to the ratio's reading)."""
    others = set(metrics) - set(parts_over)
    return set(parts_over) <= set(metrics) and not any(key[0] in others for key in found)


def _in_written_order(periods: list[Period], arithmetic: Arithmetic) -> list[Period]:
    """The two fiscal years asked, in the order the question writes them ("2019 … as a percentage of 2018"):
    a ratio of one figure over two years divides the first by the second. [] unless exactly those two, when
    a change is asked (the change line answers it), and when the ratio's words divide by a metric."""
    if arithmetic.change or arithmetic.denominator is not None:
        return []  # "the change … as a percentage of 2018", "… as a percentage of revenue in 2017 and 2018"
    years = [Period.fiscal_year(int(year)) for year in arithmetic.years]
    return years if len(years) == 2 and set(years) == set(periods) and len(periods) == 2 else []


def _quarter_and_its_year(periods: list[Period], arithmetic: Arithmetic) -> list[Period]:
    """A quarter, then the fiscal year it is of, where those two alone are asked ("the revenue in the first quarter
    of fiscal 2018 as a percentage of the total revenue that year"): the quarter over its year. [] otherwise, and
    when a change is asked or the ratio's words divide by a metric."""
    if arithmetic.change or arithmetic.denominator is not None or len(periods) != 2:
        return []
    quarters = [p for p in periods if p.period_type == "Q"]
    years = [p for p in periods if p.period_type == "FY"]
    if len(quarters) != 1 or len(years) != 1 or quarters[0] not in quarters_of(years[0]):
        return []
    return [quarters[0], years[0]]


def _gap_of_two_rows(arithmetic: Arithmetic, metrics: list[str], entities: list[str], periods: list[Period]) -> bool:
    """"The difference between APAC and EMEA net sales in 2019": two rows (metrics) of one entity and period.

    Only where "difference" (相差, の差) is said in so many words and no percentage is asked (a
    "percentage difference" wants a relative figure, not the gap); over two periods the words ask
    for a change of one row, which the change line answers.
    """
    return (arithmetic.difference and not arithmetic.percent and len(metrics) == 2 and len(entities) == 1
            and len(periods) == 1)


def _relative_gap_of_two_rows(arithmetic: Arithmetic, metrics: list[str], entities: list[str],
                              periods: list[Period]) -> bool:
    """"The percentage difference between fair value and carrying amount of total debt in 2018": two rows of one
    entity and period, the first's gap from the second as a percentage of the second."""
    return arithmetic.relative_difference and len(metrics) == 2 and len(entities) == 1 and len(periods) == 1


def _two_spans(arithmetic: Arithmetic, metrics: list[str], entities: list[str]) -> bool:
    """"The change in the average X between 2017-2018 and 2018-2019": one row, two year spans written, each
    averaged; the later span's mean minus the earlier's. No percentage (a relative change is not this)."""
    spans = arithmetic.spans
    return (len(spans) == 2 and spans[0] != spans[1] and not arithmetic.percent and len(metrics) == 1
            and len(entities) == 1 and all(a != b for a, b in spans))


def _two_rows_averaged(arithmetic: Arithmetic, metrics: list[str], entities: list[str],
                       periods: list[Period]) -> bool:
    """"The difference between average A and average B from 2018 to 2019": "average" said of each of two
    rows (or of their difference: "the average difference between A and B", the same figure), one entity,
    the same fiscal years for both means (no span pairs, no percentage)."""
    return ((arithmetic.averages == 2 or arithmetic.averaged_gap) and not arithmetic.spans[1:]
            and not arithmetic.percent and len(metrics) == 2
            and len(entities) == 1 and len(periods) >= 2 and {p.period_type for p in periods} == {"FY"})


def _figure_of_each_year(arithmetic: Arithmetic, asked: tuple[list[str], list[str], list[Period], list[str]],
                         found: dict[Key, Fact]) -> bool:
    """"The change in the average X from 2018 to 2019": "average" right before the one row, two fiscal years
    named, neither a span nor a year's own average, and one figure found for each: the average of a year
    that states one figure is that figure, so the change asked is the change of the two figures."""
    metrics, entities, periods, channels = asked
    if not arithmetic.change_in_average or arithmetic.spans or arithmetic.averages != 1 or arithmetic.averaged_gap:
        return False
    if len(metrics) != 1 or len(entities) != 1 or len(channels) != 1 or len(periods) != 2:
        return False
    return all(p.period_type == "FY" and (metrics[0], entities[0], channels[0], p) in found for p in periods)


def _average_named_by_row(metrics: list[str], arithmetic: Arithmetic) -> bool:
    """Whether every "average" of the question may be a word of a row's own name ("Weighted average grant
    date fair value: Shares vested" read for "the average shares vested"): the mean asked is then unclear."""
    return any(code.startswith(METRIC_PREFIX) and 0 < arithmetic.averages <= len(AVERAGE.findall(label_of(code)))
               for code in metrics)


def _row_of_its_cell(metrics: list[str]) -> list[str]:
    """[the row] when one of two open rows read is a column's cell of the other (``more than 5 years: operating
    leases`` beside ``operating leases``): a table of parts by column keeps the bare label for the row's Total
    column, the whole of its other cells; else []."""
    labels = [label_of(code) if code.startswith(METRIC_PREFIX) else "" for code in metrics]
    return [code for code, own in zip(metrics, labels, strict=True)
            if own and any(other.endswith(f": {own}") for other in labels)][:1] if len(metrics) == 2 else []


def _asked(results: Sequence[QueryResult]) -> tuple[list[str], list[str], list[Period], list[str]]:
    queries = [r.query for r in results if r.query is not None]
    return (list(dict.fromkeys(q.metric_code for q in queries)), list(dict.fromkeys(q.entity for q in queries)),
            list(dict.fromkeys(q.period for q in queries)), list(dict.fromkeys(q.channel for q in queries)))


def _unit_of_the_row(facts: Sequence[Fact]) -> str | None:
    """The one money unit a table row states, when every fact is a cell of that row and the others state none.

    A table's unit note often heads one column group only ("(In thousands, except percentages)" above
    the 2018 amounts): the 2019 cell of the same row is in the same unit. Cells of different rows,
    tables or documents, or a row stating two units, keep their own units (nothing is computed).
    """
    stated = {f.unit for f in facts if f.unit}
    if len(stated) != 1 or all(f.unit for f in facts):
        return None
    unit = next(iter(stated))
    rows = {(f.source_doc_id, f.source_locator.partition(",col=")[0]) for f in facts}
    if money_unit(unit) is None or len(rows) != 1 or ",col=" not in facts[0].source_locator:
        return None
    return unit


def _period_label(fact: Fact) -> str:
    return f"FY{fact.period}" if fact.period_type == "FY" else fact.period


class _Calc:
    """The computations over one question's found facts, worded in one language."""

    def __init__(self, glossary: Glossary, lang: Lang, arithmetic: Arithmetic, found: dict[Key, Fact],
                 differing: set[Fact]) -> None:
        self.glossary, self.lang, self.arithmetic, self.found = glossary, lang, arithmetic, found
        self.differing = differing  # figures other sources state differently: the answer chooses none
        self.text = _TEXT[lang]
        self.space = " " if lang is Lang.EN else ""

    # --- naming ---------------------------------------------------------------------------------
    def metric(self, code: str) -> str:
        return label(self.glossary.term(SlotKind.METRIC, code), self.lang)

    def entity(self, code: str) -> str:
        return label(self.glossary.term(SlotKind.ENTITY, code), self.lang)

    def who(self, entity: str, period: Period | None = None) -> str:
        """The entity before a period's label (no space before the empty label of an undated figure)."""
        return f"{self.entity(entity)}{self.space if period is None or period.label else ''}"

    def inputs(self, keys: Iterable[Key], what: str) -> list[Fact] | str:
        """The facts of ``keys``, or the line naming the missing ones (or those the sources state differently)."""
        facts, missing, differing = [], [], []
        for key in keys:
            fact = self.found.get(key)
            named = f"{self.entity(key[1])}{self.space}{key[3].label} {self.metric(key[0])}"
            if fact is None:
                missing.append(named)
            else:
                facts.append(fact)
                if fact in self.differing:
                    differing.append(named)
        if missing:
            return self.text["missing"].format(what=what, missing=self.text["join"].join(missing))
        if differing:
            return self.text["conflict"].format(what=what, missing=self.text["join"].join(differing))
        return facts

    def values(self, facts: list[Fact], what: str) -> _OnOneUnit | str:
        """The inputs on one unit (money on its finest scale), that unit, and the rescaling note."""
        units = [f.unit for f in facts]
        if len(set(units)) == 1:
            return _OnOneUnit([_dec(f) for f in facts], units[0], "", facts)
        row_unit = _unit_of_the_row(facts)
        if row_unit is not None:
            unstated = self.text["join"].join(_period_label(f) for f in facts if not f.unit)
            return _OnOneUnit([_dec(f) for f in facts], row_unit,
                              self.text["row_unit"].format(periods=unstated, unit=row_unit), facts)
        target = common_unit(units)
        if target is None:
            shown = (u or self.text["unstated"] for u in sorted(set(units)))  # "": the document states no unit
            return self.text["units"].format(what=what, units=self.text["join"].join(shown))
        moved = sorted({u for u in units if u != target})
        note = self.text["rescaled"].format(units=self.text["join"].join(moved), target=target)
        return _OnOneUnit([rescale(_dec(f), f.unit, target) for f in facts], target, note, facts)

    def on_one_unit(self, keys: Iterable[Key], what: str) -> _OnOneUnit | str:
        """The found inputs of ``keys`` on one unit, or the line saying why nothing is computed."""
        facts = self.inputs(keys, what)
        return facts if isinstance(facts, str) else self.values(facts, what)

    def as_percent(self, fraction: Decimal) -> str:
        """A fraction below one shown to two decimals of a percent beside its two decimals ("0.11" of
        0.1085 hides a 1% error on a margin), unless the question asked percent or its own places."""
        if self.arithmetic.percent or self.arithmetic.places is not None or not 0 < abs(fraction) < 1:
            return ""
        return format_decimal((fraction * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

    def rounded(self, value: Decimal, default: int) -> str:
        places = self.arithmetic.places if self.arithmetic.places is not None else default
        return format_decimal(value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))

    def amount(self, value: Decimal, facts: Sequence[Fact]) -> str:
        """A money or count result: as asked, else in the inputs' own precision."""
        return self.rounded(value, max((_places(f) for f in facts), default=0))

    # --- computations ---------------------------------------------------------------------------
    def average(self, metrics: list[str], entities: list[str], periods: list[Period],
                channels: list[str]) -> list[Made]:
        over_periods = len(periods) >= 2
        if not over_periods and len(entities) == 1 and len(metrics) >= 2:
            # "the average of the high and low price in 2019": one period, the rows named are what is averaged
            named = self.text["join"].join(map(self.metric, metrics))
            return [made for channel in channels
                    for made in self._mean(entities[0], [(m, entities[0], channel, periods[0]) for m in metrics],
                                           f" {periods[0].label}", named)]
        made: list[Made] = []
        for metric in metrics:
            if over_periods and metric in self.glossary.formulas and not any(
                    k[0] == metric and not isinstance(f, ComputedFigure) for k, f in self.found.items()):
                continue  # a formula metric computed per period, none stated: its mean is the derived channel's line
            for channel in channels:
                groups = ([(e, [(metric, e, channel, p) for p in periods]) for e in entities] if over_periods
                          else [(None, [(metric, e, channel, periods[0]) for e in entities])] if len(entities) >= 2
                          else [])
                for entity, keys in groups:
                    span = (f" {periods[0].label}–{periods[-1].label}" if over_periods
                            else f" {periods[0].label}")
                    made += self._mean(entity, keys, span, self.metric(metric))
        return made

    def _mean(self, entity: str | None, keys: list[Key], span: str, named: str) -> list[Made]:
        """The mean of the figures of ``keys`` (one line, its inputs cited), or the line saying why not."""
        what = f"{self.who(entity) if entity else ''}{named} {self.text['w_average']}"
        got = self.on_one_unit(keys, what)
        if isinstance(got, str):
            return [(got, ())]
        values, unit, note, facts = got.values, got.unit, got.note, got.facts
        mean = sum(values, Decimal(0)) / len(values)
        # figures computed here are shown rounded already: their mean gets no more places than they have
        extra = 0 if any(isinstance(f, ComputedFigure) for f in facts) else 2
        shown = self.rounded(mean, max((_places(f) for f in facts), default=0) + extra)
        shown = shown if self.arithmetic.places is not None else _trimmed(shown)
        line = self.text["average"].format(who=self.who(entity) if entity else "", what=named, span=span,
                                           value=shown, unit=spaced(unit), n=len(values))
        # figures written as negatives (costs in parentheses): the mean is said by size too
        size = shown.lstrip("-") if all(v < 0 for v in values) else ""
        if size:
            line += self.text["by_size"].format(value=size, unit=spaced(unit))
        return [(f"{line}{note}{cited(tuple(facts))}", (shown, str(len(values)), *((size,) if size else ())))]

    def ratio(self, metrics: list[str], entities: list[str], periods: list[Period], channels: list[str]) -> list[Made]:
        made: list[Made] = []
        a, b = metrics
        if self.arithmetic.share_of and self.arithmetic.denominator not in metrics and not self.arithmetic.explicit:
            whole = [m for m in metrics if is_a_total(m)]
            if len(whole) != 1 and self.arithmetic.whole in metrics:  # "of the total income before taxes"
                whole = [self.arithmetic.whole]
            if len(whole) != 1:  # "what percentage of operating leases is due in more than 5 years"
                whole = _row_of_its_cell(metrics)
            if len(whole) != 1:  # "the percentage of A in B": which is the whole is not clear
                return [(self.text["whole_unclear"], ())]
            a, b = [m for m in metrics if m != whole[0]][0], whole[0]
        elif self.arithmetic.denominator == a:  # "総資産に占める純資産の割合": the first named divides
            a, b = b, a
        for entity in entities:
            for period in periods:
                for channel in channels:
                    what = f"{self.metric(a)} / {self.metric(b)} {self.text['w_ratio']}"
                    keys = [(a, entity, channel, period), (b, entity, channel, period)]
                    per = self.per_unit(keys, entity, period)
                    if per is not None:  # "revenue per store": money over a count, in the money's unit
                        made.append(per)
                        continue
                    got = self.on_one_unit(keys, what)
                    if isinstance(got, str):
                        made.append((got, ()))
                        continue
                    values, _unit, note, facts = got.values, got.unit, got.note, got.facts
                    if values[1] == 0:
                        continue
                    if self.arithmetic.share_of and abs(values[0]) > abs(values[1]):
                        made.append((self.text["whole_unclear"], ()))  # a part larger than its whole: misread
                        continue
                    value = values[0] / values[1] * (100 if self.arithmetic.percent else 1)
                    shown = self.rounded(value, DEFAULT_RATIO_PLACES)
                    line = self.text["ratio"].format(who=self.who(entity, period), period=period.label,
                                                     a=self.metric(a), b=self.metric(b), value=shown,
                                                     unit="%" if self.arithmetic.percent else "")
                    also = self.as_percent(value)
                    # a part of a whole written as a negative (shares vested, an outflow in brackets): its share by
                    # size is the other reading, stated beside the signed one
                    size = shown.lstrip("-") if values[0] < 0 < values[1] and (
                        self.arithmetic.share_of or self.arithmetic.percent) else ""
                    by_size = self.text["part_by_size"].format(
                        a=self.metric(a), value=size, unit="%" if self.arithmetic.percent else "") if size else ""
                    made.append((f"{line}{also and f'（{also}%）'}{by_size}{note}{cited(tuple(facts))}",
                                 (shown, *((also,) if also else ()), *((size,) if size else ()))))
        return made

    def per_unit(self, keys: list[Key], entity: str, period: Period) -> Made | None:
        """An amount of money over a count of things (stores, employees) found for both keys, as money per thing in
        the amount's own unit; None for any other pair (a ratio of one unit, or units never divided)."""
        facts = self.inputs(keys, "")
        if isinstance(facts, str) or len(facts) != 2:
            return None
        amount, count = facts
        counted = bool(count.unit) and count.unit != "PCT" and money_unit(count.unit) is None
        if money_unit(amount.unit) is None or not counted:
            return None
        if self.arithmetic.percent or self.arithmetic.share_of or _dec(count) == 0:
            return None
        shown = self.rounded(_dec(amount) / _dec(count), DEFAULT_RATIO_PLACES)
        line = self.text["per_unit"].format(who=self.who(entity, period), period=period.label,
                                            a=self.metric(amount.metric_code), b=self.metric(count.metric_code),
                                            value=shown, unit=amount.unit)
        return f"{line}{cited(tuple(facts))}", (shown,)

    def share_of_parts(self, part: str, parts: list[str], entities: list[str], periods: list[Period],
                       channels: list[str]) -> list[Made]:
        """``part`` over the sum of ``parts`` (the whole the question adds up itself), each of one period."""
        made: list[Made] = []
        terms = self.text["plus"].join(self.metric(m) for m in parts)
        for entity in entities:
            for period in periods:
                for channel in channels:
                    what = f"{self.metric(part)} / ({terms}) {self.text['w_ratio']}"
                    got = self.on_one_unit([(m, entity, channel, period) for m in parts], what)
                    if isinstance(got, str):
                        made.append((got, ()))
                        continue
                    whole = sum(got.values, Decimal(0))
                    if any(v < 0 for v in got.values) or whole == 0:
                        made.append((self.text["whole_unclear"], ()))  # parts of both signs make no whole
                        continue
                    value = got.values[parts.index(part)] / whole * (100 if self.arithmetic.percent else 1)
                    shown = self.rounded(value, DEFAULT_RATIO_PLACES)
                    total = self.amount(whole, got.facts)
                    line = self.text["part_share"].format(who=self.who(entity, period), period=period.label,
                                                          a=self.metric(part), terms=terms, value=shown,
                                                          unit="%" if self.arithmetic.percent else "",
                                                          total=total, total_unit=spaced(got.unit))
                    made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown, total)))
        return made

    def parts_over_whole(self, whole: str, parts: list[str], entities: list[str], periods: list[Period],
                         channels: list[str]) -> list[Made]:
        """The sum of ``parts`` over ``whole``, each of one period: "A and B over total revenue"."""
        made: list[Made] = []
        terms = self.text["plus"].join(self.metric(m) for m in parts)
        for entity in entities:
            for period in periods:
                for channel in channels:
                    what = f"({terms}) / {self.metric(whole)} {self.text['w_ratio']}"
                    got = self.on_one_unit([*((m, entity, channel, period) for m in parts),
                                            (whole, entity, channel, period)], what)
                    if isinstance(got, str):
                        made.append((got, ()))
                        continue
                    *shares, base = got.values
                    total = sum(shares, Decimal(0))
                    if any(v < 0 for v in shares) or base <= 0 or total > base:
                        made.append((self.text["whole_unclear"], ()))  # parts of both signs, or more than the whole
                        continue
                    value = total / base * (100 if self.arithmetic.percent else 1)
                    shown = self.rounded(value, DEFAULT_RATIO_PLACES)
                    summed = self.amount(total, got.facts[:-1])
                    line = self.text["parts_share"].format(who=self.who(entity, period), period=period.label,
                                                           b=self.metric(whole), terms=terms, value=shown,
                                                           unit="%" if self.arithmetic.percent else "",
                                                           total=summed, total_unit=spaced(got.unit))
                    made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown, summed)))
        return made

    def period_ratio(self, metric: str, entity: str, periods: list[Period], channels: list[str]) -> list[Made]:
        """One metric of the first year written over the second: "the ratio of X in fiscal 2019 to fiscal 2018"."""
        made: list[Made] = []
        first, second = periods
        for channel in channels:
            what = f"{self.who(entity)}{self.metric(metric)} {first.label} / {second.label} {self.text['w_ratio']}"
            got = self.on_one_unit([(metric, entity, channel, first), (metric, entity, channel, second)], what)
            if isinstance(got, str):
                made.append((got, ()))
                continue
            if got.values[1] == 0:
                continue
            value = got.values[0] / got.values[1] * (100 if self.arithmetic.percent else 1)
            shown = self.rounded(value, DEFAULT_RATIO_PLACES)
            line = self.text["ratio"].format(who=self.who(entity), period=self.metric(metric), a=first.label,
                                             b=second.label, value=shown,
                                             unit="%" if self.arithmetic.percent else "")
            made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown,)))
        return made

    def cagr(self, metrics: list[str], entities: list[str], periods: list[Period], channels: list[str]) -> list[Made]:
        made: list[Made] = []
        years = sorted((p for p in periods if p.period_type == "FY"), key=lambda p: int(p.period))
        if len(years) < 2:
            return made
        first, last = years[0], years[-1]
        n = int(last.period) - int(first.period)
        for metric in metrics:
            for entity in entities:
                for channel in channels:
                    what = f"{self.who(entity)}{self.metric(metric)} {self.text['w_cagr']}"
                    got = self.on_one_unit([(metric, entity, channel, first), (metric, entity, channel, last)], what)
                    if isinstance(got, str):
                        made.append((got, ()))
                        continue
                    values, _unit, note, facts = got.values, got.unit, got.note, got.facts
                    if values[0] <= 0 or values[1] <= 0:
                        continue  # a growth rate between signs has no meaning
                    with localcontext() as ctx:
                        ctx.prec = 28
                        rate = ((values[1] / values[0]) ** (Decimal(1) / n) - 1) * 100
                    shown = self.rounded(rate, DEFAULT_RATIO_PLACES)
                    line = self.text["cagr"].format(who=self.who(entity), what=self.metric(metric),
                                                    first=first.label, last=last.label, n=n, value=shown)
                    made.append((f"{line}{note}{cited(tuple(facts))}", (shown, str(n))))
        return made

    def combine(self, metrics: list[str], entities: list[str], periods: list[Period], channels: list[str], *,
                subtract: bool) -> list[Made]:
        """The first metric minus (or plus) the others, per entity and period."""
        made: list[Made] = []
        sign = self.text["minus" if subtract else "plus"]
        for entity in entities:
            for period in periods:
                for channel in channels:
                    terms = sign.join(self.metric(m) for m in metrics)
                    what = f"{self.who(entity)}{period.label} {terms}"
                    got = self.on_one_unit([(m, entity, channel, period) for m in metrics], what)
                    if isinstance(got, str):
                        made.append((got, ()))
                        continue
                    values, unit, note, facts = got.values, got.unit, got.note, got.facts
                    total = values[0] - sum(values[1:], Decimal(0)) if subtract else sum(values, Decimal(0))
                    shown = self.amount(total, facts)
                    line = self.text["sum"].format(who=self.who(entity, period), period=period.label, terms=terms,
                                                   value=shown, unit=spaced(unit))
                    # rows written as negatives (liabilities in parentheses) add up to a negative: said by size too
                    size = shown.lstrip("-") if not subtract and all(v < 0 for v in values) else ""
                    if size:
                        line += self.text["by_size"].format(value=size, unit=spaced(unit))
                    made.append((f"{line}{note}{cited(tuple(facts))}", (shown, *((size,) if size else ()))))
        return made

    def entity_sum(self, metric: str, entities: list[str], periods: list[Period], channels: list[str]) -> list[Made]:
        """One metric added up over the entities named, per period and channel."""
        made: list[Made] = []
        terms = f"{self.text['plus'].join(self.entity(e) for e in entities)}{self.space}{self.metric(metric)}"
        for period in periods:
            for channel in channels:
                what = f"{period.label} {terms}"
                got = self.on_one_unit([(metric, entity, channel, period) for entity in entities], what)
                if isinstance(got, str):
                    made.append((got, ()))
                    continue
                shown = self.amount(sum(got.values, Decimal(0)), got.facts)
                line = self.text["sum"].format(who="", period=period.label, terms=terms, value=shown,
                                               unit=spaced(got.unit))
                made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown,)))
        return made

    def period_sum(self, metric: str, entities: list[str], periods: list[Period], channels: list[str]) -> list[Made]:
        """One metric added up over the periods asked, per entity and channel."""
        made: list[Made] = []
        terms = self.text["plus"].join(p.label for p in periods)
        for entity in entities:
            for channel in channels:
                what = f"{self.who(entity)}{self.metric(metric)} {terms}"
                got = self.on_one_unit([(metric, entity, channel, p) for p in periods], what)
                if isinstance(got, str):
                    made.append((got, ()))
                    continue
                shown = self.amount(sum(got.values, Decimal(0)), got.facts)
                line = self.text["sum"].format(who=self.who(entity), period=self.metric(metric), terms=terms,
                                               value=shown, unit=spaced(got.unit))
                made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown,)))
        return made

    def entity_gap(self, metrics: list[str], entities: list[str], periods: list[Period],
                   channels: list[str]) -> list[Made]:
        made: list[Made] = []
        a, b = entities
        for metric in metrics:
            for period in periods:
                for channel in channels:
                    what = f"{period.label} {self.metric(metric)} {self.text['w_gap']}"
                    got = self.on_one_unit([(metric, a, channel, period), (metric, b, channel, period)], what)
                    if isinstance(got, str):
                        made.append((got, ()))
                        continue
                    values, unit, note, facts = got.values, got.unit, got.note, got.facts
                    gap = values[0] - values[1]
                    shown = self.amount(abs(gap), facts)
                    direction = self.text["more" if gap > 0 else "less" if gap < 0 else "same"]
                    line = self.text["gap"].format(period=period.label, what=self.metric(metric), a=self.entity(a),
                                                   b=self.entity(b), value=shown,
                                                   unit=(" points" if unit == "PCT" and self.lang is Lang.EN
                                                         else spaced(unit)),
                                                   direction=direction)
                    made.append((f"{line}{note}{cited(tuple(facts))}", (shown,)))
        return made

    def row_gap(self, metrics: list[str], entity: str, period: Period, channels: list[str]) -> list[Made]:
        """The size of the gap between two metrics of one entity and period, and which is above."""
        made: list[Made] = []
        a, b = metrics
        for channel in channels:
            what = f"{self.who(entity)}{period.label} {self.metric(a)} / {self.metric(b)} {self.text['w_gap']}"
            got = self.on_one_unit([(a, entity, channel, period), (b, entity, channel, period)], what)
            if isinstance(got, str):
                made.append((got, ()))
                continue
            gap = got.values[0] - got.values[1]
            shown = self.amount(abs(gap), got.facts)
            side = self.text["row_more" if gap > 0 else "row_less" if gap < 0 else "row_same"].format(
                a=self.metric(a), b=self.metric(b))
            unit = " points" if got.unit == "PCT" and self.lang is Lang.EN else spaced(got.unit)
            line = self.text["row_gap"].format(who=self.who(entity, period), period=period.label, a=self.metric(a),
                                               b=self.metric(b), value=shown, unit=unit, side=side)
            made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown,)))
        return made

    def row_relative_gap(self, metrics: list[str], entity: str, period: Period, channels: list[str]) -> list[Made]:
        """(A - B) / B in percent for two metrics of one entity and period, both cited.

        Nothing is computed from rows stated in percent (a gap in points or relative to the second is not
        clear) or from a second figure that is not positive (a relative gap from it has no meaning)."""
        made: list[Made] = []
        a, b = metrics
        for channel in channels:
            what = f"{self.who(entity)}{period.label} {self.metric(a)} / {self.metric(b)} {self.text['w_gap']}"
            got = self.on_one_unit([(a, entity, channel, period), (b, entity, channel, period)], what)
            if isinstance(got, str):
                made.append((got, ()))
                continue
            if got.unit == "PCT" or got.values[1] <= 0:
                continue
            value = (got.values[0] - got.values[1]) / got.values[1] * 100
            shown = self.rounded(value, DEFAULT_RATIO_PLACES)
            line = self.text["row_relative"].format(who=self.who(entity, period), period=period.label,
                                                    a=self.metric(a), b=self.metric(b), value=shown)
            made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown,)))
        return made

    def mean_growth(self, metrics: list[str], entities: list[str], periods: list[Period],
                    channels: list[str]) -> list[Made]:
        """The mean of growth rates: each entity's from the year before to the one year asked, or one entity's
        year on year over the years asked. Each rate is on its own entity's unit, so currencies never meet."""
        years = sorted((p for p in periods if p.period_type == "FY" and p.period.isdigit()),
                       key=lambda p: int(p.period))
        if len(years) == 1:  # the year before is not stated for every entity: the missing line names it
            years.insert(0, Period.fiscal_year(int(years[0].period) - 1))
        if len(metrics) != 1 or len(channels) != 1 or len(years) < 2 or (len(entities) > 1 and len(years) != 2):
            return [(self.text["growth_open"], ())]
        metric, channel = metrics[0], channels[0]
        what = f"{self.metric(metric)} {self.text['w_mean_growth']}"
        pairs = [(entity, earlier, later) for entity in entities
                 for earlier, later in zip(years, years[1:], strict=False)]
        rates: list[tuple[str, Decimal]] = []
        facts: list[Fact] = []
        for entity, earlier, later in pairs:
            got = self.on_one_unit([(metric, entity, channel, earlier), (metric, entity, channel, later)], what)
            if isinstance(got, str):
                return [(got, ())]
            start, end = got.values
            if start <= 0:
                named = f"{self.entity(entity)}{self.space}{earlier.label} {self.metric(metric)}"
                return [(self.text["growth_sign"].format(what=what, missing=named), ())]
            named = self.entity(entity) if len(entities) > 1 else f"{earlier.label}–{later.label}"
            rates.append((named, (end - start) / start * 100))
            facts += got.facts
        mean = sum((rate for _, rate in rates), Decimal(0)) / len(rates)
        shown = self.rounded(mean, DEFAULT_RATIO_PLACES)
        each = [(named, self.rounded(rate, DEFAULT_RATIO_PLACES)) for named, rate in rates]
        listed = self.text["join"].join(f"{named} {'' if r.startswith('-') else '+'}{r}%" for named, r in each)
        who = self.who(entities[0]) if len(entities) == 1 else ""
        line = self.text["mean_growth"].format(who=who, what=self.metric(metric), span=f"{years[0].label}–"
                                               f"{years[-1].label}", value=shown, n=len(rates), rates=listed)
        numbers = (shown, str(len(rates)), *(r for _, r in each), *(r.lstrip("-") for _, r in each))
        return [(f"{line}{cited(tuple(dict.fromkeys(facts)))}", tuple(dict.fromkeys(numbers)))]

    def mean(self, keys: list[Key], what: str) -> tuple[Decimal, _OnOneUnit] | str:
        """The mean of the found inputs of ``keys`` on one unit, or the line saying why there is none."""
        got = self.on_one_unit(keys, what)
        return got if isinstance(got, str) else (sum(got.values, Decimal(0)) / len(got.values), got)

    def mean_shown(self, value: Decimal, facts: Sequence[Fact]) -> str:
        shown = self.rounded(value, max((_places(f) for f in facts), default=0) + 2)
        return shown if self.arithmetic.places is not None else _trimmed(shown)

    def mean_gap(self, metrics: list[str], entity: str, periods: list[Period], channels: list[str]) -> list[Made]:
        """The mean of one row over the years asked minus the mean of the other over the same years."""
        made: list[Made] = []
        a, b = metrics
        for channel in channels:
            what = f"{self.who(entity)}{self.metric(a)} / {self.metric(b)} {self.text['w_gap']}"
            got = self.on_one_unit([(m, entity, channel, p) for m in (a, b) for p in periods], what)
            if isinstance(got, str):
                made.append((got, ()))
                continue
            n = len(periods)
            yearly = [x - y for x, y in zip(got.values[:n], got.values[n:], strict=True)]
            if self.arithmetic.averaged_gap and any(v < 0 for v in got.values):  # signed, or by size?
                made.append((self.text["gap_negative"].format(a=self.metric(a), b=self.metric(b)), ()))
                continue
            if self.arithmetic.averaged_gap and any(g > 0 for g in yearly) and any(g < 0 for g in yearly):
                # "the average difference between A and B" over gaps of both signs: signed, or by size?
                made.append((self.text["gap_sign"].format(a=self.metric(a), b=self.metric(b)), ()))
                continue
            first = sum(got.values[:n], Decimal(0)) / n
            second = sum(got.values[n:], Decimal(0)) / n
            gap = first - second
            shown = self.mean_shown(abs(gap), got.facts)
            side = self.text["row_more" if gap > 0 else "row_less" if gap < 0 else "row_same"].format(
                a=self.metric(a), b=self.metric(b))
            unit = " points" if got.unit == "PCT" and self.lang is Lang.EN else spaced(got.unit)
            means = (self.mean_shown(first, got.facts), self.mean_shown(second, got.facts))
            line = self.text["mean_gap"].format(who=self.who(entity), span=f"{periods[0].label}–{periods[-1].label}",
                                                a=self.metric(a), b=self.metric(b), value=shown, unit=unit,
                                                side=side, first=means[0], second=means[1])
            made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (shown, *means)))
        return made

    def mean_change(self, metric: str, entity: str, spans: tuple[tuple[str, str], ...],
                    channels: list[str]) -> list[Made]:
        """The mean over the later span minus the mean over the earlier one (spans put in time order)."""
        made: list[Made] = []
        earlier, later = sorted(spans, key=sorted)
        what = f"{self.who(entity)}{self.metric(metric)} {self.text['w_mean_change']}"
        for channel in channels:
            got = self.on_one_unit([(metric, entity, channel, Period.fiscal_year(int(year)))
                                    for span in (earlier, later) for year in sorted(span)], what)
            if isinstance(got, str):
                made.append((got, ()))
                continue
            first = (got.values[0] + got.values[1]) / 2
            second = (got.values[2] + got.values[3]) / 2
            shown = self.mean_shown(second - first, got.facts)
            means = (self.mean_shown(first, got.facts), self.mean_shown(second, got.facts))
            line = self.text["mean_change"].format(
                who=self.who(entity), what=self.metric(metric), value=shown, unit=spaced(got.unit),
                earlier="–".join(sorted(earlier)), later="–".join(sorted(later)), first=means[0], second=means[1])
            # the spans' years are the cited figures' own (a year before a year named is written by no one else)
            made.append((f"{line}{got.note}{cited(tuple(dict.fromkeys(got.facts)))}",
                         (shown, *means, *earlier, *later)))
        return made

    def consistency(self, metrics: list[str], entities: list[str], periods: list[Period],
                    channels: list[str]) -> list[Made]:
        """One side against the other, yes or no, and the gap.

        The sides are the metrics the question adds with ``+`` against the others; without a ``+``,
        the first metric named against the sum of the rest ("A equals B and C's sum").
        """
        made: list[Made] = []
        group = [m for m in self.arithmetic.plus_group if m in metrics]
        if group and len(group) < len(metrics):
            whole, parts = [m for m in metrics if m not in group], group
        else:
            whole, parts = metrics[:1], metrics[1:]
        for entity in entities:
            for period in periods:
                for channel in channels:
                    what = f"{self.who(entity)}{period.label} {self.text['w_check']}"
                    got = self.on_one_unit([(m, entity, channel, period) for m in [*whole, *parts]], what)
                    if isinstance(got, str):
                        made.append((got, ()))
                        continue
                    values, unit, note, facts = got.values, got.unit, got.note, got.facts
                    left, right = sum(values[:len(whole)], Decimal(0)), sum(values[len(whole):], Decimal(0))
                    left_shown, right_shown = self.amount(left, facts), self.amount(right, facts)
                    gap = self.amount(abs(left - right), facts)
                    key = _verdict(left - right, facts, unit)
                    line = self.text[key].format(period=period.label, who=self.who(entity),
                                                 a=self.text["plus"].join(self.metric(m) for m in whole),
                                                 left=left_shown, right=right_shown,
                                                 terms=self.text["plus"].join(self.metric(m) for m in parts),
                                                 unit=spaced(unit), gap=gap)
                    made.append((f"{line}{note}{cited(tuple(facts))}", (left_shown, right_shown, gap)))
        return made


    def parts_add_up(self, metric: str, whole: str, parts: list[str], periods: list[Period],
                     channels: list[str]) -> list[Made]:
        """The whole entity's figure against the sum of its parts' (the group against its segments)."""
        made: list[Made] = []
        a = f"{self.entity(whole)}{self.space}{self.metric(metric)}"
        terms = f"{self.text['plus'].join(self.entity(p) for p in parts)}{self.space}{self.metric(metric)}"
        for period in periods:
            for channel in channels:
                got = self.on_one_unit([(metric, e, channel, period) for e in (whole, *parts)],
                                       f"{period.label} {self.text['w_check']}")
                if isinstance(got, str):
                    made.append((got, ()))
                    continue
                left, right = got.values[0], sum(got.values[1:], Decimal(0))
                left_shown, right_shown = self.amount(left, got.facts), self.amount(right, got.facts)
                gap = self.amount(abs(left - right), got.facts)
                line = self.text[_verdict(left - right, got.facts, got.unit)].format(
                    period=period.label, who="", a=a, left=left_shown, right=right_shown, terms=terms,
                    unit=spaced(got.unit), gap=gap)
                made.append((f"{line}{got.note}{cited(tuple(got.facts))}", (left_shown, right_shown, gap)))
        return made


def _verdict(gap: Decimal, facts: Sequence[Fact], unit: str) -> str:
    """Equal, equal but for the rounding of the figures as written, or not equal."""
    return "check_yes" if gap == 0 else "check_rounding" if within_rounding(gap, facts, unit) else "check_no"


def _dec(fact: Fact) -> Decimal:
    return Decimal(format_number(fact.value))


def _places(fact: Fact) -> int:
    if isinstance(fact, ComputedFigure):
        return fact.places
    exponent = _dec(fact).as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def _trimmed(shown: str) -> str:
    """``1650.00`` -> ``1650``, ``1234.50`` -> ``1234.5``: an average shown without needless zeros."""
    if "." not in shown:
        return shown
    try:
        return format_decimal(Decimal(shown.rstrip("0").rstrip(".")))
    except InvalidOperation:
        return shown

