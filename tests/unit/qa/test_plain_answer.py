"""A plain lookup answered by its own short path gets the full path's result, and its number is its fact's.

``plain_answer`` builds the structured answer of a plain lookup directly (one store read, the fact's
line, the assumptions, the source). The properties hold every result to the full path's (the plain
path switched off) over generated facts: any value, a unit that may read as a number, figures other
sources state differently, a figure above the caller's clearance or none at all.
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.citation import citation
from ragspine.facts.glossary import SlotKind
from ragspine.facts.model import Fact, FactKey, format_number
from ragspine.qa import answer as answer_module
from ragspine.qa import plain_answer as plain_module
from ragspine.qa.answer import answer_question
from ragspine.qa.provenance import check_rendered, figure_values
from ragspine.qa.result import AnswerStatus, Route
from ragspine.sensitivity import Sensitivity
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.support.glossary import default_glossary
from tests.support.plain_path import full_path_answer, seen

_GLOSSARY = default_glossary()
_LINEAGE = ("sha256:" + "0" * 64, "curated-1", "glossary-1")
_ENTITIES = ["日本", "Japan", "香港", "Hong Kong", "グループ", ""]
_METRICS = ["营业收入", "revenue", "売上高", "gross margin", "毛利率", "operating profit", "営業利益"]
_PERIODS = [("2024年", "FY", "2024"), ("FY2023", "FY", "2023"), ("Q3 2024", "Q", "2024Q3"),
            ("2025年度", "FY", "2025"), ("2024年第4四半期", "Q", "2024Q4")]
_TEMPLATES = ["{p}{e}{c}的{m}是多少", "What was the {c} {m} of {e} in {p}?", "{e}の{p}の{c}{m}はいくらですか"]
_CHANNELS = ["", "线上", "online", "offline", "店舗"]  # none named (the default channel's figure) or one
_UNITS = ["USD_M", "PCT", "JPY", "", "USD_100M", "stores", "万元"]


def _fact(key: FactKey, value: float, unit: str, doc: str, sensitivity: Sensitivity) -> Fact:
    return Fact(key.metric_code, key.entity, "", key.channel, key.period_type, key.period, value, unit, doc,
                f"page={len(doc)},row={key.metric_code}", *_LINEAGE, sensitivity=sensitivity)


_VALUES = st.one_of(st.integers(-10**9, 10**9), st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: round(v, 3)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(template=st.sampled_from(_TEMPLATES), metric=st.sampled_from(_METRICS), entity=st.sampled_from(_ENTITIES),
       period=st.sampled_from(_PERIODS), channel=st.sampled_from(_CHANNELS), stored=st.booleans(), value=_VALUES, unit=st.sampled_from(_UNITS),
       others=st.lists(st.tuples(_VALUES, st.sampled_from(_UNITS)), max_size=2),
       sensitivity=st.sampled_from([Sensitivity.INTERNAL, Sensitivity.RESTRICTED]))
def test_a_plain_lookup_gets_the_full_paths_result_over_any_fact(
        template: str, metric: str, entity: str, period: tuple[str, str, str], channel: str, stored: bool,
        value: float, unit: str, others: list[tuple[float, str]], sensitivity: Sensitivity) -> None:
    question = template.format(m=metric, e=entity, p=period[0], c=channel)
    code = _GLOSSARY.normalize(SlotKind.METRIC, metric)
    assert code is not None
    entity_code = _GLOSSARY.normalize(SlotKind.ENTITY, entity) if entity else _GLOSSARY.home_entity
    assert entity_code is not None
    channel_code = _GLOSSARY.normalize(SlotKind.CHANNEL, channel) if channel else _GLOSSARY.default_channel
    assert channel_code is not None
    key = FactKey(code, entity_code, channel_code, period[1], period[2])
    store = InMemoryFactStore()
    if stored:
        store.put_many([_fact(key, value, unit, "Annual_Report.pdf", sensitivity)])
        store.put_conflicts([_fact(key, v, u, f"Other_{i}.pdf", Sensitivity.INTERNAL) for i, (v, u) in
                             enumerate(others)])
    qa = make_qa(store)
    plain = seen(answer_question(question, qa=qa))
    qa.parse_cache.clear()
    assert plain == seen(full_path_answer(question, qa))


@pytest.mark.parametrize("question", ["2024年日本的毛利率是多少", "What was Hong Kong revenue in Q3 2024?",
                                      "中国内地2025年第二季度营收是多少", "日本の2025年度の売上高はいくらですか",
                                      "What was the revenue in FY2024?"])
def test_the_answers_number_is_formatted_from_the_fact_it_cites(question: str) -> None:
    store = InMemoryFactStore()
    qa = make_qa(store)
    # the fact each question asks, with a value no question or period holds
    probe = full_path_answer(question, qa)
    assert probe.status is AnswerStatus.NOT_FOUND and probe.results[0].query is not None
    key = probe.results[0].query.key
    store.put_many([_fact(key, 8675.309, "USD_M", "Filing_A.pdf", Sensitivity.INTERNAL)])
    qa.parse_cache.clear()
    with mock.patch.object(answer_module, "plain_answer", wraps=plain_module.plain_answer) as spy:
        result = answer_question(question, qa=qa)
    assert spy.call_count == 1 and result.route is Route.STRUCTURED and result.status is AnswerStatus.FOUND
    fact = result.results[0].fact
    assert fact is not None
    first_line = result.answer.split("\n")[0]
    assert f"{format_number(fact.value)} USD_M{citation(fact.source_doc_id, fact.source_locator)}" in first_line
    assert result.sources == ({"doc": "Filing_A.pdf", "locator": fact.source_locator},)
    # the full path's check passes with nothing allowed but the fact's value and the period's label
    allowed = figure_values(format_number(fact.value)) | figure_values(result.slots.periods[0].label)
    assert check_rendered(result.answer, allowed=allowed).ok
    assert result.trace["decisions"] == ["provenance:pass"]


def test_a_number_the_fact_does_not_give_is_left_to_the_full_check() -> None:
    store = InMemoryFactStore()
    qa = make_qa(store)
    question = "What was the revenue of Japan in FY2024?"
    key = full_path_answer(question, qa).results[0].query.key  # type: ignore[union-attr]
    # a unit that reads as a number the fact does not give: the plain path does not vouch for the line
    store.put_many([_fact(key, 12, "per 1000 shares", "Filing_B.pdf", Sensitivity.INTERNAL)])
    qa.parse_cache.clear()
    result = answer_question(question, qa=qa)
    qa.parse_cache.clear()
    assert seen(result) == seen(full_path_answer(question, qa))
    assert result.trace["decisions"] == ["provenance:rejected"]


def test_a_figure_not_found_is_answered_by_the_full_path() -> None:
    qa = make_qa(InMemoryFactStore())
    question = "What was the revenue of Japan in FY2024?"
    result = answer_question(question, qa=qa)
    qa.parse_cache.clear()
    assert result.status is AnswerStatus.NOT_FOUND
    assert seen(result) == seen(full_path_answer(question, qa))


def test_a_restricted_figure_is_not_found() -> None:
    store = InMemoryFactStore()
    qa = make_qa(store)
    question = "2024年日本的营业收入是多少"
    key = full_path_answer(question, qa).results[0].query.key  # type: ignore[union-attr]
    store.put_many([_fact(key, 500, "USD_M", "Board_Pack.pdf", Sensitivity.RESTRICTED)])
    qa.parse_cache.clear()
    result = answer_question(question, qa=qa)
    assert result.status is AnswerStatus.NOT_FOUND and "500" not in result.answer and not result.sources


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(restated=st.lists(st.tuples(st.sampled_from([1320, 1320.0, 1320.5, -7]), st.sampled_from(["USD_M", "JPY"]),
                                   st.sampled_from(["Filing_A.pdf", "Filing_B.pdf"])), min_size=2, max_size=4),
       entity=st.sampled_from(["日本", "Japan"]))
def test_a_figure_restated_between_two_asks_is_answered_as_stored_now(
        restated: list[tuple[float, str, str]], entity: str) -> None:
    # the same figure asked in new words each time, its value, unit or source restated in between:
    # each answer shows what the store holds when it is asked (1320 and 1320.0 are written as stored)
    store = InMemoryFactStore()
    qa = make_qa(store)
    templates = ["What was the revenue of {e} in FY2024?", "FY2024{e}的营业收入是多少", "{e}のFY2024の売上高はいくらですか"]
    key = full_path_answer(templates[0].format(e=entity), qa).results[0].query.key  # type: ignore[union-attr]
    for i, (value, unit, doc) in enumerate(restated):
        store.put_many([_fact(key, value, unit, doc, Sensitivity.INTERNAL)])
        question = templates[i % len(templates)].format(e=entity)
        qa.parse_cache.clear()
        result = answer_question(question, qa=qa)
        assert result.status is AnswerStatus.FOUND
        assert f"{format_number(value)} {unit}{citation(doc, f'page={len(doc)},row={key.metric_code}')}" \
            in result.answer.split("\n")[0]
        qa.parse_cache.clear()
        assert seen(result) == seen(full_path_answer(question, qa))
