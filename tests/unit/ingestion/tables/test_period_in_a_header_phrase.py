"""A header cell that writes its period and its kind of figure in one phrase: ``Fiscal 2019 Net Sales``.

Such a cell is read as the period over the kind of figure, as if the two were set on two header
rows; a phrase whose rest is a plan, a change or a part of the year stays unread.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.support.markdown_facts import markdown_table_facts

_SEGMENTS = [["Grocery & Snacks", "$3,279.2", "$3,287.0", "—%"], ["International", "793.4", "843.5", "(6)%"],
             ["Total", "$4,072.6", "$4,130.5", "(1)%"]]


def _facts(rows: list[list[str]]) -> set[tuple[str, str, object]]:
    return {(f.metric_code, f.period, f.value) for f in markdown_table_facts(rows, "Net sales by segment")}


def test_a_year_inside_a_header_phrase_dates_its_column_and_the_rest_names_the_figure() -> None:
    facts = _facts([["($ in millions)", "", "", ""],
                    ["Reporting Segment", "Fiscal 2019 Net Sales", "Fiscal 2018 Net Sales", "% Inc (Dec)"], *_SEGMENTS])
    assert ("label:total net sales", "2018", 4130.5) in facts
    assert ("label:total net sales", "2019", 4072.6) in facts
    assert {period for _, period, _ in facts} == {"2019", "2018"}


def test_the_split_header_reads_as_the_same_phrase_set_on_two_rows() -> None:
    one_cell = _facts([["Reporting Segment", "Fiscal 2019 Net Sales", "Fiscal 2018 Net Sales", "% Inc (Dec)"],
                       *_SEGMENTS])
    two_rows = _facts([["Reporting Segment", "Fiscal 2019", "Fiscal 2018", "% Inc (Dec)"],
                       ["", "Net Sales", "Net Sales", ""], *_SEGMENTS])
    assert one_cell == two_rows and one_cell


@given(year=st.integers(min_value=2001, max_value=2029),
       lead=st.sampled_from(["Fiscal {y}", "Fiscal Year {y}", "FY{y}", "FY {y}", "{y}"]),
       kind=st.sampled_from(["Net Sales", "Net sales", "Fair Value", "Carrying Amount"]))
def test_any_written_form_of_the_year_before_the_figure_dates_the_column(year: int, lead: str, kind: str) -> None:
    header = lead.format(y=year)
    facts = _facts([["", f"{header} {kind}"], ["Americas", "1,200"], ["Europe", "800"]])
    assert {(period, value) for _, period, value in facts} == {(str(year), 1200), (str(year), 800)}


def test_a_phrase_naming_a_plan_or_a_change_stays_unread() -> None:
    # "Fiscal 2019 Restated" is the year's figure as now stated (test_restated_columns.py)
    for rest in ("Budget", "Plan", "Change", "As Reported", "% of Total", "Q1 Net Sales"):
        facts = _facts([["", f"Fiscal 2019 {rest}", "Fiscal 2018 Net Sales"], ["Americas", "1,200", "1,100"]])
        assert {period for _, period, _ in facts} == {"2018"}, rest
