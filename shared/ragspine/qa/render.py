"""Deterministic wording of structured answers in zh / en / ja (seed 002: every number with its source).

A structured answer cites each figure with ``ragspine.citation.citation``, ``（来源：{doc} · {locator}）``,
in every language; only the words around it change. A quoted passage carries the form without the
dot (``passage_citation``); a client reads an answer's sources from its ``sources`` list, never by
parsing the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from ragspine.citation import citation
from ragspine.facts.glossary import Glossary, SlotKind, Term
from ragspine.facts.model import format_number
from ragspine.facts.query_metric import MetricQuery, QueryResult, QueryStatus
from ragspine.qa.differing_figures import other_figure_kind
from ragspine.qa.language import Lang
from ragspine.qa.slots import Assumption, Unrecognized

STATED_SHARE = "stated_share"  # an assumption's cue: rows stated in percent read as the shares asked (stated_shares)
TABLE_TOPIC = "table_topic"  # an assumption's cue: words read as what the rows' table is of (described_tables)
ONLY_YEAR_STATED = "only_year_stated"  # an assumption's cue: no period named, the one fiscal year the rows state
YEAR_END_DATE = "year_end_date"  # an assumption's cue: a January or February year end read as the year it ends in
_KINDS = MappingProxyType({"metric": SlotKind.METRIC, "entity": SlotKind.ENTITY, "channel": SlotKind.CHANNEL})
_PERIOD_EXAMPLES = "FY2024, 2024年, 2024年度, 2024Q3, Q3 2024, 2024年第三季度"
_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "conflict": "；另一来源的数值不同：{value} {unit}{cited}",
        "conflict_note": "。各来源数值不一致，未作取舍。",
        "same_amount": "；另一来源以其他单位列示同一金额：{value} {unit}{cited}",
        "opposite_sign": "；另一来源以相反符号列示同一金额：{value} {unit}{cited}",
        "found": "{what}：{value} {unit}", "sep": "，",
        "not_found": "未找到 {what} 的数据：事实表中没有这条记录，因此不提供数值。",
        "unrecognized": "无法识别参数 {param}：「{raw}」。可识别的写法例如：{known}。",
        "assume_read": "将“{typed}”理解为{name}",
        "assume_stated_share": "将“{typed}”理解为文件中以百分比列示的数值（文件中没有{name}的数值）",
        "assume_topic": "将“{typed}”理解为{name}所在表格的主题（文件在表格前如此说明）",
        "assume_entity": "未指定主体，按{name}回答",
        "assume_children": "未指定主体，比较{name}的下一级主体",
        "assume_period": "未指定期间，按最近完成的会计年度 {value} 回答",
        "assume_only_year": "未指定期间，按文件中该数据唯一列示的会计年度 {value} 回答",
        "assume_relative": "「{cue}」按今天所在的会计期间理解为 {value}",
        "assume_year_end": "截至 {typed} 的年度按其结束日所在的年份理解为 {value}",
        "assumed": "（假设：{parts}。）", "join": "；", "list": "、",
        "unit_note": "注：事实表中这些数字以 {units} 计，没有以 {asked} 计的数值；以上数字未作任何换算。",
    }),
    Lang.EN: MappingProxyType({
        "conflict": "; another source states a different figure: {value} {unit}{cited}",
        "conflict_note": ". The sources differ; neither figure is chosen over the other.",
        "same_amount": "; another source states the same amount as {value} {unit}{cited}",
        "opposite_sign": "; another source writes the same amount with the opposite sign: {value} {unit}{cited}",
        "found": "{what}: {value} {unit}", "sep": ", ",
        "not_found": "No data for {what}: the fact table has no such record, so no figure is given.",
        "unrecognized": "Could not recognise the {param} “{raw}”. Known values include: {known}.",
        "assume_read": "read '{typed}' as {name}",
        "assume_stated_share": "read '{typed}' as the figures the documents state in percent (they state no {name})",
        "assume_topic": "read '{typed}' as what the table of {name} is of, as its document says before it",
        "assume_entity": "no entity named, so {name}",
        "assume_children": "no entity named, so the parts of {name}",
        "assume_period": "no period named, so the last completed fiscal year {value}",
        "assume_only_year": "no period named, so {value}, the only fiscal year the documents state it for",
        "assume_relative": "“{cue}” read as {value} from today's date and the fiscal calendar",
        "assume_year_end": "the year ended {typed} read as {value}, the year its end falls in",
        "assumed": "(Assumed: {parts}.)", "join": "; ", "list": ", ",
        "unit_note": "Note: the facts give these figures in {units}, not in {asked}; nothing above is converted.",
    }),
    Lang.JA: MappingProxyType({
        "conflict": "；別の資料では異なる数値：{value} {unit}{cited}",
        "conflict_note": "。資料間で数値が一致しません（どちらも採用していません）。",
        "same_amount": "；別の資料では同じ金額を {value} {unit} と記載{cited}",
        "opposite_sign": "；別の資料では同じ金額を符号を逆にして記載：{value} {unit}{cited}",
        "found": "{what}：{value} {unit}", "sep": "、",
        "not_found": "{what} のデータは見つかりません：ファクトテーブルに該当する記録がないため、数値は示しません。",
        "unrecognized": "パラメータ {param} の「{raw}」を認識できません。使える表記の例：{known}。",
        "assume_read": "「{typed}」を{name}と解釈",
        "assume_stated_share": "「{typed}」を資料に百分率で記載された数値と解釈（資料に{name}の数値はありません）",
        "assume_topic": "「{typed}」を{name}の表が示すものと解釈（資料の表の前の記述による）",
        "assume_entity": "主体の指定がないため{name}",
        "assume_children": "主体の指定がないため{name}の下位の主体を比較",
        "assume_period": "期間の指定がないため直近の完了年度 {value}",
        "assume_only_year": "期間の指定がないため、資料に記載のある唯一の年度 {value}",
        "assume_relative": "「{cue}」は本日と会計年度から {value} と解釈",
        "assume_year_end": "{typed} に終了した年度を、終了日の属する年の {value} と解釈",
        "assumed": "（前提：{parts}。）", "join": "；", "list": "、",
        "unit_note": "注：ファクトテーブルの数値は {units} 建てで、{asked} の数値はありません。"
                     "上記は換算していません。",
    }),
})


def label(term: Term, lang: Lang) -> str:
    """``日本（ACME_JP）`` / ``Japan (ACME_JP)``: the name in the reply language with its code."""
    name = term.name(str(lang))  # the code as a plain string: ``.value`` runs Python code of ``enum`` on every line
    return f"{name} ({term.code})" if lang is Lang.EN else f"{name}（{term.code}）"


def describe(query: MetricQuery, glossary: Glossary, lang: Lang = Lang.ZH) -> str:
    """Entity, period, metric and a non-total channel, e.g. ``日本（ACME_JP）FY2024 毛利率（GROSS_MARGIN）``."""
    terms = glossary.terms
    entity = label(terms[SlotKind.ENTITY][query.entity], lang)
    metric = label(terms[SlotKind.METRIC][query.metric_code], lang)
    space = " " if lang is Lang.EN else ""
    text = f"{entity}{space}{query.period.label} {metric}"
    if query.channel != glossary.default_channel:
        text += f" · {label(terms[SlotKind.CHANNEL][query.channel], lang)}"
    return text


def render_result(result: QueryResult, glossary: Glossary, lang: Lang = Lang.ZH, *, what: str | None = None) -> str:
    """One line per lookup: the value with its source, or an honest "not found".

    ``what`` is ``describe(result.query, glossary, lang)`` when the caller already has it.
    """
    text = _TEXT[lang]
    if result.status is QueryStatus.FOUND and result.query and result.fact:
        fact = result.fact
        what = what if what is not None else describe(result.query, glossary, lang)
        line = text["found"].format(what=what, value=format_number(fact.value), unit=fact.unit)
        line = f"{line}{citation(fact.source_doc_id, fact.source_locator)}"
        if not result.conflicts:
            return line
        kinds = [(other, other_figure_kind(fact, other)) for other in result.conflicts]
        others = "".join(text[kind].format(value=format_number(c.value), unit=c.unit,
                                           cited=citation(c.source_doc_id, c.source_locator)) for c, kind in kinds)
        differ = any(kind == "conflict" for _, kind in kinds)
        return f"{line}{others}{text['conflict_note'] if differ else ''}"
    if result.status is QueryStatus.NOT_FOUND and result.query:
        return text["not_found"].format(what=what if what is not None else describe(result.query, glossary, lang))
    return render_unrecognized(Unrecognized(result.param or "", result.raw or ""), glossary, lang)


def render_unrecognized(problem: Unrecognized, glossary: Glossary, lang: Lang = Lang.ZH) -> str:
    """Say plainly which parameter was not understood and what would be."""
    text = _TEXT[lang]
    kind = _KINDS.get(problem.param)
    known = (text["list"].join(t.name(lang.value) for t in glossary.terms[kind].values()) if kind is not None
             else _PERIOD_EXAMPLES)
    return text["unrecognized"].format(param=problem.param, raw=problem.raw, known=known)


def render_unit_note(asked: str, units: Iterable[str], lang: Lang = Lang.ZH) -> str | None:
    """The plain note for figures asked in a unit the facts are not in, or None when they are.

    A fact in ``USD_M`` answers a question asked in USD (the currency matches); one asked in
    JPY, or in billions, gets the note. Nothing is ever converted.
    """
    other = sorted({u for u in units if u != asked and u.split("_")[0] != asked})
    if not other:
        return None
    text = _TEXT[lang]
    return text["unit_note"].format(units=text["list"].join(other), asked=asked)


def render_assumptions(assumptions: tuple[Assumption, ...], glossary: Glossary, lang: Lang = Lang.ZH) -> str:
    """One sentence listing what was assumed for the slots the question left out."""
    text = _TEXT[lang]
    parts = [
        text["assume_year_end"].format(typed=a.typed, value=a.value)
        if a.cue == YEAR_END_DATE
        else text["assume_stated_share"].format(typed=a.typed, name=label(glossary.term(a.slot, a.value), lang))
        if a.cue == STATED_SHARE
        else text["assume_topic"].format(typed=a.typed, name=label(glossary.term(a.slot, a.value), lang))
        if a.cue == TABLE_TOPIC
        else text["assume_read"].format(typed=a.typed, name=a.value if a.slot is SlotKind.PERIOD
                                        else label(glossary.term(a.slot, a.value), lang))
        if a.typed is not None
        else text["assume_children" if a.cue else "assume_entity"].format(
            name=label(glossary.term(SlotKind.ENTITY, a.value), lang))
        if a.slot is SlotKind.ENTITY else text["assume_only_year"].format(value=a.value)
        if a.cue == ONLY_YEAR_STATED else text["assume_relative"].format(cue=a.cue, value=a.value)
        if a.cue else text["assume_period"].format(value=a.value)
        for a in assumptions
    ]
    return text["assumed"].format(parts=text["join"].join(parts))
