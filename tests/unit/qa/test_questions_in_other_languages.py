"""A question in a language the service does not read is told so, never asked back about a company it named not.

Through ``answer_question`` on a domain fresh from ``domain init`` with a revenue figure stored:
German, French and Spanish questions get the language and the words that say so, with no
number, where they would otherwise be refused as off topic or asked back about an unknown company; English questions with a foreign word or name in them, and Chinese and Japanese ones,
are read as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.domain.starter import init_domain
from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerStatus
from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    domain: Path = tmp_path_factory.mktemp("languages") / "domain"
    init_domain(domain)
    return statement_qa_with_labels(domain, [statement_fact("REVENUE", "2025", 4812.6)])


GERMAN = ["Wie hoch waren die Umsatzerlöse im GJ {}?", "Wie hoch war die EBIT-Marge im Geschäftsjahr {}?",
          "Welche Umsatzerlöse wurden im Geschäftsjahr {} erzielt?"]
FRENCH = ["Quel était le chiffre d'affaires de l'exercice {} ?", "Quelle était la dette nette au 30 juin {} ?",
          "Combien était le chiffre d'affaires pour {} ?"]
SPANISH = ["¿Cuáles fueron los ingresos del ejercicio {}?", "¿Cuánto fue el beneficio en {}?"]


@given(asked=st.sampled_from([("German", q) for q in GERMAN] + [("French", q) for q in FRENCH]
                             + [("Spanish", q) for q in SPANISH]),
       year=st.sampled_from(["2025", "2024/25", "FY2025"]))
def test_a_question_in_another_language_is_told_its_language(qa: QAComponents, asked: tuple[str, str],
                                                             year: str) -> None:
    language, question = asked
    result = answer_question(question.format(year), qa=qa)
    # not read as a figure question, whether its words left no domain word (out of scope) or an unknown "company"
    assert result.status in (AnswerStatus.UNRECOGNIZED_PARAM, AnswerStatus.REFUSED), result.answer
    assert f"reads as {language}" in result.answer, result.answer
    assert "Could not recognise" not in result.answer and "4812.6" not in result.answer, result.answer


@pytest.mark.parametrize(("question", "said"), [
    ("What was the revenue in FY2025?", "4812.6"),
    ("What was the revenue of Globex in FY2025?", "“Globex”"),  # an unknown company, in English: asked back
    ("What was the revenue of Société Générale in FY2025?", "Could not recognise"),
    ("2025年的营业收入是多少？", "4812.6"),
    ("2025年度の売上高はいくらですか", "4812.6"),
])
def test_english_chinese_and_japanese_questions_are_read_as_before(qa: QAComponents, question: str,
                                                                   said: str) -> None:
    result = answer_question(question, qa=qa)
    assert said in result.answer and "reads as" not in result.answer, result.answer
