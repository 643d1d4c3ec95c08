"""Every row of a section added up: "the sum of all <heading>" names each row filed under that heading.

A table's heading with rows under it and no total row states no figure of its own; read as written the
question named nothing and went to text search. Asked through ``answer_question`` on rows written here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.unit.qa.derived.statement_set import answered
from tests.unit.qa.derived.test_rows_compared import computed_line, rows_qa

SCHEDULE = {"expiring credits: federal": 41200, "expiring credits: state": 3650, "expiring credits: overseas": 975,
            "unused losses: federal": 12000, "unused losses: state": 800}
DATED = {**SCHEDULE, "expiring credits: total": 45825}


class TestSumOfASection:
    def test_an_undated_schedule_adds_every_row_under_the_heading(self, folder: Path) -> None:
        result = answered(rows_qa(folder, SCHEDULE, period=""), "What was the sum of all expiring credits?")
        line, cells = computed_line(result)
        assert ": 45825 USD_K（计算自：" in line, line
        assert cells == {f"table=1,row=expiring credits: {row},col=Fair value amount"
                         for row in ("federal", "state", "overseas")}
        assert "unused losses" not in line

    def test_a_year_named_adds_that_year_s_rows(self, folder: Path) -> None:
        rows = {row: value for row, value in SCHEDULE.items() if row.startswith("unused")}
        line, cells = computed_line(answered(rows_qa(folder, rows), "What is the total of all the unused losses "
                                                                    "in 2019?"))
        assert "FY2019" in line and ": 12800 USD_K（计算自：" in line, line
        assert cells == {"table=1,row=unused losses: federal,col=2019", "table=1,row=unused losses: state,col=2019"}

    def test_a_heading_written_with_a_typographic_apostrophe(self, folder: Path) -> None:
        rows = {"members’ reserves: capital": 700, "members’ reserves: revaluation": 55, "other: capital": 1}
        line, _ = computed_line(answered(rows_qa(folder, rows, period=""), "What is the sum of all members’ "
                                                                           "reserves?"))
        assert ": 755 USD_K（计算自：" in line, line

    def test_a_heading_with_a_total_row_is_not_added_again(self, folder: Path) -> None:
        result = answered(rows_qa(folder, DATED), "What was the sum of all expiring credits in 2019?")
        assert "91650" not in result.answer and "45825 USD_K（计算自：" not in result.answer, result.answer

    def test_a_heading_with_a_sub_heading_is_not_added_in_part(self, folder: Path) -> None:
        rows = {"lease costs: fixed": 900, "lease costs: minimum": 5, "lease costs: variable: short-term": 40,
                "lease costs: variable: other": 2}
        result = answered(rows_qa(folder, rows, period=""), "What is the sum of all lease costs?")
        assert "（计算自：" not in result.answer, result.answer

    def test_rows_of_two_tables_under_one_heading_are_not_added(self, folder: Path) -> None:
        from tests.unit.qa.derived.statement_set import statement_fact, statement_qa_with_labels

        cells = {"unit sales: hardware": ("table=1", 500), "unit sales: services": ("table=1", 300),
                 "unit sales: north": ("table=4", 600), "unit sales: south": ("table=4", 200)}
        facts = [statement_fact(f"label:{row}", "2019", value, unit="USD_K",
                                source_locator=f"{table},row={row},col=2019")
                 for row, (table, value) in cells.items()]
        result = answered(statement_qa_with_labels(folder, facts), "What was the sum of all unit sales in 2019?")
        assert "1600" not in result.answer and "（计算自：" not in result.answer, result.answer

    def test_without_all_one_row_may_be_meant(self, folder: Path) -> None:
        result = answered(rows_qa(folder, SCHEDULE, period=""), "What was the sum of expiring credits?")
        assert "45825" not in result.answer, result.answer


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.integers(min_value=1, max_value=900_000), min_size=2, max_size=5),
       wording=st.sampled_from(["What was the sum of all {h}?", "What is the total of all the {h}?",
                                "Calculate the sum of all {h}.", "what was the sum of all {h} ?"]))
def test_any_rows_and_wording_add_to_their_sum(folder: Path, values: list[int], wording: str) -> None:
    rows = {f"deferred charges: part {chr(97 + i)}": value for i, value in enumerate(values)}
    rows["accrued items: part a"] = 5
    line, cells = computed_line(answered(rows_qa(folder, rows, period=""), wording.format(h="deferred charges")))
    assert f": {sum(values)} USD_K（计算自：" in line, line
    assert len(cells) == len(values)


@pytest.mark.parametrize(("rows", "question"), [
    ({"递延税项抵免: 联邦": 300, "递延税项抵免: 州": 45, "递延税项抵免: 境外": 6, "未用亏损: 联邦": 900},
     "所有递延税项抵免的合计是多少？"),
    ({"繰越税額控除: 国内": 300, "繰越税額控除: 州": 45, "繰越税額控除: 海外": 6, "未使用欠損金: 国内": 900},
     "すべての繰越税額控除の合計はいくらか。"),
])
def test_in_chinese_and_japanese(folder: Path, rows: dict[str, float], question: str) -> None:
    line, cells = computed_line(answered(rows_qa(folder, rows, period=""), question))
    assert "351 USD_K（计算自：" in line, line
    assert len(cells) == 3
