"""A roll-forward whose movements carry dates too: the balance is the name its dated rows repeat."""

from __future__ import annotations

from tests.support.markdown_facts import markdown_table_facts


def test_a_dated_movement_between_two_balances_is_a_movement_of_the_later_year() -> None:
    rows = [["", "Transportation", "Total"],
            ["Net balances at September 30, 2017", "$ 50,870", "$ 321,562"],
            ["Reassignment on October 1, 2017", "—", "125,321"],
            ["Acquisitions", "1,200", "13,750"],
            ["Net balances at September 30, 2018", "52,070", "460,633"],
            ["Reassignment on April 1, 2019", "—", "3,428"],
            ["Net balances at September 30, 2019", "52,070", "464,061"]]
    facts = {(f.metric_code, f.period, f.value) for f in markdown_table_facts(rows, "Goodwill")}
    assert {("label:net balances", "2017", 321562), ("label:net balances", "2018", 460633),
            ("label:net balances", "2019", 464061), ("label:acquisitions", "2018", 13750),
            ("label:reassignment on october 1, 2017", "2018", 125321)} <= facts
    assert not any(metric == "label:net balances" and value == 125321 for metric, _, value in facts)


def test_two_names_repeated_as_often_leave_the_rows_undated() -> None:
    rows = [["", "Amount"], ["Balance at December 31, 2018", "10"], ["Reserve at December 31, 2018", "4"],
            ["Additions", "3"], ["Balance at December 31, 2019", "13"], ["Reserve at December 31, 2019", "5"]]
    facts = {(f.metric_code, f.period) for f in markdown_table_facts(rows, "Reserves")}
    assert not any(metric == "label:additions" for metric, _ in facts)
