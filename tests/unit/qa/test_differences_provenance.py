"""Multi-subtask structured answers, computed differences, and the final provenance check."""

from __future__ import annotations

import re

import pytest

from ragspine.qa.answer import answer_question
from ragspine.qa.provenance import check_provenance
from ragspine.qa.result import AnswerStatus
from tests.fakes.facts import InMemoryFactStore
from tests.fakes.qa import make_qa
from tests.unit.facts.test_fact_model import make_fact

CN_2024 = make_fact()
CN_2025 = make_fact(period="2025", value=1452, source_doc_id="ACME_FY2025_Review.pptx",
                    source_locator="slide=2,table=1,row=营业收入,col=FY2025")
HK_2024 = make_fact(entity="ACME_HK", geography="HK", value=338, source_locator="slide=3,table=1,row=REVENUE,col=FY2024")
HK_2025 = make_fact(entity="ACME_HK", geography="HK", period="2025", value=351, source_doc_id="ACME_FY2025_Review.pptx",
                    source_locator="slide=3,table=1,row=营业收入,col=FY2025")
JP_GM_24 = make_fact(metric_code="GROSS_MARGIN", entity="ACME_JP", geography="JP", value=36.0, unit="PCT",
                     source_locator="slide=4,table=1,row=GROSS_MARGIN,col=FY2024")
JP_GM_25 = make_fact(metric_code="GROSS_MARGIN", entity="ACME_JP", geography="JP", period="2025", value=36.5,
                     unit="PCT", source_doc_id="ACME_FY2025_Review.pptx",
                     source_locator="slide=4,table=1,row=毛利率,col=FY2025")
STORE = InMemoryFactStore([CN_2024, CN_2025, HK_2024, HK_2025, JP_GM_24, JP_GM_25])


def ask(question: str):
    return answer_question(question, qa=make_qa(STORE))


class TestDifferences:
    def test_two_periods_give_absolute_and_percent_change_with_both_sources(self) -> None:
        result = ask("中国内地FY2024和FY2025的营收对比")
        lines = result.answer.splitlines()
        assert "1320 USD_M" in lines[0] and "1452 USD_M" in lines[1]
        assert "FY2025 较 FY2024 增加 132 USD_M（+10.00%）" in lines[2]
        assert "ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024" in lines[2]
        assert "ACME_FY2025_Review.pptx · slide=2,table=1,row=营业收入,col=FY2025" in lines[2]
        assert len(result.sources) == 2

    def test_a_percentage_metric_changes_in_points(self) -> None:
        result = ask("Japan gross margin FY2024 vs FY2025")
        assert "FY2025 vs FY2024 up 0.5 points（+1.39%）" in result.answer

    def test_each_enumerated_entity_gets_its_own_difference(self) -> None:
        result = ask("中国内地和香港2024年、2025年的营收")
        assert "增加 132 USD_M（+10.00%）" in result.answer and "增加 13 USD_M（+3.85%）" in result.answer
        assert len(result.results) == 4 and result.status is AnswerStatus.FOUND

    def test_no_difference_is_invented_when_one_period_is_missing(self) -> None:
        result = ask("中国内地FY2025和FY2030的营收")
        assert result.status is AnswerStatus.PARTIAL
        assert "较" not in result.answer and "未找到" in result.answer

    def test_three_periods_are_listed_without_a_difference(self) -> None:
        result = ask("中国内地FY2023、FY2024和FY2025的营收")
        assert "较" not in result.answer


class TestProvenance:
    def test_every_number_of_a_structured_answer_is_accounted_for(self) -> None:
        result = ask("中国内地FY2024和FY2025的营收对比")
        assert "provenance:pass" in result.trace["decisions"]  # type: ignore[operator]

    @pytest.mark.parametrize(("answer", "unsupported"), [
        ("营收为 1320 USD_M（来源：doc · slide=2,table=1）", ()),
        ("营收为 1,320 USD_M", ()),
        ("毛利率 36 PCT", ()),  # 36 == 36.0
        ("营收为 1500 USD_M（来源：doc · slide=2）", ("1500",)),
        ("增长了 12.5%", ("12.5",)),
    ])
    def test_numbers_without_evidence_are_reported(self, answer: str, unsupported: tuple[str, ...]) -> None:
        report = check_provenance(answer, evidence_texts=["1320", "36.0", "FY2024"])
        assert report.unsupported == unsupported

    @pytest.mark.parametrize("answer", [
        "见（来源：ACME_Quarterly_Revenue.xlsx · sheet=2024,cell=C3,row=ACME_HK,col=2024Q2）",
        "下降。（来源：ACME_FY2024_MDA.docx heading=香港（ACME_HK）,para=1）",  # brackets inside the locator
    ])
    def test_locators_inside_citations_are_not_claims(self, answer: str) -> None:
        assert check_provenance(answer, evidence_texts=[]).ok

    def test_not_found_answers_carry_no_number_but_the_period(self) -> None:
        result = ask("日本FY2030的营收是多少")
        assert set(re.findall(r"\d+", result.answer)) == {"2030"}
