"""The numbers a question implied are allowed before its own are read, and no verdict changes.

A structured answer shows its period ("2024Q3"), whose year the figures do not account for. The
provenance check allows the numbers of the question's periods and assumed values first
(``implied_numbers``, each read once per process) and reads the question's own numbers
(``question_numbers``) only for a number still unaccounted for. That changes no verdict as long
as the implied numbers are a part of the question's numbers, which the property holds on
generated questions, periods and assumptions; the examples show the answers a user sees.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import Period, SlotKind
from ragspine.qa.answer import answer_question
from ragspine.qa.clarify import Proceed
from ragspine.qa.parse_cache import implied_numbers, question_numbers
from ragspine.qa.result import AnswerStatus
from ragspine.qa.slots import Assumption, Slots
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.unit.facts.test_fact_model import make_fact

_PERIODS = st.one_of(
    st.integers(1990, 2040).map(Period.fiscal_year),
    st.tuples(st.integers(1990, 2040), st.integers(1, 4)).map(lambda p: Period("Q", f"{p[0]}Q{p[1]}")),
    st.just(Period.none_stated()))
# The values an assumption holds (codes, period labels) and look-alikes that end or start with digits.
_VALUES = st.sampled_from(["ACME_GROUP", "TOTAL", "FY2024", "2024Q3", "", "3", "1.5", "Q4", "12,000", "二〇二四年"])
# Pieces of questions: years, quarters, numbers in any script and width, units, and text that may join them.
_PIECES = ["2024", "Q3 ", "FY2023", "2024年", "第三季度", "第4四半期", "1,320", "1.2万", "３", "三", "%", "USD",
           " ", "\n", "-", "what was ", "revenue", "的", "の", "?", "。", "(", ")", "年", "Q", "0", "5", ".", ","]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join),
       st.lists(_PERIODS, max_size=3), st.lists(_VALUES, max_size=3))
def test_the_implied_numbers_are_a_part_of_the_question_numbers(text: str, periods: list[Period],
                                                                   values: list[str]) -> None:
    assumptions = tuple(Assumption(SlotKind.PERIOD, value, "assumed") for value in values)
    decision = Proceed(Slots(("REVENUE",), ("ACME_HK",), tuple(periods), ("TOTAL",), assumptions))
    assert implied_numbers(decision) <= question_numbers(text, decision)


def test_a_quarter_answers_with_its_year_accounted_for_by_the_period() -> None:
    decision = Proceed(Slots(("REVENUE",), ("ACME_HK",), (Period("Q", "2024Q3"),), ("TOTAL",)))
    assert "2024" in implied_numbers(decision)


_FACTS = InMemoryFactStore([
    make_fact(metric_code="REVENUE", entity="ACME_HK", geography="HK", period_type="Q", period="2024Q3", value=80.0,
              source_locator="sheet=2024,cell=C4"),
    make_fact(metric_code="REVENUE", entity="ACME_CN", geography="CN", period_type="Q", period="2025Q2", value=352.0,
              source_locator="sheet=2025,cell=C3"),
])


@pytest.mark.parametrize(("question", "shown"), [
    ("What was Hong Kong revenue in Q3 2024?", "2024Q3 revenue (REVENUE): 80.0 USD_M"),
    ("中国内地2025年第二季度营收是多少", "2025Q2 营业收入（REVENUE）：352.0 USD_M"),
])
def test_a_quarter_figure_passes_the_provenance_check_with_its_period(question: str, shown: str) -> None:
    result = answer_question(question, qa=make_qa(_FACTS))
    assert result.status is AnswerStatus.FOUND
    assert shown in result.answer
    decisions = result.trace["decisions"]
    assert isinstance(decisions, list) and "provenance:pass" in decisions
