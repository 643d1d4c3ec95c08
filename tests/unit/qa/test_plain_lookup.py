"""A plain lookup's parse, read from the glossary's scan, is the full parse's, and so is its answer.

``plain_intent`` replaces the slot and cue readers for a question naming one metric, one period and
at most one entity and channel in the glossary's own names and a few question words. The
properties hold it to ``RuleIntentParser.parse`` on questions generated from every name of the
glossary, the question words, words that other readers read and other scripts, and the answers
of ``answer_question`` to those of the full parse (the plain path switched off).
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX
from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.qa.analytics.cues import NO_ANALYSIS
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.arithmetic_cues import NO_ARITHMETIC, ONE_METRIC_WORDS, read_arithmetic
from ragspine.qa.dated_periods import holds_month_start
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.month_periods import may_name_months
from ragspine.qa.period_words import read_period_words
from ragspine.qa.plain_lookup import (
    _CUE,
    _HALF,
    _MONTH,
    _STATEMENT,
    _may_hold_cues,
    _may_name_months,
    _may_read_period_words,
    _reader_words,
    plain_intent,
)
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import _HALF_START
from ragspine.qa.statement_names import without_statement_names
from tests.fakes.qa import make_qa
from tests.support.glossary import default_glossary
from tests.support.plain_path import full_path_answer, seen
from tests.support.samples import load_sample_facts

_GLOSSARY = default_glossary()
_PARSER = RuleIntentParser.from_file(_GLOSSARY)
TODAY = date(2026, 11, 30)


def _names(kind: SlotKind) -> list[str]:
    return sorted(alias for alias, (k, code) in _GLOSSARY.aliases.items()
                  if k is kind and code and not code.startswith(METRIC_PREFIX))


_METRICS, _ENTITIES, _CHANNELS = _names(SlotKind.METRIC), _names(SlotKind.ENTITY), _names(SlotKind.CHANNEL)
_PERIODS = ["2024", "FY2023", "fy 2025", "2024年", "2025年度", "2023财年", "Q3 2024", "2024Q2", "2024 Q4",
            "2025年第二季度", "2024年第4四半期", "fiscal year 2024", "fiscal 2023", "third quarter 2024", "FY24",
            "2024年3月期", "2019", "2030", "2024年上半年", "H1 2024", "the first half of 2024"]
_PLAIN = ["what was ", "What is ", "the ", " of ", " in ", " for ", "how much ", "How many ", "did ", "have ", "是多少", "的", "の", "は", "を", "いくら",
          "ですか", "でしたか", "教えて", "ください", "?", "？", "。", " "]
_OTHER = ["how many years ", "how many quarters ", "does ", "had ", "growth", "change", "why ", "average ", "top 3 ", "vs ",
          "in yen", "as previously reported", "total ", "per share", "margin", "ratio", "上期", "增长", "为什么",
          "and ", "、", "June 30, 2024", "year ended ", "-", "/", "Acme ", "Wayne ", "revenus", "Japna", "stor",
          "cash flow statement", "占比", "排名", "最高"]


def _question(parts: list[str]) -> str:
    return "".join(parts)


_PARTS = st.sampled_from(_METRICS + _ENTITIES + _CHANNELS + _PERIODS + _PLAIN + _OTHER)
# mostly plain lookups: one name of each kind and question words in any order, sometimes a word from elsewhere
_PLAIN_LOOKUPS = st.tuples(
    st.sampled_from(_METRICS), st.one_of(st.none(), st.sampled_from(_ENTITIES)), st.sampled_from(_PERIODS),
    st.one_of(st.none(), st.sampled_from(_CHANNELS)), st.lists(st.sampled_from(_PLAIN), max_size=4),
    st.lists(st.sampled_from(_OTHER), max_size=1), st.randoms(use_true_random=False),
).map(lambda t: _shuffled([t[0], t[2], *(n for n in (t[1], t[3]) if n), *t[4], *t[5]], t[6]))


def _shuffled(parts: list[str], rng: Any) -> str:
    rng.shuffle(parts)
    return " ".join(parts) if rng.random() < 0.5 else "".join(parts)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_PLAIN_LOOKUPS, st.lists(_PARTS, min_size=1, max_size=8).map(_question)))
def test_the_intent_read_from_the_scan_is_the_full_parse(question: str) -> None:
    plain = plain_intent(question, _PARSER)
    if plain is not None:
        assert plain == _PARSER.parse(question)


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    store = SqliteFactStore(tmp_path_factory.mktemp("facts") / "facts.db")
    load_sample_facts(store)
    return make_qa(store)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_PLAIN_LOOKUPS, st.lists(_PARTS, min_size=1, max_size=8).map(_question)).filter(str.strip))
def test_a_plain_lookup_gets_the_full_paths_answer(qa: QAComponents, question: str) -> None:
    qa.parse_cache.clear()
    plain = seen(answer_question(question, qa=qa))
    again = seen(answer_question(question, qa=qa))  # a parse kept by the plain path is the full path's too
    qa.parse_cache.clear()
    assert plain == seen(full_path_answer(question, qa))
    assert again == seen(full_path_answer(question, qa))


@pytest.mark.parametrize("question", [
    "What was Hong Kong revenue in Q3 2024?",
    "2024年日本的毛利率是多少",
    "日本の2024年第4四半期の売上高を教えてください",
    "2025年香港线下销售额",
    "What was the gross margin of Mainland China in FY2023?",
])
def test_a_plain_lookup_is_read_from_the_scan(question: str) -> None:
    assert plain_intent(question, _PARSER) is not None


@pytest.mark.parametrize("question", [
    "What was the revenue growth of Japan in 2024?",  # a change asked
    "Why did the revenue of Japan fall in 2024?",  # a cause asked
    "What was the revenue of Japan and Hong Kong in 2024?",  # two entities
    "What was the revenue of Japan in 2023 and 2024?",  # two periods
    "What was the revenue of Japan in H1 2024?",  # a half year: two quarters added up
    "What was the revenue of Japna in 2024?",  # a misspelt name
    "What was the revenue of Japan in 2024 in yen?",  # a unit asked
    "What was the revenue of Japan?",  # no period: assumed, and said
])
def test_any_other_question_is_parsed_in_full(question: str) -> None:
    assert plain_intent(question, _PARSER) is None


def test_a_plain_lookup_answers_its_figure_with_its_source(qa: QAComponents) -> None:
    result = answer_question("2024年日本的毛利率是多少", qa=qa)
    assert result.status is AnswerStatus.FOUND
    assert result.sources and "（来源：" in result.answer


_MONTH_PARTS = ["March", "MAR.", "sept", "Dec", "june", "ended", "Ending", "月", "3月期", "to", "-", "~", "から", "2024",
                "ı", "İ", "ſ", "K", "April-June 2024", "gross margin", "revenue", "期", "年度", " ", "/", "TO", "thru",
                "through", "until", "UNTIL", "untıl", "ー", "グループ", "stores", "至", "到", "–", "〜", "～", "may",
                "Oct.", "nov", "2024 ", "ıan"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_MONTH_PARTS + _PERIODS), min_size=1, max_size=6).map(_question))
def test_the_month_reader_runs_wherever_it_may_read_a_month(question: str) -> None:
    # the plain lookup runs the month reader only where its month words stand: it never skips one that reads
    norm = normalize_text(question)
    assert "end" in norm or _may_name_months(norm, months=holds_month_start(norm)) == may_name_months(norm)


_CALENDARS = [FiscalCalendar(end_month=month, named_by=named) for month in (3, 6, 12) for named in ("end", "start")]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_MONTH_PARTS + _PERIODS + _PLAIN + _ENTITIES[:40] + ["3月", "2024年3月期第3四半期",
                                "2018/19", "2019/2020", "year-end", "Year Ended June 30, 2024", "2024年度第3四半期",
                                "ＥＮＤ", "２０２４年度", "期末", "上期", "12 months ended", "2018 year end"]),
                min_size=1, max_size=6).map(_question), st.sampled_from(_CALENDARS))
def test_the_period_words_reader_is_skipped_only_where_it_reads_nothing(question: str,
                                                                      calendar: FiscalCalendar) -> None:
    # without its words (nor a month's), the reader leaves the question as written and reads no period
    norm = normalize_text(question)
    if not _may_read_period_words(norm, calendar.end_month) and not _may_name_months(norm, months=holds_month_start(norm)):
        assert read_period_words(question, calendar) == (unicodedata.normalize("NFKC", question), ())


# Every word the gate looks for, pieces of them, near misses (case, width, a combining mark after "total") and
# the glossary's names, which may hold a cue word or meet one across their edge.
_CUE_PARTS = sorted({*(_PARSER.cue_words or ()), *ONE_METRIC_WORDS})
_NEAR_CUES = ["TOTAL", "Ｔｏｔａｌ", "tota\u0301l", "total\u0301", "sum", "ratio", "(in percentage)", "in", "of", "per",
              "cent", "top", "前", "3", "三", "x", "、", "Q", "占", "差", "most", "moST", "ſhare", "ﬁgure"]
_FORMULA_FREE_METRICS = [m for m in _METRICS if _GLOSSARY.aliases[m][1] not in _GLOSSARY.formulas]
_WITH_CUES = st.tuples(
    st.sampled_from(_FORMULA_FREE_METRICS),
    st.lists(st.sampled_from(_CUE_PARTS + _NEAR_CUES + _PLAIN + _ENTITIES + _CHANNELS + _PERIODS), max_size=5),
    st.randoms(use_true_random=False),
).map(lambda t: _shuffled([t[0], *t[1]], t[2]))


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_PLAIN_LOOKUPS, _WITH_CUES))
def test_the_cue_readers_are_skipped_only_where_they_read_nothing(question: str) -> None:
    # without any of their words the intent's cues read nothing but the quantity cue, and a question naming
    # one metric (no formula metric) asks no arithmetic: the plain lookup takes both verdicts without the readers
    norm = normalize_text(question)
    if _may_hold_cues(question, norm, _PARSER):
        return
    analysis, causal, _quantity, comparison, unit = _PARSER.cues(norm)
    assert (analysis, causal, comparison, unit) == (NO_ANALYSIS, False, False, None)
    metrics = [m.code for m in _GLOSSARY.scan(question) if m.kind is SlotKind.METRIC and m.code]
    if len(metrics) == 1 and metrics[0] not in _GLOSSARY.formulas:
        assert read_arithmetic(question, _GLOSSARY) is NO_ARITHMETIC


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_PLAIN_LOOKUPS, _WITH_CUES,
                 st.lists(st.sampled_from(_MONTH_PARTS + _PERIODS + _NEAR_CUES + _OTHER + _PLAIN + _CHANNELS),
                          min_size=1, max_size=6).map(_question)))
def test_the_one_pass_over_the_readers_words_finds_what_each_readers_own_search_finds(question: str) -> None:
    # a reader the one pass finds none of the words of would have found none with its own search
    norm = normalize_text(question)
    held = _reader_words(_PARSER).held(norm)
    assert not _may_hold_cues(question, norm, _PARSER) or held & _CUE or "total" in question.lower()
    assert holds_month_start(norm) == bool(held & _MONTH)
    assert (_HALF_START.search(norm) is not None) == bool(held & _HALF)
    assert (without_statement_names(question) is not question) <= bool(held & _STATEMENT)


@pytest.mark.parametrize("question", [
    "What was the total revenue of Japan in 2024?",  # an arithmetic cue
    "What was Japan's highest revenue in 2024?",  # an analytics cue
    "What was Japan revenue in 2024 in yen?",  # a unit asked
    "What was the revenue of Japan in 2024 vs 2023?",  # a comparison
    "2024年日本的毛利率为什么是多少",  # a cause asked
])
def test_a_question_holding_a_cue_word_is_read_by_the_cue_readers(question: str) -> None:
    assert _may_hold_cues(question, normalize_text(question), _PARSER)


@pytest.mark.parametrize("today", [date(2026, 11, 30), date(2031, 2, 1)])
def test_the_gates_decision_on_a_plain_lookup_is_its_own_languages_days_and_glossarys(
        qa: QAComponents, today: date) -> None:
    # the same slots in three languages, on two days and with another home entity: each answer, its
    # assumptions and the questions it offers instead are the ones the full path gives that ask
    questions = ["What was the revenue in FY2024?", "FY2024的营业收入是多少", "FY2024の売上高はいくらですか",
                 "What was the revenue of Japan in FY2024?", "日本FY2024的营业收入是多少"]
    for glossary in (_GLOSSARY, replace(_GLOSSARY, home_entity="ACME_JP")):
        asked = replace(qa, glossary=glossary, intent=RuleIntentParser.from_file(glossary), clock=lambda: today)
        for question in questions:
            plain = seen(answer_question(question, qa=asked))
            asked.parse_cache.clear()
            assert plain == seen(full_path_answer(question, asked))
            asked.parse_cache.clear()
