"""Formula metrics answered from their inputs: ``OPERATING_MARGIN = OPERATING_INCOME / REVENUE``.

A formula metric the documents do not state is computed for one entity, period and channel
only when every input is found (stated, or itself computed from stated inputs); otherwise the
answer names the missing inputs. Money inputs of one currency in different scales are put on
the finest scale first and the answer says so (百万円 and 十億円 is arithmetic); inputs in
different currencies are never converted, so nothing is computed. A stated figure wins: when
the documents state the metric, the computation only appears beside it if it disagrees.

Every computed line cites every input with ``（计算自：doc · locator；…）`` and hands its numbers
to the provenance check (``StructuredOutcome.computed``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType

from ragspine.citation import Source, citation
from ragspine.facts.formulas import ABS, PERCENT_UNITS, PRIOR, PRIOR_SUFFIX, Formula
from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, format_number
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.facts.ports import FactStore
from ragspine.facts.query_metric import MetricQuery, QueryStatus, run_query
from ragspine.facts.unit_scales import common_unit, money_unit, rescale
from ragspine.qa.differing_figures import differing
from ragspine.qa.language import Lang
from ragspine.qa.render import describe, label
from ragspine.qa.result import AnswerStatus
from ragspine.qa.rounding import rounding_allowance
from ragspine.qa.stated_places import beside_line, fewer_line, rounded_line, rounded_stated, written_places
from ragspine.qa.structured import StructuredOutcome, format_decimal
from ragspine.sensitivity import Sensitivity

MAX_DEPTH = 4  # formulas over formulas (DuPont over margins and turnovers) nest at most this deep
MULTIPLE_UNITS = frozenset({"TIMES", "RATIO", "X", "MULTIPLE"})
RATIO_PLACES = 2  # a computed ratio, percentage, multiple or day count is shown to two decimals
UNSTATED = ""  # the unit of an amount whose document states none (no currency is assumed for it)

_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "value": "{what}：{value}{unit}（按公式 {formula} 计算：{inputs}{scale}）",
        "input": "{name} {value}{unit}", "join": "；",
        "missing": "无法计算{what}（{formula}）：缺少 {missing} 的数据，因此不提供数值。",
        "currencies": "无法计算{what}（{formula}）：输入的币种不同（{units}），币种之间不作换算。",
        "zero": "无法计算{what}（{formula}）：除数为零。",
        "conflict": "无法计算{what}（{formula}）：各来源的{name}数值不一致（{figures}），未作取舍，因此不据此计算。",
        "scale": "；{units} 已统一换算为 {target}",
        "check": "核对：按公式 {formula} 计算为 {value}{unit}，与公布数不一致（以公布数为准）",
        "change": "{entity}{metric}：{later} 较 {earlier} {direction} {amount}",
        "up": "增加", "down": "减少", "level": "持平", "points": "个百分点", "unstated": "未注明单位",
        "averaged": "；{names} 取 {first} 与 {last} 年末的平均值",
        "mean": "{entity}{metric} {first}–{last} 平均值：{value}{unit}（{n} 个数的平均）",
        "no_mean": "无法计算{entity}{metric} {first}–{last} 平均值：{missing} 无法计算，因此不提供数值。",
        "year_end": "；{names} 取 {last} 年末数（未载 {first} 年末数，不作平均）",
    }),
    Lang.EN: MappingProxyType({
        "value": "{what}: {value}{unit} (computed as {formula}: {inputs}{scale})",
        "input": "{name} {value}{unit}", "join": "; ",
        "missing": "{what} cannot be computed ({formula}): there is no figure for {missing}, so no value is given.",
        "currencies": "{what} cannot be computed ({formula}): its inputs are in different currencies ({units}), "
                      "which are never converted.",
        "zero": "{what} cannot be computed ({formula}): it divides by zero.",
        "conflict": "{what} is not computed ({formula}): the sources state different figures for {name} "
                    "({figures}) and neither is chosen, so nothing is computed from either.",
        "scale": "; {units} put on the scale of {target}",
        "check": "Check: computed as {formula} it is {value}{unit}, which differs from the stated figure "
                 "(the stated figure prevails)",
        "change": "{entity} {metric}: {later} vs {earlier} {direction} {amount}",
        "up": "up", "down": "down", "level": "unchanged", "points": " points", "unstated": "unit not stated",
        "averaged": "; {names} averaged over the {first} and {last} year-ends",
        "mean": "{entity} {metric} {first}–{last} average: {value}{unit} (mean of {n} figures)",
        "no_mean": "The {entity} {metric} {first}–{last} average cannot be computed: {missing} cannot be computed, "
                   "so no value is given.",
        "year_end": "; {names} at the {last} year-end (no {first} balance is stated, so no average)",
    }),
    Lang.JA: MappingProxyType({
        "value": "{what}：{value}{unit}（{formula} で計算：{inputs}{scale}）",
        "input": "{name} {value}{unit}", "join": "；",
        "missing": "{what}は計算できません（{formula}）：{missing} のデータがないため、数値は示しません。",
        "currencies": "{what}は計算できません（{formula}）：入力の通貨が異なり（{units}）、通貨は換算しません。",
        "zero": "{what}は計算できません（{formula}）：ゼロで割ることになります。",
        "conflict": "{what}は計算しません（{formula}）：{name}の数値が資料間で一致せず（{figures}）、"
                    "どちらも採用していないためです。",
        "scale": "；{units} は {target} に単位をそろえて計算",
        "check": "検算：{formula} で計算すると {value}{unit} となり、公表値と異なります（公表値を優先）",
        "change": "{entity}{metric}：{later} は {earlier} 比 {direction} {amount}",
        "up": "増加", "down": "減少", "level": "横ばい", "points": "ポイント", "unstated": "単位の記載なし",
        "averaged": "；{names} は {first} と {last} の期末の平均",
        "mean": "{entity}{metric} {first}–{last} の平均：{value}{unit}（{n} 個の数値の平均）",
        "no_mean": "{entity}{metric} {first}–{last} の平均は計算できません：{missing} が計算できないため、"
                   "数値は示しません。",
        "year_end": "；{names} は {last} の期末値（{first} の期末値の記載がないため平均せず）",
    }),
})


@dataclass(frozen=True, slots=True)
class Computed:
    """A formula metric computed from stated facts: the value, its unit and every fact it used."""

    value: Decimal
    unit: str
    inputs: tuple[Fact, ...]
    rescaled: tuple[str, ...] = ()  # units put on the finest scale of their currency
    target: str = ""
    averaged: tuple[str, ...] = ()  # AVG(…) codes computed over the opening and closing balances
    year_end: tuple[str, ...] = ()  # AVG(…) codes taken at year-end: the opening balance is not stated


@dataclass(frozen=True, slots=True)
class ComputedFigure(Fact):
    """A formula metric's figure as the answer shows it, standing in for a stated fact in the question's own
    arithmetic (a gap of two companies' margins, net debt over EBITDA): cited by the facts it was computed from."""

    inputs: tuple[Fact, ...] = ()
    places: int = 0  # the decimals it is shown with (a float drops the trailing zeros of 10.00)


@dataclass(frozen=True, slots=True)
class NotComputed:
    """Why a formula metric could not be computed: the missing inputs, or currencies that differ."""

    missing: tuple[str, ...] = ()
    currencies: tuple[str, ...] = ()
    zero: bool = False
    conflict: tuple[Fact, ...] = ()  # an input the sources state differently: every figure stated for it


def compute(metric: str, entity: str, period: Period, channel: str, *, facts: FactStore, glossary: Glossary,
            max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL, depth: int = 0) -> Computed | NotComputed:
    """The value of formula metric ``metric`` from its inputs for one entity, period and channel."""
    formula = glossary.formulas[metric]
    values: dict[str, tuple[Decimal, str]] = {}
    used: list[Fact] = []
    missing: list[str] = []
    rescaled: list[str] = []
    averaged: list[str] = []
    year_end: list[str] = []
    before = prior_year(period)
    for name in (*formula.averaged, *formula.prior):  # balances a year before: AVG(…) and PRIOR(…)
        key = name + PRIOR_SUFFIX
        if key in values:
            continue
        opening = None if before is None else run_query(MetricQuery(name, entity, before, channel), facts=facts,
                                                          max_sensitivity=max_sensitivity)
        if opening is not None and opening.status is QueryStatus.FOUND and opening.fact is not None:
            if differing(opening.fact, opening.conflicts):
                return NotComputed(conflict=(opening.fact, *differing(opening.fact, opening.conflicts)))
            values[key] = (Decimal(format_number(opening.fact.value)), opening.fact.unit)
            used.append(opening.fact)
            if name in formula.averaged:
                averaged.append(name)
        elif name in formula.prior:
            missing.append(f"{name} {before.label if before is not None else ''}".strip())
        else:
            year_end.append(name)
    for name in formula.inputs:
        stated = run_query(MetricQuery(name, entity, period, channel), facts=facts, max_sensitivity=max_sensitivity)
        if stated.status is QueryStatus.FOUND and stated.fact is not None:
            if differing(stated.fact, stated.conflicts):  # the answer chooses neither, so nothing is computed
                return NotComputed(conflict=(stated.fact, *differing(stated.fact, stated.conflicts)))
            values[name] = (Decimal(format_number(stated.fact.value)), stated.fact.unit)
            used.append(stated.fact)
            continue
        if name in glossary.formulas and depth < MAX_DEPTH:
            inner = compute(name, entity, period, channel, facts=facts, glossary=glossary,
                            max_sensitivity=max_sensitivity, depth=depth + 1)
            if isinstance(inner, Computed):
                values[name] = (inner.value, inner.unit)
                used.extend(inner.inputs)
                rescaled.extend(inner.rescaled)
                averaged.extend(inner.averaged)
                year_end.extend(inner.year_end)
                continue
            if inner.currencies or inner.zero or inner.conflict:
                return inner
            missing.extend(inner.missing)
            continue
        missing.append(name)
    if missing:
        return NotComputed(missing=tuple(dict.fromkeys(missing)))
    money = sorted({unit for _, unit in values.values() if money_unit(unit) is not None})
    target = common_unit(money) if money else None
    if money and target is None:
        return NotComputed(currencies=tuple(money))
    unstated = [name for name, (_, unit) in values.items()
                if unit == UNSTATED and _amount(name.removesuffix(PRIOR_SUFFIX), glossary)]
    if unstated and money:  # an amount in no stated unit beside one in a currency: they may not agree
        return NotComputed(currencies=(*money, UNSTATED))
    numbers: dict[str, Decimal] = {}
    for name, (value, unit) in values.items():
        if unit in PERCENT_UNITS:
            value = value / 100  # a percentage enters a formula as a fraction
        elif target is not None and money_unit(unit) is not None and unit != target:
            value = rescale(value, unit, target)
            rescaled.append(unit)
        numbers[name] = value
    result = formula.evaluate(numbers)
    if result is None:
        return NotComputed(zero=True)
    unit = _result_unit(glossary.term(SlotKind.METRIC, metric).unit or "", formula, values, target,
                        unstated=bool(unstated))
    if unit in PERCENT_UNITS:
        result *= 100
    return Computed(result, unit, tuple(dict.fromkeys(used)), tuple(dict.fromkeys(rescaled)), target or "",
                    tuple(dict.fromkeys(averaged)), tuple(dict.fromkeys(year_end)))


def prior_year(period: Period) -> Period | None:
    """The fiscal year before ``period`` (the opening balance of a year's averages); None for a quarter."""
    if period.period_type != "FY" or not period.period.isdigit():
        return None
    return Period.fiscal_year(int(period.period) - 1)


def _result_unit(declared: str, formula: Formula, values: dict[str, tuple[Decimal, str]], target: str | None, *,
                 unstated: bool = False) -> str:
    """The unit to show: a money result in its inputs' (common) unit, anything else in the metric's own.

    A money result of amounts whose documents state no unit states none either.
    """
    is_money = declared == "MONEY" or money_unit(declared) is not None
    if target is not None and is_money:
        return target
    if unstated and is_money:
        return UNSTATED
    return declared


def _amount(metric: str, glossary: Glossary) -> bool:
    """Whether ``metric`` is an amount of money (its glossary unit a currency, or the pack's MONEY)."""
    unit = glossary.term(SlotKind.METRIC, metric).unit or ""
    return unit == "MONEY" or money_unit(unit) is not None


def shown(computed: Computed, places: int | None = None) -> str:
    """The computed value as shown: to ``places`` decimals when the question asks, else a money amount in its
    inputs' precision and anything else to two decimals."""
    if places is None and (money_unit(computed.unit) is not None or computed.unit == UNSTATED):
        places = max((_places(f.value) for f in computed.inputs), default=0)
    elif places is None:
        places = RATIO_PLACES
    return format_decimal(computed.value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def _places(value: float) -> int:
    exponent = Decimal(format_number(value)).as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def with_derived(outcome: StructuredOutcome, *, facts: FactStore, glossary: Glossary, lang: Lang = Lang.ZH,
                 max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL,
                 places: int | None = None, percent: bool = False, average: bool = False) -> StructuredOutcome:
    """``outcome`` with every formula metric not stated computed from its inputs (or its missing inputs named).

    A stated formula metric keeps its stated value; the computation is added beside it only when
    it disagrees beyond the stated figure's rounding.
    """
    if not glossary.formulas or not any(r.query is not None and r.query.metric_code in glossary.formulas
                                        for r in outcome.results):
        return outcome
    lines = list(outcome.lines)
    extra: list[str] = []
    computed = list(outcome.computed)
    sources = {(s["doc"], s["locator"]): s for s in outcome.sources}
    derived = 0
    # "何%か" asks the headline in percent; its factors (asset turnover under a DuPont ROE) keep their unit
    headline = next((r.query.metric_code for r in outcome.results if r.query is not None), None)
    values: dict[MetricQuery, tuple[Decimal, str, tuple[Fact, ...]]] = {}  # each formula metric's figure
    figures: list[Fact] = []  # each computed one as a fact the question's arithmetic may take
    for index, result in enumerate(outcome.results):
        query = result.query
        if query is None or query.metric_code not in glossary.formulas:
            continue
        made = compute(query.metric_code, query.entity, query.period, query.channel, facts=facts,
                       glossary=glossary, max_sensitivity=max_sensitivity)
        if result.status is QueryStatus.FOUND and result.fact is not None:
            values[query] = (Decimal(format_number(result.fact.value)), result.fact.unit, (result.fact,))
            check = _check_line(result.fact, made, query, glossary, lang)
            if check is not None:
                extra.append(check[0])
                computed.extend(check[1])
                _add_sources(sources, made)
            agreeing = made if isinstance(made, Computed) and made.unit == result.fact.unit and check is None else None
            precise = (_at_places(lines[index], result.fact, agreeing, query, places, glossary, lang)
                       if places is not None and index < len(lines) else None)
            if precise is not None:
                lines[index], beside, numbers = precise
                extra += beside
                computed.extend(numbers)
                if agreeing is not None:
                    _add_sources(sources, agreeing)
            continue
        if result.status is not QueryStatus.NOT_FOUND or index >= len(lines):
            continue
        if percent and isinstance(made, Computed) and made.unit in MULTIPLE_UNITS and query.metric_code == headline:
            made = replace(made, value=made.value * 100, unit="PCT")  # "何%か" of a multiple: said in percent
        line, numbers = render_computed(query, made, glossary, lang, places=places)
        lines[index] = line
        computed.extend(numbers)
        _add_sources(sources, made)  # the inputs, or every figure of an input the sources state differently
        if isinstance(made, Computed):
            derived += 1
            values[query] = (made.value, made.unit, made.inputs)
            said = shown(made)
            figures.append(ComputedFigure(query.metric_code, query.entity, "", query.channel, query.period.period_type,
                                          query.period.period, float(said), made.unit, "", "", inputs=made.inputs,
                                          places=len(said.partition(".")[2])))
    changes = _changes(outcome, values, glossary, lang, places)
    extra += [line for line, _ in changes]
    computed += [n for _, numbers in changes for n in numbers]
    means = _means(outcome, values, glossary, lang, places) if average else []
    computed += [n for _, numbers in means for n in numbers]
    status = outcome.status
    if derived:
        found = sum(r.status is QueryStatus.FOUND for r in outcome.results) + derived
        status = AnswerStatus.FOUND if found == len(outcome.results) else AnswerStatus.PARTIAL
    lines[len(outcome.results):len(outcome.results)] = extra
    lines[0:0] = [line for line, _ in means]  # the average asked leads; each period's figure follows
    return replace(outcome, lines=tuple(lines), sources=tuple(sources.values()), status=status,
                   computed=tuple(computed), leading=outcome.leading + len(means),
                   mean_refused=outcome.mean_refused or any(not numbers for _, numbers in means),
                   figures=(*outcome.figures, *figures))


def _means(outcome: StructuredOutcome, values: dict[MetricQuery, tuple[Decimal, str, tuple[Fact, ...]]],
           glossary: Glossary, lang: Lang, places: int | None) -> list[tuple[str, tuple[str, ...]]]:
    """The mean of a formula metric over the periods asked ("3-year average operating margin"), citing every input.

    Given only when every period's figure is found (stated or computed); otherwise the line says
    which periods cannot be computed and gives no number.
    """
    text = _TEXT[lang]
    made: list[tuple[str, tuple[str, ...]]] = []
    groups: dict[tuple[str, str, str], list[MetricQuery]] = {}
    for result in outcome.results:
        query = result.query
        if query is not None and query.metric_code in glossary.formulas:
            groups.setdefault((query.metric_code, query.entity, query.channel), []).append(query)
    for (metric, entity, _), queries in groups.items():
        periods = sorted({q.period for q in queries}, key=lambda p: (p.period_type, p.period))
        if len(periods) < 2:
            continue
        names = {"entity": label(glossary.term(SlotKind.ENTITY, entity), lang),
                 "metric": label(glossary.term(SlotKind.METRIC, metric), lang),
                 "first": periods[0].label, "last": periods[-1].label}
        figures = [values.get(q) for q in queries]
        units = {f[1] for f in figures if f is not None}
        if any(f is None for f in figures) or len(units) != 1:
            missing = "、".join(q.period.label for q, f in zip(queries, figures, strict=True) if f is None)
            made.append((text["no_mean"].format(missing=missing or "、".join(sorted(units)), **names), ()))
            continue
        found = [f for f in figures if f is not None]
        mean = sum((f[0] for f in found), Decimal(0)) / len(found)
        shown_mean = format_decimal(mean.quantize(Decimal(1).scaleb(-(RATIO_PLACES if places is None else places)),
                                                  rounding=ROUND_HALF_UP))
        unit = found[0][1]
        inputs = tuple(dict.fromkeys(fact for f in found for fact in f[2]))
        line = text["mean"].format(value=shown_mean, unit=spaced(unit), n=len(found), **names)
        made.append((f"{line}{cited(inputs)}", (shown_mean, str(len(found)))))
    return made


def _changes(outcome: StructuredOutcome, values: dict[MetricQuery, tuple[Decimal, str, tuple[Fact, ...]]],
             glossary: Glossary, lang: Lang, places: int | None) -> list[tuple[str, tuple[str, ...]]]:
    """The change of a formula metric between the two periods asked (stated or computed), in points for PCT."""
    periods = list(dict.fromkeys(r.query.period for r in outcome.results if r.query is not None))
    if len(periods) != 2 or periods[0].period_type != periods[1].period_type:
        return []
    earlier, later = sorted(periods, key=lambda p: p.period)
    text = _TEXT[lang]
    made: list[tuple[str, tuple[str, ...]]] = []
    for query, (value, unit, inputs) in values.items():
        if query.period != later:
            continue
        before = values.get(replace(query, period=earlier))
        if before is None or before[1] != unit or (_stated(query, inputs) and _stated(query, before[2])):
            continue  # two stated figures: the channel's own difference says it
        gap = value - before[0]
        shown_gap = format_decimal(abs(gap).quantize(Decimal(1).scaleb(-(RATIO_PLACES if places is None else places)),
                                                     rounding=ROUND_HALF_UP))
        direction = text["up" if gap > 0 else "down" if gap < 0 else "level"]
        amount = f"{shown_gap}{text['points']}" if unit in PERCENT_UNITS else f"{shown_gap}{spaced(unit)}"
        line = text["change"].format(entity=label(glossary.term(SlotKind.ENTITY, query.entity), lang),
                                     metric=label(glossary.term(SlotKind.METRIC, query.metric_code), lang),
                                     later=later.label, earlier=earlier.label, direction=direction, amount=amount)
        made.append((f"{line}{cited(tuple(dict.fromkeys((*before[2], *inputs))))}", (shown_gap,)))
    return made


def _stated(query: MetricQuery, inputs: tuple[Fact, ...]) -> bool:
    return len(inputs) == 1 and inputs[0].metric_code == query.metric_code


def _add_sources(sources: dict[tuple[str, str], dict[str, str]], made: Computed | NotComputed) -> None:
    for fact in made.inputs if isinstance(made, Computed) else made.conflict:  # every figure its line cites
        sources.setdefault((fact.source_doc_id, fact.source_locator),
                           Source(fact.source_doc_id, fact.source_locator).as_dict())


def render_computed(query: MetricQuery, made: Computed | NotComputed, glossary: Glossary,
                    lang: Lang, *, places: int | None = None) -> tuple[str, tuple[str, ...]]:
    """The answer line of a computed formula metric (or why it is not computed) and the numbers it shows."""
    text = _TEXT[lang]
    formula = glossary.formulas[query.metric_code]
    what = describe(query, glossary, lang)
    constants = _constants(formula)
    if isinstance(made, NotComputed):
        if made.conflict:
            figures = text["join"].join(
                f"{format_number(f.value)}{spaced(f.unit)}{citation(f.source_doc_id, f.source_locator)}"
                for f in made.conflict)
            name = _input_label(made.conflict[0], query, glossary, lang)
            return text["conflict"].format(what=what, formula=formula.text, name=name, figures=figures), \
                (*constants, *(format_number(f.value) for f in made.conflict))
        if made.currencies:
            units = "、".join(u or text["unstated"] for u in made.currencies)
            return text["currencies"].format(what=what, formula=formula.text, units=units), \
                constants
        if made.zero:
            return text["zero"].format(what=what, formula=formula.text), constants
        names = text["join"].join(_missing_label(m, glossary, lang) for m in made.missing)
        return text["missing"].format(what=what, formula=formula.text, missing=names), constants
    value = shown(made, places)
    inputs = text["join"].join(text["input"].format(name=_input_label(f, query, glossary, lang),
                                                    value=format_number(f.value), unit=spaced(f.unit))
                               for f in made.inputs)
    scale = text["scale"].format(units="、".join(made.rescaled), target=made.target) if made.rescaled else ""
    scale += _basis(made, query, glossary, lang)
    percent = _percent_of_rows(made, formula, lang)
    line = text["value"].format(what=what, value=value, unit=spaced(made.unit) + percent, formula=formula.text,
                                inputs=inputs, scale=scale)
    shown_numbers = (value, *((percent.strip(" (（%)）"),) if percent else ()))
    return f"{line}{cited(made.inputs)}", (*shown_numbers, *constants, *(format_number(f.value) for f in made.inputs))


def _percent_of_rows(made: Computed, formula: Formula, lang: Lang) -> str:
    """`` (78.28%)`` beside a multiple over a statement's own rows (``domain/standard_ratios.py``), else "".

    Such a ratio is read in either form (a current ratio of 0.78, a liabilities-to-assets ratio of
    18.34%), so the answer states both.
    """
    if made.unit not in MULTIPLE_UNITS or not formula.inputs or \
            not all(name.startswith(METRIC_PREFIX) for name in formula.inputs):
        return ""
    percent = format_decimal((made.value * 100).quantize(Decimal(1).scaleb(-RATIO_PLACES), rounding=ROUND_HALF_UP))
    return f" ({percent}%)" if lang is Lang.EN else f"（{percent}%）"


def _input_label(fact: Fact, query: MetricQuery, glossary: Glossary, lang: Lang) -> str:
    """An input's name, with its year when it is not the year asked (an opening balance)."""
    name = label(glossary.term(SlotKind.METRIC, fact.metric_code), lang)
    if (fact.period_type, fact.period) == (query.period.period_type, query.period.period):
        return name
    return f"{name} {Period(fact.period_type, fact.period).label}"


def _missing_label(missing: str, glossary: Glossary, lang: Lang) -> str:
    """A missing input's name; ``INVENTORIES FY2017`` (a balance a year before) keeps its year."""
    code, _, year = missing.partition(" ")
    if code not in glossary.terms[SlotKind.METRIC]:  # a row no statement has (``domain/standard_ratios.py``)
        return label_of(code)
    name = label(glossary.term(SlotKind.METRIC, code), lang)
    return f"{name} {year}" if year else name


def _basis(made: Computed, query: MetricQuery, glossary: Glossary, lang: Lang) -> str:
    """Which definition a balance took: the average of the opening and closing balances, or the year-end one."""
    text = _TEXT[lang]
    before = prior_year(query.period)
    parts: list[str] = []
    if made.averaged and before is not None:
        names = text["join"].join(label(glossary.term(SlotKind.METRIC, m), lang) for m in made.averaged)
        parts.append(text["averaged"].format(names=names, first=before.label, last=query.period.label))
    if made.year_end:
        names = text["join"].join(label(glossary.term(SlotKind.METRIC, m), lang) for m in made.year_end)
        parts.append(text["year_end"].format(names=names, last=query.period.label,
                                             first=before.label if before is not None else ""))
    return "".join(parts)


def _check_line(stated: Fact, made: Computed | NotComputed, query: MetricQuery, glossary: Glossary,
                lang: Lang) -> tuple[str, tuple[str, ...]] | None:
    """The computation beside a stated figure, only when the two disagree beyond the stated rounding."""
    if not isinstance(made, Computed):
        return None
    formula = glossary.formulas[query.metric_code]
    places = _places(stated.value)
    step = Decimal(1).scaleb(-places)
    stated_value = Decimal(format_number(stated.value))
    # a sum or difference of figures each rounded where written may miss the stated figure by their halves
    inputs_rounding = rounding_allowance(made.inputs, made.unit) if _adds_up(formula) else Decimal(0)
    if stated.unit != made.unit or abs(made.value - stated_value) <= step / 2 + inputs_rounding:
        return None
    value = shown(made)
    line = _TEXT[lang]["check"].format(formula=formula.text, value=value, unit=spaced(made.unit))
    return f"{line}{cited(made.inputs)}", (value, *_constants(formula))


def _at_places(line: str, stated: Fact, agreeing: Computed | None, query: MetricQuery, places: int,
               glossary: Glossary, lang: Lang) -> tuple[str, list[str], tuple[str, ...]] | None:
    """A stated figure's ``line`` at the decimals the question asks (``stated_places``): the line, the lines beside
    it and the numbers it shows; None when the stated figure has exactly the decimals asked."""
    written = written_places(stated)
    if places < written:
        value = rounded_stated(stated, places, agreeing.value if agreeing is not None else None)
        return rounded_line(describe(query, glossary, lang), value, stated, lang), [], (value,)
    if places == written:
        return None
    if agreeing is None:
        return line, [fewer_line(lang)], ()
    computed, numbers = render_computed(query, agreeing, glossary, lang, places=places)
    return computed, [beside_line(stated, lang)], numbers


_ADDITIVE_NODES = (ast.Expression, ast.BinOp, ast.Add, ast.Sub, ast.UnaryOp, ast.USub, ast.UAdd, ast.Name, ast.Load,
                   ast.Constant, ast.Call)


def _adds_up(formula: Formula) -> bool:
    """Whether the formula only adds and subtracts figures (ABS and PRIOR of one, too): no product or quotient,
    so its inputs' rounding adds up to at most the sum of their halves."""
    for node in ast.walk(formula.tree):
        if not isinstance(node, _ADDITIVE_NODES) or (isinstance(node, ast.BinOp) and
                                                    not isinstance(node.op, ast.Add | ast.Sub)):
            return False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in {ABS, PRIOR}):
            return False
    return True


def spaced(unit: str) -> str:
    """`` JPY_M`` after a figure, nothing for an amount whose document states no unit."""
    return f" {unit}" if unit else ""


def cited(inputs: tuple[Fact, ...]) -> str:
    """``（计算自：doc · locator；…）`` naming every input fact."""
    stated = dict.fromkeys(g for f in inputs for g in (f.inputs if isinstance(f, ComputedFigure) else (f,)))
    return "（计算自：" + "；".join(f"{f.source_doc_id} · {f.source_locator}" for f in stated) + "）"


def _constants(formula: Formula) -> tuple[str, ...]:
    """Numbers written in the formula itself (365 days ...): shown in the answer, so declared."""
    return tuple(format_decimal(Decimal(str(node.value))) for node in ast.walk(formula.tree)
                 if isinstance(node, ast.Constant))
