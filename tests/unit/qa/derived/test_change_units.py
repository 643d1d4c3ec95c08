"""A change between two periods is computed only between figures of one currency.

Two scales of one currency are put on the finer one and the answer says so; a figure stating no unit
is read in the other's, and the answer says so; two currencies give no number, only the reason,
whatever fills the two periods: a peer's table filed under the company, a mis-read unit.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.answer import answer_question
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_facts, statement_qa

PEER = "Peer_Five_Year_Record.csv"
_QUESTIONS = {
    "en": ("What was the change in revenue between FY2023 and FY2024?",
           "the change from FY2023 to FY2024 cannot be computed: the units differ ({units})"),
    "zh": ("2024财年营业收入较2023财年变化多少？", "的变化无法计算：单位不同（{units}）"),
    "ja": ("2024年度の売上収益は前期比何%増えたか", "の増減は計算できません：単位が異なり（{units}）"),
}


def _with_earlier_revenue(folder: Path, value: float, unit: str, doc: str = PEER) -> list[str]:
    facts = [f for f in statement_facts() if not (f.metric_code == "REVENUE" and f.period == "2023")]
    return [answered(statement_qa(folder, facts + [statement_fact("REVENUE", "2023", value, unit=unit,
                                                                  source_doc_id=doc)]), question).answer
            for question, _ in _QUESTIONS.values()]


class TestTwoCurrencies:
    @settings(max_examples=12, deadline=None)
    @given(value=st.integers(1, 10**7), unit=st.sampled_from(["GBP_K", "USD_M", "JPY_M", "GBP"]))
    def test_no_change_is_given_between_two_currencies_in_any_language(self, folder: Path, value: int,
                                                                       unit: str) -> None:
        # GIVEN FY2024 revenue 2000 EUR_M and an FY2023 revenue in another currency
        answers = _with_earlier_revenue(folder, value, unit)
        # THEN each language says the units differ, names both, and gives neither a change nor a percentage
        for answer, (_, refusal) in zip(answers, _QUESTIONS.values(), strict=True):
            join = ", " if refusal.startswith("the") else "、"
            assert refusal.format(units=join.join(sorted(["EUR_M", unit]))) in answer
            assert "%）" not in answer  # no percentage change
            assert not any(f" {word} " in answer for word in ("up", "down", "增加", "减少", "増加", "減少"))



class TestAFigureStatingNoUnit:
    def test_it_is_read_in_the_unit_of_the_other_and_the_answer_says_so(self, folder: Path) -> None:
        # GIVEN FY2023 revenue 1800 from a document stating no unit, FY2024 2000 EUR_M
        answers = _with_earlier_revenue(folder, 1800, "")
        # THEN the change is computed in EUR_M and each language says which figure stated no unit
        assert "FY2024 vs FY2023 up 200 EUR_M（+11.11%） (FY2023 states no unit: read in EUR_M)" in answers[0]
        assert "（FY2023 未注明单位，按 EUR_M 计）" in answers[1]
        assert "（FY2023 は単位の記載がないため、EUR_M として計算）" in answers[2]


class TestScalesOfOneCurrency:
    def test_a_change_between_two_scales_is_put_on_the_finer_one_and_says_so(self, folder: Path) -> None:
        # GIVEN FY2023 revenue stated as 1.8 EUR_B and FY2024 as 2000 EUR_M
        answer = _with_earlier_revenue(folder, 1.8, "EUR_B")[0]
        # THEN the change is 200 EUR_M, not 2000 - 1.8
        assert "FY2024 vs FY2023 up 200 EUR_M（+11.11%） (EUR_B put on the scale of EUR_M)" in answer
        assert "1998.2" not in answer

    def test_the_same_unit_keeps_the_plain_change_line(self, folder: Path) -> None:
        result = answer_question("What was the change in revenue between FY2023 and FY2024?",
                                 qa=statement_qa(folder, statement_facts()))
        assert "FY2024 vs FY2023 up 200 EUR_M（+11.11%）（计算自：" in result.answer
