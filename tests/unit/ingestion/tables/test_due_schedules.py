"""A schedule of payments by when they fall due states no period its figures are of.

``Less than 1 year | 1-3 years | More than 5 years`` under "Payments due by period" counts spans
from the balance date: each cell is read as its row's figure for that span (undated, the span
qualifying the row), never skipped for its "year" and "period" words and never a fiscal year.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import UNDATED
from ragspine.ingestion.table_undated import names_a_period
from tests.support.markdown_facts import markdown_table_facts

SPANS = [("Less than 1 year", "1-3 years", "3-5 years", "More than 5 years"),
         ("Up to one year", "1 to 3 years", "3 to 5 years", "After 5 years"),
         ("Within 1 year", "2-5 years", "5 - 10 years", "Beyond 10 years"),
         ("Less than 1 year", "Years 1-3", "Years3-5", "More than 5 years")]
HEADINGS = ["Payments due by period", "Payments Due by Period (in thousands)", "Amounts due by period", ""]


def _schedule(spans: tuple[str, ...], heading: str) -> list[list[str]]:
    rows = [["", heading, "", "", "", ""]] if heading else []
    return [*rows,
            ["Contractual obligations", "Total", *spans],
            ["Operating leases", "1,610", "420", "530", "360", "300"],
            ["Purchase obligations", "275", "250", "25", "—", "—"]]


@given(st.sampled_from(SPANS), st.sampled_from(HEADINGS), st.booleans())
def test_each_due_span_is_its_rows_undated_figure(spans: tuple[str, ...], heading: str, upper: bool) -> None:
    cased = tuple(s.upper() if upper else s for s in spans)
    facts = markdown_table_facts(_schedule(cased, heading.upper() if upper else heading), "Commitments")
    read = {(f.metric_code, f.value) for f in facts}
    assert {f.period_type for f in facts} == {UNDATED}  # no span is a fiscal year, and the table states none
    first, second, third, fourth = (s.lower() for s in spans)
    assert read == {
        ("label:contractual obligations: operating leases", 1610),
        (f"label:{first}: contractual obligations: operating leases", 420),
        (f"label:{second}: contractual obligations: operating leases", 530),
        (f"label:{third}: contractual obligations: operating leases", 360),
        (f"label:{fourth}: contractual obligations: operating leases", 300),
        ("label:contractual obligations: purchase obligations", 275),
        (f"label:{first}: contractual obligations: purchase obligations", 250),
        (f"label:{second}: contractual obligations: purchase obligations", 25),
    }
    over = f"{heading.upper() if upper else heading}/" if heading else ""
    cell = next(f for f in facts if f.value == 530)
    assert cell.source_locator == f"table=1,row=Contractual obligations: Operating leases,col={over}{cased[1]}"

def test_a_schedule_under_a_stated_year_keeps_it() -> None:
    """A year the table states beside the spans still dates it: the spans never hide a period."""
    rows = [["", "2019", "Less than 1 year", "1-3 years"], ["Operating leases", "900", "420", "480"]]
    facts = markdown_table_facts(rows, "Commitments")
    assert all(f.period_type != UNDATED for f in facts)


@given(st.sampled_from([s for spans in SPANS for s in spans]), st.booleans())
def test_a_due_span_names_no_period_but_a_year_beside_it_does(span: str, upper: bool) -> None:
    text = span.upper() if upper else span
    assert not names_a_period(text)
    assert not names_a_period(f"Payments due by period {text}")
    assert names_a_period(f"{text} ended December 31, 2019")
    assert names_a_period(f"{text} to 2024")
    assert names_a_period(f"{text} or the quarter")


@pytest.mark.parametrize("header", ["Year 3", "Years 2019-2020", "Year 1 or less"])
def test_a_plan_year_or_a_calendar_span_is_still_a_period(header: str) -> None:
    assert names_a_period(header)  # no span counted from the balance date: the table is not read undated


@given(st.integers(2018, 2040), st.sampled_from(["Thereafter", "THEREAFTER", "Thereafter (1)"]), st.booleans())
def test_a_schedules_years_are_no_fiscal_years(first: int, last_header: str, spans: bool) -> None:
    """``Total | 2030 | 2031-2032 | Thereafter``: payments due in those years, never the years' own figures.

    Each is kept, undated, under its row qualified by the year as the schedule writes it.
    """
    years = [f"{first + 1}-{first + 2}", f"{first + 3}-{first + 4}"] if spans else [str(first + 1), str(first + 2)]
    after = last_header
    rows = [["(In thousands)", "Total", str(first), *years, after],
            ["Operating leases", "$1,800", "$400", "$700", "$500", "$200"],
            ["Capital leases", "90", "30", "60", "—", "—"]]
    facts = markdown_table_facts(rows, "Contractual obligations")
    assert {f.period_type for f in facts} == {UNDATED}
    thereafter = "label:thereafter: operating leases"
    assert {(f.metric_code, f.value) for f in facts} == {
        ("label:operating leases", 1800), (f"label:{first}: operating leases", 400),
        (f"label:{years[0]}: operating leases", 700), (f"label:{years[1]}: operating leases", 500),
        (thereafter, 200), ("label:capital leases", 90), (f"label:{first}: capital leases", 30),
        (f"label:{years[0]}: capital leases", 60)}
    total = next(f for f in facts if f.value == 90)
    assert total.source_locator == "table=1,row=Capital leases,col=Total"


def test_a_total_beside_four_years_in_a_row_is_a_schedule() -> None:
    rows = [["", "Total", "2020", "2021", "2022", "2023"],
            ["Purchase obligations", "1,000", "400", "300", "200", "100"]]
    facts = markdown_table_facts(rows, "Commitments")
    assert {f.period_type for f in facts} == {UNDATED}
    assert [(f.metric_code, f.value) for f in facts] == [
        ("label:purchase obligations", 1000), ("label:2020: purchase obligations", 400),
        ("label:2021: purchase obligations", 300), ("label:2022: purchase obligations", 200),
        ("label:2023: purchase obligations", 100)]
    assert facts[2].source_locator == "table=1,row=Purchase obligations,col=2021"


def test_years_reported_side_by_side_stay_fiscal_years() -> None:
    rows = [["", "2019", "2018", "2017"], ["Operating leases", "1,800", "1,700", "1,600"]]
    facts = markdown_table_facts(rows, "Lease cost")
    assert {(f.period_type, f.period, f.value) for f in facts} == {("FY", "2019", 1800), ("FY", "2018", 1700),
                                                                   ("FY", "2017", 1600)}
