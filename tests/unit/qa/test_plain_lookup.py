"""A plain lookup's parse, read from the glossary's scan, is the full parse's, and so is its answer.

``plain_intent`` replaces the slot and cue readers for a question naming one metric, one period and
at most one entity and channel in the glossary's own names and a few question words. The
properties hold it to ``RuleIntentParser.parse`` on questions generated from every name of the
glossary, the question words, words that other readers read and other scripts, and the answers
of ``answer_question`` to those of the full parse (the plain path switched off).
"""

from __future__ import annotations

import unicodedata
from datetime import date
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import SlotKind, normalize_text
from ragspine.facts.open_vocabulary import METRIC_PREFIX
from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.qa import answer as answer_module
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.month_periods import may_name_months
from ragspine.qa.period_words import read_period_words
from ragspine.qa.plain_lookup import _may_name_months, _may_read_period_words, plain_intent
from ragspine.qa.result import AnswerResult, AnswerStatus
from tests.fakes.qa import make_qa
from tests.support.glossary import default_glossary
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


def _seen(result: AnswerResult) -> dict[str, object]:
    """Everything the caller gets but the trace's timings: the stages' names and the decisions stay."""
    trace = dict(result.trace)
    timings = result.trace["timings_ms"]
    assert isinstance(timings, dict)
    trace["timings_ms"] = sorted(timings)
    return {"answer": result.answer, "sources": result.sources, "route": result.route, "status": result.status,
            "slots": result.slots, "results": result.results, "refinements": result.refinements,
            "clarification": result.clarification, "refusal": result.refusal_reason, "trace": trace}


def _full(question: str, qa: QAComponents) -> AnswerResult:
    with mock.patch.object(answer_module, "plain_parse", return_value=None):
        return answer_question(question, qa=qa)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_PLAIN_LOOKUPS, st.lists(_PARTS, min_size=1, max_size=8).map(_question)).filter(str.strip))
def test_a_plain_lookup_gets_the_full_paths_answer(qa: QAComponents, question: str) -> None:
    qa.parse_cache.clear()
    plain = _seen(answer_question(question, qa=qa))
    again = _seen(answer_question(question, qa=qa))  # a parse kept by the plain path is the full path's too
    qa.parse_cache.clear()
    assert plain == _seen(_full(question, qa))
    assert again == _seen(_full(question, qa))


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
    assert "end" in norm or _may_name_months(norm) == may_name_months(norm)


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
    if not _may_read_period_words(norm, calendar.end_month) and not _may_name_months(norm):
        assert read_period_words(question, calendar) == (unicodedata.normalize("NFKC", question), ())
