"""A figure asked in a currency or unit the facts are not in: answered in the facts' unit,
said plainly, never converted."""

from __future__ import annotations

import pytest

from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerStatus, Route
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.unit.facts.test_fact_model import make_fact


@pytest.mark.parametrize(("question", "note"), [
    ("中国内地FY2024的营收是多少日元？", "注：事实表中这些数字以 USD_M 计，没有以 JPY 计的数值；以上数字未作任何换算。"),
    ("What was Mainland China revenue in FY2024 in yen?",
     "Note: the facts give these figures in USD_M, not in JPY; nothing above is converted."),
    ("中国内地FY2024の売上高は円でいくら？", "注：ファクトテーブルの数値は USD_M 建てで、JPY の数値はありません。上記は換算していません。"),
    ("What was Mainland China revenue in FY2024 in billions?", "not in BILLIONS"),
])
def test_the_figure_is_given_in_its_own_unit_and_the_answer_says_so(question: str, note: str) -> None:
    result = answer_question(question, qa=make_qa(InMemoryFactStore([make_fact()])))
    assert (result.route, result.status) == (Route.STRUCTURED, AnswerStatus.FOUND)
    assert "1320 USD_M" in result.answer and note in result.answer
    assert result.sources == ({"doc": "ACME_FY2024_Review.pptx", "locator": "slide=2,table=1,row=REVENUE,col=FY2024"},)


@pytest.mark.parametrize("question", ["What was Mainland China revenue in FY2024 in US dollars?",
                                      "中国内地FY2024的营收是多少？"])
def test_no_note_when_the_unit_asked_is_the_facts_own_or_none_is_asked(question: str) -> None:
    result = answer_question(question, qa=make_qa(InMemoryFactStore([make_fact()])))
    assert "1320 USD_M" in result.answer and "convert" not in result.answer and "换算" not in result.answer
