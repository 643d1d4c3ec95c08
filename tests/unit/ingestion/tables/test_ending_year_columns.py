"""A column of the year each row expires or falls due dates none of the table's figures.

A carryforward table (``Last Fiscal Year of Expiration | Amount``) writes a future year on every
row: read as a label column, each amount would become a figure of that fiscal year (FY2039).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import UNDATED
from tests.support.markdown_facts import markdown_table_facts

HEADERS = ["Last Fiscal Year of Expiration", "Year of expiration", "Expires", "Expiring", "Maturity",
           "Year due", "EXPIRATION DATE"]


def _carryforwards(header: str, state_year: str, federal_year: str) -> list[list[str]]:
    return [
        ["(dollars in thousands)", header, "Amount"],
        ["Net operating loss carryforwards:", "", ""],
        ["Domestic state", state_year, "$12,345"],
        ["Foreign", f"{state_year} or indefinite", "$6,789"],
        ["Tax credit carryforwards:", "", ""],
        ["Domestic federal", federal_year, "$2,468"],
    ]


@given(st.sampled_from(HEADERS), st.integers(2020, 2045), st.integers(2020, 2045), st.booleans())
def test_an_expiry_year_column_dates_no_figure(header: str, state: int, federal: int, upper: bool) -> None:
    rows = _carryforwards(header.upper() if upper else header, str(state), str(federal))
    facts = markdown_table_facts(rows, "Tax carryforwards")
    read = {f.metric_code: (f.value, f.period_type, f.source_locator) for f in facts}
    # every amount is read under its section, of no period (the table states none), and no year is a figure
    assert read == {
        "label:net operating loss carryforwards: domestic state":
            (12345, UNDATED, "table=1,row=Net operating loss carryforwards: Domestic state,col=Amount"),
        "label:net operating loss carryforwards: foreign":
            (6789, UNDATED, "table=1,row=Net operating loss carryforwards: Foreign,col=Amount"),
        "label:tax credit carryforwards: domestic federal":
            (2468, UNDATED, "table=1,row=Tax credit carryforwards: Domestic federal,col=Amount"),
    }


@pytest.mark.parametrize("header", ["Amount due", "Maturity value"])
def test_a_due_or_maturity_column_of_amounts_is_read(header: str) -> None:
    """Only a column of years is the year rows end; a column of amounts under such a word keeps its figures."""
    rows = [["(in thousands)", "2019", header], ["Notes payable", "1,200", "1,500"]]
    facts = markdown_table_facts(rows, "Notes")
    assert {(f.metric_code, f.period, f.value) for f in facts if f.period} == {("label:notes payable", "2019", 1200)}
