"""A column stating each row's share of a whole beside its amounts (``Net Sales | % of Total`` under a year)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.markdown_facts import markdown_table_facts


def _shares(kind: str, header: str) -> dict[tuple[str, str], tuple[float, str, str]]:
    rows = [["", "Fiscal Year 2020", "", "Fiscal Year 2019", ""], ["", kind, header, kind, header],
            ["Retail", "$612,400", "61.2%", "$540,100", "58.4%"], ["Wholesale", "388,200", "38.8%", "384,700", "41.6%"],
            ["Total", "$1,000,600", "100.0%", "$924,800", "100.0%"]]
    return {(f.metric_code, f.period): (f.value, f.unit, f.source_locator)
            for f in markdown_table_facts(rows, "Annual report excerpt") if f.unit == "PCT"}


@settings(max_examples=20, deadline=None)
@given(header=st.sampled_from(["% of Total", "% of total", "% of Total ", "%  of  Total"]))
def test_a_share_of_total_beside_amounts_is_each_rows_stated_share(header: str) -> None:
    shares = _shares("Net Sales", header)
    assert shares[("label:net sales: retail, percent of total", "2020")][:2] == (61.2, "PCT"), shares
    assert shares[("label:net sales: wholesale, percent of total", "2019")][:2] == (41.6, "PCT"), shares
    locator = shares[("label:net sales: retail, percent of total", "2019")][2]
    assert locator.startswith("table=1,row=Retail,col=Fiscal Year 2019/") and "of" in locator, locator
    # the Total row's 100 % is the whole's share of itself: no fact
    assert not any(code.startswith("label:total") for code, _ in shares), shares


@settings(max_examples=10, deadline=None)
@given(written=st.sampled_from([("% of revenue", "revenue"), ("% of net sales", "net sales"),
                                 ("As a % of revenues", "revenues"), ("% of Net Sales", "net sales")]))
def test_a_share_of_a_named_whole_keeps_the_kind_of_its_row(written: tuple[str, str]) -> None:
    # "Cost of sales | % of revenue": the row's cost as a share of revenue, never the row's revenue share
    header, whole = written
    shares = _shares("Cost of Sales", header)
    assert shares[(f"label:cost of sales: retail, percent of {whole}", "2020")][:2] == (61.2, "PCT"), shares


def test_a_share_column_beside_no_kind_of_figure_stays_unread() -> None:
    rows = [["", "Fiscal Year 2020"], ["", "% of Total"], ["Retail", "61.2%"], ["Wholesale", "38.8%"]]
    assert markdown_table_facts(rows, "Annual report excerpt") == []
