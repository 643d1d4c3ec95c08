"""A kind of figure written over two header lines under a date (``Unrealized`` over ``Gains``): one name."""

from __future__ import annotations

from tests.support.markdown_facts import markdown_table_facts

# the date is centred over the four columns, so a converter leaves it in the second one
HOLDINGS = [["", "", "As of December 31, 2023", "", ""], ["", "Amortized", "Unrealized", "Unrealized", "Fair"],
            ["", "Cost", "Gains", "Losses", "Value"],
            ["Municipal bonds", "$51,200", "$—", "$1,340", "$49,860"],
            ["Corporate notes", "32,800", "410", "—", "33,210"]]


def test_each_kind_is_named_by_all_of_its_lines() -> None:
    """``Amortized Cost`` left of the date's cell too: the centred date dates it as it dates the kinds on its right."""
    facts = markdown_table_facts(HOLDINGS, "ACME Japan securities available for sale")
    assert {(f.metric_code, f.period, f.value) for f in facts} == {
        ("label:amortized cost: municipal bonds", "2023", 51200), ("label:amortized cost: corporate notes", "2023", 32800),
        ("label:unrealized losses: municipal bonds", "2023", 1340), ("label:fair value: municipal bonds", "2023", 49860),
        ("label:unrealized gains: corporate notes", "2023", 410), ("label:fair value: corporate notes", "2023", 33210)}


def test_a_date_right_of_centre_dates_no_column_left_of_it() -> None:
    """A date with fewer blank cells right of it than left heads its own columns, never the ones before it."""
    rows = [["", "", "", "As of December 31, 2023", ""], ["", "Amortized", "Unrealized", "Unrealized", "Fair"],
            ["", "Cost", "Gains", "Losses", "Value"], ["Municipal bonds", "$51,200", "$—", "$1,340", "$49,860"]]
    facts = markdown_table_facts(rows, "ACME Japan securities available for sale")
    assert not any(f.value == 51200 for f in facts)


def test_a_lower_line_under_two_upper_texts_stays_unread() -> None:
    """``Cost`` under both ``Held`` and ``Sold``: two kinds crossed, which one a figure is of is not certain."""
    rows = [["", "", "As of December 31, 2023", "", ""], ["", "Held", "Held", "Sold", "Fair"],
            ["", "Cost", "Yield", "Cost", "Value"], ["Municipal bonds", "51,200", "3", "1,340", "49,860"]]
    facts = markdown_table_facts(rows, "ACME Japan securities available for sale")
    assert not any(f.value in (51200, 1340) for f in facts)


def test_a_dated_line_under_a_kind_stays_out_of_its_name() -> None:
    """``Period (1/1/24)`` under ``Balance at Start of`` dates the column; it is no word of the kind."""
    rows = [["", "Balance at Start of", "", ""], ["", "Period (1/1/24)", "Net Change", "Balance at Close of Period"],
            ["Year Ended December 31, 2024", "", "", ""], ["Trade receivables", "$61,250", "$4,310", "$65,560"]]
    facts = markdown_table_facts(rows, "ACME Japan contract balances")
    assert ("label:balance at start of: trade receivables", "2024", 61250) in {
        (f.metric_code, f.period, f.value) for f in facts}
