"""A payment schedule set down the rows (``2021 | 138 | 6`` … ``Thereafter``) states no fiscal year's figures.

Each cell is read as its column's kind falling due when its row says, undated where nothing
else states a period, with the cell's own row and column in its locator; the rows after the
schedule are read as the column's line items.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import UNDATED
from tests.support.markdown_facts import markdown_table_facts


def _schedule(first: int, after: str) -> list[list[str]]:
    return [["", "Operating Leases", "Finance Leases"],
            [str(first), "$138", "$6"],
            [str(first + 1), "135", "6"],
            [after, "577", "35"],
            ["Total future minimum lease payments", "850", "47"],
            ["Less: Imputed interest", "(279)", "(9)"]]


@given(st.integers(2015, 2040), st.sampled_from(["Thereafter", "THEREAFTER", "Thereafter (1)"]))
def test_each_year_row_is_when_its_figures_fall_due_never_a_fiscal_year(first: int, after: str) -> None:
    facts = markdown_table_facts(_schedule(first, after), "Future minimum lease payments (in millions)")
    read = {(f.metric_code, f.period_type, f.value) for f in facts}
    assert read == {
        (f"label:{first}: operating leases", UNDATED, 138), (f"label:{first}: finance leases", UNDATED, 6),
        (f"label:{first + 1}: operating leases", UNDATED, 135), (f"label:{first + 1}: finance leases", UNDATED, 6),
        ("label:thereafter: operating leases", UNDATED, 577), ("label:thereafter: finance leases", UNDATED, 35),
        ("label:operating leases: total future minimum lease payments", UNDATED, 850),
        ("label:finance leases: total future minimum lease payments", UNDATED, 47),
        ("label:operating leases: less: imputed interest", UNDATED, -279),
        ("label:finance leases: less: imputed interest", UNDATED, -9),
    }
    cell = next(f for f in facts if f.value == 135)
    assert cell.source_locator == f"table=1,row={first + 1},col=Operating Leases"
    assert {f.unit for f in facts} == {"USD_M"}


def test_four_years_over_a_total_are_a_schedule_too() -> None:
    rows = [["", "Purchase obligations"], ["2020", "40"], ["2021", "30"], ["2022", "20"], ["2023", "10"],
            ["Total", "100"]]
    facts = markdown_table_facts(rows, "Purchase obligations")
    assert not any(f.period_type == "FY" for f in facts)
    assert ("label:2021: purchase obligations", 30) in {(f.metric_code, f.value) for f in facts}


def test_years_down_the_rows_without_a_thereafter_or_total_stay_fiscal_years() -> None:
    """``Period | Revenue`` with ``FY2024``, ``FY2025`` rows is a transposed table, not a schedule."""
    rows = [["Period", "Revenue"], ["FY2024", "15.2"], ["FY2025", "16.8"]]
    facts = markdown_table_facts(rows, "ACME Japan (USD million)")
    assert {(f.metric_code, f.period, f.value) for f in facts} == {("REVENUE", "2024", 15.2), ("REVENUE", "2025", 16.8)}


def test_a_glossary_metric_column_cannot_carry_a_due_year() -> None:
    rows = [["", "Revenue", "Finance Leases"], ["2021", "138", "6"], ["2022", "135", "7"], ["Thereafter", "577", "35"]]
    facts = markdown_table_facts(rows, "ACME Japan commitments (USD million)")
    assert not any(f.metric_code == "REVENUE" for f in facts)
    assert ("label:2022: finance leases", 7) in {(f.metric_code, f.value) for f in facts}
