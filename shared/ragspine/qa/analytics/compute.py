"""Computed figures from found facts: prior-period changes, rankings (of figures, of growth, of a year's quarters),
shares of a total (of a parent, of a channel in its entity), sums of quarters.

Every computed line cites its inputs with ``（计算自：doc · locator；…）`` (the one citation
form in every language, as for differences) and hands its numbers
to the provenance check (``StructuredOutcome.differences`` / ``computed``). A figure whose
inputs are missing is never computed: the answer says which input is missing instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from decimal import Decimal
from types import MappingProxyType

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import Fact, format_number
from ragspine.facts.query_metric import QueryResult, QueryStatus
from ragspine.facts.unit_scales import common_unit, rescale
from ragspine.qa.analytics.cues import Analysis
from ragspine.qa.analytics.periods import prior_period, quarters_of
from ragspine.qa.difference import Difference, change_unit, difference
from ragspine.qa.differing_figures import differing
from ragspine.qa.language import Lang
from ragspine.qa.render import label
from ragspine.qa.rounding import within_rounding
from ragspine.qa.structured import StructuredOutcome, format_decimal, render_difference, render_units_apart

Series = tuple[str, str, str]  # metric, entity, channel
_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "no_prior": "无法计算{what}的{kind}：缺少 {prior} 的数据（见上），因此不提供变化值。",
        "kind_year": "同比变化", "kind_quarter": "环比变化",
        "order_high": "从高到低", "order_low": "从低到高",
        "ranking": "{period} {metric}{scope}排名（{order}）：{items}。",
        "top": "前 {n} 名", "item": "{entity} {value} {unit}", "items": "；",
        "winner_high": "最高的是{names}", "winner_low": "最低的是{names}", "tie": "（并列，均为 {value} {unit}）",
        "gap_high": "，比{next}高 {gap}{unit}", "gap_low": "，比{next}低 {gap}{unit}", "points": "个百分点",
        "share": "{entity}{period} {metric}占{parent}的 {share}%", "names": "、",
        "channel_share": "{entity}{period} {channel}{metric}占其{total}{metric}的 {share}%",
        "not_additive": "{metric}不可加总，因此不计算{what}。", "what_share": "占比", "what_sum": "季度合计",
        "sum": "{entity}{period} {metric}四个季度合计 {total} {unit}",
        "stated_same": "，与公布的全年数 {stated} {unit} 一致",
        "stated_diff": "，公布的全年数为 {stated} {unit}（相差 {gap}，以公布数为准）",
        "stated_rounding": "，与公布的全年数 {stated} {unit} 一致（在四舍五入范围内，相差 {gap}）",
        "stated_apart": "；公布的全年数 {stated}（{unit}）单位不同，不作比较",
        "missing_quarters": "无法加总{entity}{period} {metric}的四个季度：缺少 {missing} 的数据。",
        "computed": "（计算自：{sources}）",
        "units": "{period} {metric}的数值单位不同（{units}），币种之间不作换算，因此不计算{what}。",
        "what_ranking": "排名", "unstated": "未注明单位", "rescaled": "（{units} 已统一换算为 {target}）",
        "growth_ranking": "{period} {metric}较 {prior} 增长率排名（{order}）：{items}。",
        "growth_item": "{entity} {value}%",
        "no_growth": "（{names}的 {prior} 数值不为正，不计算增长率）",
        "quarter_ranking": "{entity}{period} {metric}各季度排名（{order}）：{items}。",
    }),
    Lang.EN: MappingProxyType({
        "no_prior": "The {kind} of {what} cannot be computed: there is no figure for {prior} (see above).",
        "kind_year": "year-over-year change", "kind_quarter": "quarter-over-quarter change",
        "order_high": "highest first", "order_low": "lowest first",
        "ranking": "{period} {metric}{scope} ranking ({order}): {items}. ",
        "top": ", top {n}", "item": "{entity} {value} {unit}", "items": "; ",
        "winner_high": "Highest: {names}", "winner_low": "Lowest: {names}", "tie": " (tied at {value} {unit})",
        "gap_high": ", {gap}{unit} above {next}", "gap_low": ", {gap}{unit} below {next}", "points": " points",
        "share": "{entity} {period} {metric} is {share}% of {parent}", "names": " and ",
        "channel_share": "{entity} {period} {channel} {metric} is {share}% of its {total} {metric}",
        "not_additive": "{metric} cannot be added up, so no {what} is computed.", "what_share": "share",
        "what_sum": "sum of quarters",
        "sum": "{entity} {period} {metric}, sum of the four quarters: {total} {unit}",
        "stated_same": ", the same as the stated full-year figure {stated} {unit}",
        "stated_diff": "; the stated full-year figure is {stated} {unit} ({gap} apart; the stated figure "
                       "prevails)",
        "stated_rounding": ", the same as the stated full-year figure {stated} {unit} within rounding ({gap} apart)",
        "stated_apart": "; the stated full-year figure {stated} ({unit}) is in another unit and is not compared",
        "missing_quarters": "The quarters of {entity} {period} {metric} cannot be added up: no figure for {missing}.",
        "computed": "（计算自：{sources}）",
        "units": "The {period} {metric} figures are in different units ({units}), which are never converted, "
                 "so no {what} is computed.",
        "what_ranking": "ranking", "unstated": "unit not stated", "rescaled": " ({units} put on the scale of {target})",
        "growth_ranking": "{period} {metric} growth over {prior} ranking ({order}): {items}. ",
        "growth_item": "{entity} {value}%",
        "no_growth": " ({names}: no growth rate, the {prior} figure is not positive)",
        "quarter_ranking": "{entity} {period} {metric} by quarter ({order}): {items}. ",
    }),
    Lang.JA: MappingProxyType({
        "no_prior": "{what}の{kind}は計算できません：{prior} のデータがありません（上記参照）。",
        "kind_year": "前年比", "kind_quarter": "前四半期比",
        "order_high": "高い順", "order_low": "低い順",
        "ranking": "{period} {metric}{scope}の順位（{order}）：{items}。",
        "top": "・上位 {n}", "item": "{entity} {value} {unit}", "items": "；",
        "winner_high": "最も高いのは{names}", "winner_low": "最も低いのは{names}",
        "tie": "（同値、いずれも {value} {unit}）",
        "gap_high": "、{next}より {gap}{unit} 高い", "gap_low": "、{next}より {gap}{unit} 低い", "points": "ポイント",
        "share": "{entity}{period} {metric}は{parent}の {share}%", "names": "・",
        "channel_share": "{entity}{period} {channel}{metric}は{total}{metric}の {share}%",
        "not_additive": "{metric}は合算できないため、{what}は計算しません。", "what_share": "構成比",
        "what_sum": "四半期合計",
        "sum": "{entity}{period} {metric}の四半期合計 {total} {unit}",
        "stated_same": "、公表された通期の数値 {stated} {unit} と一致",
        "stated_diff": "、公表された通期の数値は {stated} {unit}（差 {gap}、公表値を優先）",
        "stated_rounding": "、公表された通期の数値 {stated} {unit} と四捨五入の範囲内で一致（差 {gap}）",
        "stated_apart": "；公表された通期の数値 {stated}（{unit}）は単位が異なるため比較しません",
        "missing_quarters": "{entity}{period} {metric}の四半期は合算できません：{missing} のデータがありません。",
        "computed": "（计算自：{sources}）",
        "units": "{period} {metric}の数値は単位が異なり（{units}）、換算しないため、{what}は計算しません。",
        "what_ranking": "順位", "unstated": "単位の記載なし",
        "growth_ranking": "{period} {metric}の{prior}比伸び率の順位（{order}）：{items}。",
        "growth_item": "{entity} {value}%",
        "no_growth": "（{names}は {prior} の数値が正でないため、伸び率は計算しません）",
        "quarter_ranking": "{entity}{period} {metric}の四半期別順位（{order}）：{items}。",
        "rescaled": "（{units} は {target} に単位をそろえて比較）",
    }),
})


def expand_lookups(analysis: Analysis, metrics: tuple[str, ...], entities: tuple[str, ...],
                   periods: tuple[Period, ...], glossary: Glossary) -> tuple[tuple[str, ...], tuple[Period, ...]]:
    """The entities and periods to look up so the analysis has its inputs (prior periods, parents, quarters).

    A share's other whole, the same entity's figure over all channels, is a channel: ``share_channels``.

    Quarters are looked up only when some metric asked is additive: the others are never summed. Their
    mean ("the average quarterly low price") and their ranking ("which quarter had the highest") are asked of
    any metric: each quarter's figure is stated.
    """
    summed = (analysis.sum_of_quarters and (analysis.quarter_mean
                                            or any(glossary.term(SlotKind.METRIC, m).additive for m in metrics))
              or analysis.of_quarters)
    wanted_periods: dict[Period, None] = {}
    for period in periods:
        if analysis.prior is not None:
            wanted_periods[prior_period(period, analysis.prior)] = None
        wanted_periods[period] = None
        if summed:
            wanted_periods.update(dict.fromkeys(quarters_of(period)))
    wanted_entities = dict.fromkeys(entities)
    if analysis.share and not analysis.channel_share:
        for entity in _parts_named(entities, glossary):
            parent = _parent(entity, glossary)
            if parent is not None:
                wanted_entities[parent] = None
    return tuple(wanted_entities), tuple(wanted_periods)


def share_channels(analysis: Analysis, channels: tuple[str, ...], glossary: Glossary) -> tuple[str, ...]:
    """The channels to look up for a channel's share: its entity's figure over all channels (the glossary's default
    channel), the whole, is looked up beside the channel named."""
    default = glossary.default_channel
    if not analysis.channel_share or default in channels or not channels:
        return channels
    return (*channels, default)


def _parts_named(entities: Iterable[str], glossary: Glossary) -> list[str]:
    """The entities whose share is asked: each one but the parent of another named ("of Hospitals revenue … from
    Amsterdam" asks Amsterdam's share of Hospitals, not Hospitals' of the group)."""
    named = list(entities)
    wholes = {_parent(entity, glossary) for entity in named}
    return [entity for entity in named if entity not in wholes]


def _parent(entity: str, glossary: Glossary) -> str | None:
    if entity == glossary.home_entity:
        return None
    return glossary.term(SlotKind.ENTITY, entity).parent or glossary.home_entity


def with_analysis(outcome: StructuredOutcome, analysis: Analysis, *, glossary: Glossary,
                  lang: Lang = Lang.ZH) -> StructuredOutcome:
    """``outcome`` with the computed lines the analysis asks for (and their numbers for provenance)."""
    results = outcome.results
    lines = list(outcome.lines)
    differences = outcome.differences
    computed: list[str] = list(outcome.computed)
    found = {(f.metric_code, f.entity, f.channel, Period(f.period_type, f.period)): f
             for f in (r.fact for r in results) if f is not None}
    if analysis.prior is not None:
        lines = lines[:len(results)]  # the two-period differences are replaced by the prior-period ones
        differences, notes = _prior_changes(results, found, analysis.prior, glossary, lang)
        lines += [render_difference(d, glossary, lang) for d in differences] + notes
    if analysis.order is not None:
        ranked = _quarter_rankings if analysis.of_quarters else _growth_rankings if analysis.by_growth else _rankings
        _extend(lines, computed, ranked(results, found, analysis, glossary, lang))
    if analysis.share:
        _extend(lines, computed, _shares(results, found, glossary, lang, of_channels=analysis.channel_share))
    if analysis.sum_of_quarters and not analysis.quarter_mean:  # a mean of the quarters is the arithmetic's
        _extend(lines, computed, _sums(results, found, glossary, lang))
    return replace(outcome, lines=tuple(lines), differences=differences, computed=tuple(computed))


def _extend(lines: list[str], computed: list[str], made: list[tuple[str, tuple[str, ...]]]) -> None:
    for line, numbers in made:
        lines.append(line)
        computed.extend(numbers)


def _prior_changes(results: tuple[QueryResult, ...], found: dict[tuple[str, str, str, Period], Fact], kind: str,
                   glossary: Glossary, lang: Lang) -> tuple[tuple[Difference, ...], list[str]]:
    text = _TEXT[lang]
    looked = {(r.query.metric_code, r.query.entity, r.query.channel, r.query.period): r
              for r in results if r.query is not None}
    others = {r.fact: differing(r.fact, r.conflicts) for r in results if r.fact is not None and r.conflicts}
    changes, notes = [], []
    for (metric, entity, channel, period), later in found.items():
        prior = prior_period(period, kind)
        earlier = found.get((metric, entity, channel, prior))
        if earlier is not None:  # a figure the sources state differently: one change per figure, each cited
            pairs = [(before, after) for before in (earlier, *others.get(earlier, ()))
                     for after in (later, *others.get(later, ()))]
            changes += [difference(*pair) for pair in pairs if change_unit(*pair) is not None]
            notes += [render_units_apart(*pair, glossary, lang) for pair in pairs if change_unit(*pair) is None]
            continue
        asked = looked.get((metric, entity, channel, prior))
        if asked is not None and asked.status is QueryStatus.NOT_FOUND:
            what = f"{_name(glossary, SlotKind.ENTITY, entity, lang)}{_space(lang)}{period.label} " \
                   f"{_name(glossary, SlotKind.METRIC, metric, lang)}"
            notes.append(text["no_prior"].format(what=what, kind=text[f"kind_{kind}"], prior=prior.label))
    return tuple(changes), notes


def _rankings(results: tuple[QueryResult, ...], found: dict[tuple[str, str, str, Period], Fact],
              analysis: Analysis, glossary: Glossary, lang: Lang) -> list[tuple[str, tuple[str, ...]]]:
    """One ordered list per metric x period x channel over the entities asked (the enumerated level's, if any)."""
    text = _TEXT[lang]
    made: list[tuple[str, tuple[str, ...]]] = []
    for metric, period, channel in _groups(results):
        scope = [e for e in _entities(results) if not analysis.levels
                 or glossary.term(SlotKind.ENTITY, e).level in analysis.levels]
        facts = [found[(metric, e, channel, period)] for e in scope if (metric, e, channel, period) in found]
        if len(facts) < 2:
            continue
        on_one = _on_one_unit(facts)
        if on_one is None:
            made.append((_units_differ(facts, metric, period, text["what_ranking"], glossary, lang), ()))
            continue
        heading = {"period": period.label, "metric": _name(glossary, SlotKind.METRIC, metric, lang),
                   "scope": text["top"].format(n=analysis.top) if analysis.top else ""}
        made.append(_ordered(facts, *on_one, analysis, lang, wording=text["ranking"], heading=heading,
                             name_of=lambda f: _name(glossary, SlotKind.ENTITY, f.entity, lang)))
    return made


def _quarter_rankings(results: tuple[QueryResult, ...], found: dict[tuple[str, str, str, Period], Fact],
                      analysis: Analysis, glossary: Glossary, lang: Lang) -> list[tuple[str, tuple[str, ...]]]:
    """The quarters of each year asked, ordered by their figure, per metric x entity x channel; a year with fewer
    than two quarters found ranks nothing."""
    text = _TEXT[lang]
    made: list[tuple[str, tuple[str, ...]]] = []
    years = [period for period in dict.fromkeys(r.query.period for r in results if r.query is not None)
             if period.period_type == "FY"]
    series = list(dict.fromkeys((r.query.metric_code, r.query.entity, r.query.channel)
                                for r in results if r.query is not None))
    for year in years:
        for metric, entity, channel in series:
            facts = [found[key] for key in ((metric, entity, channel, q) for q in quarters_of(year)) if key in found]
            if len(facts) < 2:
                continue
            on_one = _on_one_unit(facts)
            if on_one is None:
                made.append((_units_differ(facts, metric, year, text["what_ranking"], glossary, lang), ()))
                continue
            heading = {"entity": _name(glossary, SlotKind.ENTITY, entity, lang), "period": year.label,
                       "metric": _name(glossary, SlotKind.METRIC, metric, lang)}
            made.append(_ordered(facts, *on_one, analysis, lang, wording=text["quarter_ranking"], heading=heading,
                                 name_of=lambda f: f.period))
    return made


def _ordered(facts: list[Fact], values: dict[Fact, Decimal], unit: str, analysis: Analysis, lang: Lang, *,
             wording: str, heading: dict[str, str], name_of: Callable[[Fact], str]) -> tuple[str, tuple[str, ...]]:
    """``facts`` ordered as asked (``wording`` filled with ``heading``, the order and the items), the first named
    (ties stated), its gap to the next, any rescaling, cited; with the numbers the line computes (the gap, figures
    put on another scale)."""
    text = _TEXT[lang]
    high = analysis.order == "high"
    ordered = sorted(facts, key=lambda f: values[f], reverse=high)
    shown = ordered[:analysis.top] if analysis.top else ordered
    items = text["items"].join(text["item"].format(entity=name_of(f), value=_shown(f, values[f], unit), unit=unit)
                               for f in shown)
    line = wording.format(order=text["order_high" if high else "order_low"], items=items, **heading)
    best = values[ordered[0]]
    winners = [f for f in ordered if values[f] == best]
    rest = [f for f in ordered if values[f] != best]
    verdict = text["winner_high" if high else "winner_low"].format(names=text["names"].join(map(name_of, winners)))
    numbers: tuple[str, ...] = tuple(_shown(f, values[f], unit) for f in shown if f.unit != unit)
    inputs = winners
    if len(winners) > 1:
        verdict += text["tie"].format(value=_shown(winners[0], best, unit), unit=unit)
    if rest:
        gap_value = abs(best - values[rest[0]])
        gap = format_decimal(gap_value if {f.unit for f in facts} == {unit} else gap_value.normalize())
        verdict += text["gap_high" if high else "gap_low"].format(
            next=name_of(rest[0]), gap=gap, unit=text["points"] if unit == "PCT" else f" {unit}")
        numbers = (*numbers, gap)
        inputs = [*winners, rest[0]]
    rescaled = sorted({f.unit for f in facts if f.unit != unit})
    note = text["rescaled"].format(units="、".join(rescaled), target=unit) if rescaled else ""
    return f"{line}{verdict}{note}{_cited(inputs, lang)}", numbers


def _growth_rankings(results: tuple[QueryResult, ...], found: dict[tuple[str, str, str, Period], Fact],
                     analysis: Analysis, glossary: Glossary, lang: Lang) -> list[tuple[str, tuple[str, ...]]]:
    """One list per metric x period x channel of the entities asked, ordered by their growth over the prior year.

    A year looked up only as another's prior is not ranked; an entity whose prior figure is not positive, or
    whose two figures are in different units, has no growth rate and is named beside the list.
    """
    text = _TEXT[lang]
    made: list[tuple[str, tuple[str, ...]]] = []
    groups = _groups(results)
    periods = {period for _, period, _ in groups}
    for metric, period, channel in groups:
        prior = prior_period(period, "year")
        if prior not in periods:
            continue
        scope = [e for e in _entities(results) if not analysis.levels
                 or glossary.term(SlotKind.ENTITY, e).level in analysis.levels]
        pairs = [(found[(metric, e, channel, period)], found[(metric, e, channel, prior)]) for e in scope
                 if (metric, e, channel, period) in found and (metric, e, channel, prior) in found]
        rated = {now: ((_value(now) - _value(before)) / _value(before) * 100).quantize(Decimal("0.01"))
                 for now, before in pairs if now.unit == before.unit and _value(before) > 0}
        if len(rated) < 2:
            continue
        high = analysis.order == "high"
        ordered = sorted(rated, key=lambda f: rated[f], reverse=high)
        shown = ordered[:analysis.top] if analysis.top else ordered
        rate = {f: format_decimal(rated[f]) for f in ordered}
        items = text["items"].join(text["growth_item"].format(
            entity=_name(glossary, SlotKind.ENTITY, f.entity, lang),
            value=f"+{rate[f]}" if rated[f] > 0 else rate[f]) for f in shown)
        line = text["growth_ranking"].format(period=period.label, prior=prior.label,
                                             metric=_name(glossary, SlotKind.METRIC, metric, lang),
                                             order=text["order_high" if high else "order_low"], items=items)
        best = rated[ordered[0]]
        winners = [f for f in ordered if rated[f] == best]
        rest = [f for f in ordered if rated[f] != best]
        names = text["names"].join(label(glossary.term(SlotKind.ENTITY, f.entity), lang) for f in winners)
        verdict = text["winner_high" if high else "winner_low"].format(names=names)
        numbers = tuple(rate[f] for f in shown)
        inputs = winners
        if rest:
            gap = format_decimal(abs(best - rated[rest[0]]))
            verdict += text["gap_high" if high else "gap_low"].format(
                next=label(glossary.term(SlotKind.ENTITY, rest[0].entity), lang), gap=gap, unit=text["points"])
            numbers, inputs = (*numbers, gap), [*winners, rest[0]]
        unrated = [now.entity for now, _ in pairs if now not in rated]
        note = text["no_growth"].format(names=text["names"].join(
            label(glossary.term(SlotKind.ENTITY, e), lang) for e in unrated), prior=prior.label) if unrated else ""
        befores = dict(pairs)
        made.append((f"{line}{verdict}{note}{_cited([f for now in inputs for f in (befores[now], now)], lang)}",
                     numbers))
    return made


def _on_one_unit(facts: list[Fact]) -> tuple[dict[Fact, Decimal], str] | None:
    """Each figure on one unit: as stated when they share one, else on the finest scale of their one currency;
    None when they are in different currencies or units (never converted) or some state no unit."""
    units = sorted({f.unit for f in facts})
    if len(units) == 1:
        return {f: _value(f) for f in facts}, units[0]
    target = common_unit(units)
    if target is None:
        return None
    return {f: rescale(_value(f), f.unit, target) for f in facts}, target


def _shown(fact: Fact, value: Decimal, unit: str) -> str:
    """A figure as its document writes it, or as put on another scale of its currency."""
    return format_number(fact.value) if fact.unit == unit else format_decimal(value.normalize())


def _units_differ(facts: list[Fact], metric: str, period: Period, what: str, glossary: Glossary, lang: Lang) -> str:
    units = "、".join(sorted({f.unit or _TEXT[lang]["unstated"] for f in facts}))
    return _TEXT[lang]["units"].format(period=period.label, metric=_name(glossary, SlotKind.METRIC, metric, lang),
                                       units=units, what=what)


def _shares(results: tuple[QueryResult, ...], found: dict[tuple[str, str, str, Period], Fact],
            glossary: Glossary, lang: Lang, *, of_channels: bool) -> list[tuple[str, tuple[str, ...]]]:
    """Each entity's share of its parent or, ``of_channels``, each channel named's share of its entity's figure
    over all channels (the glossary's default channel, looked up as the whole and no part)."""
    text = _TEXT[lang]
    made: list[tuple[str, tuple[str, ...]]] = []
    default = glossary.default_channel
    for metric, period, channel in _groups(results):
        if of_channels and channel == default:
            continue
        if not glossary.term(SlotKind.METRIC, metric).additive:
            made.append((text["not_additive"].format(metric=_name(glossary, SlotKind.METRIC, metric, lang),
                                                     what=text["what_share"]), ()))
            continue
        names = {"period": period.label, "metric": _name(glossary, SlotKind.METRIC, metric, lang)}
        for entity in _entities(results) if of_channels else _parts_named(_entities(results), glossary):
            names["entity"] = _name(glossary, SlotKind.ENTITY, entity, lang)
            if of_channels:  # "what percentage of Hong Kong revenue was online": over the entity's own total
                whole_key, wording = (metric, entity, default, period), text["channel_share"]
                names.update(channel=_name(glossary, SlotKind.CHANNEL, channel, lang),
                             total=_name(glossary, SlotKind.CHANNEL, default, lang))
            else:
                parent = _parent(entity, glossary)
                if parent is None:
                    continue
                whole_key, wording = (metric, parent, channel, period), text["share"]
                names["parent"] = _name(glossary, SlotKind.ENTITY, parent, lang)
            part, whole = found.get((metric, entity, channel, period)), found.get(whole_key)
            if part is not None and whole is not None:
                made += _share(part, whole, wording, glossary, lang, **names)
    return made


def _share(part: Fact, whole: Fact, wording: str, glossary: Glossary, lang: Lang,
           **names: str) -> list[tuple[str, tuple[str, ...]]]:
    """``part`` as a percentage of ``whole``, worded with ``names``; a line saying why not when their units differ
    (none when the whole is zero)."""
    if _value(whole) == 0:
        return []
    on_one = _on_one_unit([part, whole])
    if on_one is None:
        return [(_units_differ([part, whole], part.metric_code, Period(part.period_type, part.period),
                               _TEXT[lang]["what_share"], glossary, lang), ())]
    values, _ = on_one
    share = format_decimal((values[part] / values[whole] * 100).quantize(Decimal("0.1")))
    return [(f"{wording.format(share=share, **names)}{_cited([part, whole], lang)}", (share,))]


# The wording names the count ("四个季度", "the four quarters"): the number reader reads it, so it is declared.
_QUARTERS = ("4",)


def _sums(results: tuple[QueryResult, ...], found: dict[tuple[str, str, str, Period], Fact],
          glossary: Glossary, lang: Lang) -> list[tuple[str, tuple[str, ...]]]:
    """Four quarters added up, only for additive metrics, shown beside (never instead of) a stated total."""
    text = _TEXT[lang]
    made: list[tuple[str, tuple[str, ...]]] = []
    years = [p for p in dict.fromkeys(r.query.period for r in results if r.query is not None) if p.period_type == "FY"]
    for metric, entity, channel in dict.fromkeys((r.query.metric_code, r.query.entity, r.query.channel)
                                                 for r in results if r.query is not None):
        name = _name(glossary, SlotKind.METRIC, metric, lang)
        if not glossary.term(SlotKind.METRIC, metric).additive:
            made.append((text["not_additive"].format(metric=name, what=text["what_sum"]), ()))
            continue
        for year in years:
            who = label(glossary.term(SlotKind.ENTITY, entity), lang)
            where = f"{_space(lang)}{year.label}"
            quarters = [found.get((metric, entity, channel, q)) for q in quarters_of(year)]
            stated = found.get((metric, entity, channel, year))
            missing = [q.label for q, f in zip(quarters_of(year), quarters, strict=True) if f is None]
            if missing:
                made.append((text["missing_quarters"].format(entity=who, period=where, metric=name,
                                                             missing=text["names"].join(missing)), _QUARTERS))
                continue
            facts = [f for f in quarters if f is not None]
            on_one = _on_one_unit(facts)
            if on_one is None:
                made.append((_units_differ(facts, metric, year, text["what_sum"], glossary, lang), ()))
                continue
            values, unit = on_one
            total = sum(values.values(), Decimal(0))
            shown_total = format_decimal(total if {f.unit for f in facts} == {unit} else total.normalize())
            line = text["sum"].format(entity=who, period=where, metric=name, total=shown_total, unit=unit)
            numbers = [shown_total, *_QUARTERS]
            beside = _on_one_unit([*facts, stated]) if stated is not None else None
            if stated is not None and beside is None:  # the full year in another unit: never relabelled, not compared
                line += text["stated_apart"].format(stated=format_number(stated.value),
                                                    unit=stated.unit or text["unstated"])
            elif stated is not None and beside is not None:
                both, common = beside
                gap = sum((both[f] for f in facts), Decimal(0)) - both[stated]
                if gap == 0:
                    line += text["stated_same"].format(stated=format_number(stated.value), unit=stated.unit)
                else:
                    shown_gap = format_decimal(abs(gap) if stated.unit == unit == common else abs(gap).normalize())
                    rounded = within_rounding(gap, [*facts, stated], common)  # 万元 quarters against a yuan year
                    line += text["stated_rounding" if rounded else "stated_diff"].format(
                        stated=format_number(stated.value), unit=stated.unit, gap=f"{shown_gap} {common}".strip())
                    numbers.append(shown_gap)
            made.append((f"{line}{_cited(facts, lang)}", tuple(numbers)))
    return made


def _groups(results: tuple[QueryResult, ...]) -> list[tuple[str, Period, str]]:
    return list(dict.fromkeys((r.query.metric_code, r.query.period, r.query.channel)
                              for r in results if r.query is not None))


def _entities(results: tuple[QueryResult, ...]) -> list[str]:
    return list(dict.fromkeys(r.query.entity for r in results if r.query is not None))


def _value(fact: Fact) -> Decimal:
    return Decimal(format_number(fact.value))


def _name(glossary: Glossary, kind: SlotKind, code: str, lang: Lang) -> str:
    return label(glossary.term(kind, code), lang)


def _space(lang: Lang) -> str:
    return " " if lang is Lang.EN else ""


def _cited(facts: list[Fact], lang: Lang) -> str:
    sources = "；".join(dict.fromkeys(f"{f.source_doc_id} · {f.source_locator}" for f in facts))
    return _TEXT[lang]["computed"].format(sources=sources)
