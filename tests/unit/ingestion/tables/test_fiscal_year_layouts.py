"""Fiscal-year layouts of retailers and quarterly reports: 52/53-week years, ``F19`` columns, headers set again.

Each table is written as a report would (figures of our own), parsed by the Markdown parser and
read by the real table reader under the glossary ``ragspine domain init`` writes (a December
year end, the engine's period spellings).
"""

from __future__ import annotations

import tempfile
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.domain.glossary_file import read_glossary
from ragspine.domain.starter import init_domain
from ragspine.facts.glossary import Glossary
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document


@cache
def _starter_glossary() -> Glossary:
    with tempfile.TemporaryDirectory() as tmp:
        init_domain(Path(tmp) / "domain")
        return read_glossary(Path(tmp) / "domain" / "glossary.yaml")


def _facts(rows: list[list[str]], heading: str = "Store results") -> list[Fact]:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    text = f"# {heading}\n\n" + "\n".join(lines) + "\n"
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)
    return list(extract_facts(doc, glossary=_starter_glossary(), source_file_hash="sha256:00").facts)


def _values(facts: list[Fact]) -> set[tuple[str, str, object]]:
    return {(f.metric_code, f.period, f.value) for f in facts}


def test_a_52_week_period_ended_on_a_date_is_that_fiscal_year() -> None:
    facts = _facts([["", "52 weeks ended 28 Mar 2020 £m", "52 weeks ended 30 Mar 2019 £m"],
                    ["Loss before taxation", "(12.4)", "7.5"], ["Tax charge at the standard rate", "2.4", "(1.4)"]])
    assert _values(facts) == {("label:loss before taxation", "2020", -12.4), ("label:loss before taxation", "2019", 7.5),
                              ("label:tax charge at the standard rate", "2020", 2.4),
                              ("label:tax charge at the standard rate", "2019", -1.4)}
    assert {f.unit for f in facts} == {"GBP_M"}


def test_twelve_or_sixteen_weeks_ended_stay_unread_as_years() -> None:
    # each read as of the date it ends on, as when written month first, and of no year
    facts = _facts([["", "12 weeks ended 28 Mar 2020", "16 weeks ended 4 Jan 2020"], ["Loss before taxation", "1.2", "3.4"]])
    assert _values(facts) == {("label:march 28, 2020: loss before taxation", "", 1.2),
                              ("label:january 4, 2020: loss before taxation", "", 3.4)}


def test_f_year_columns_over_their_week_counts_name_the_fiscal_years() -> None:
    facts = _facts([["", "F20", "F19", "", ""], ["$ MILLION", "53 WEEKS", "52 WEEKS", "CHANGE", "CHANGE NORMALISED"],
                    ["Store sales", "2,410", "2,300", "4.8%", "2.9%"], ["Gross margin (%)", "31.5", "30.9", "60 bps", "55 bps"]])
    assert _values(facts) == {("label:store sales", "2020", 2410), ("label:store sales", "2019", 2300),
                              ("label:gross margin (%)", "2020", 31.5), ("label:gross margin (%)", "2019", 30.9)}


def test_a_heading_naming_its_unit_gives_its_rows_that_unit_and_share_counts_under_a_heading_stay_apart() -> None:
    facts = _facts([["", "2020", "2019"], ["", "53 WEEKS", "52 WEEKS"],
                    ["Profit attributable to members used in", "", ""], ["earnings per share ($M)", "", ""],
                    ["Continuing operations", "310", "280"],
                    ["Weighted average number of shares used in earnings per share (shares, millions)", "", ""],
                    ["Basic earnings per share", "1,250.4", "1,262.0"], ["Diluted earnings per share", "1,255.1", "1,266.3"],
                    ["Basic earnings per share (cents per share)", "24.8", "22.2"]])
    by_label = {(f.metric_code, f.period): (f.value, f.unit) for f in facts}
    profit = "label:profit attributable to members used in earnings per share: continuing operations"
    assert by_label[(profit, "2020")] == (310, "USD_M")  # the heading's $M, not per-share unscaled
    assert by_label[("label:basic earnings per share (cents per share)", "2020")] == (24.8, "")
    # the share counts are never read as the earnings per share their label names
    assert not any(f.metric_code == "label:basic earnings per share" for f in facts)
    assert not any(f.value in (1250.4, 1255.1, 1262.0, 1266.3) for f in facts)


def test_headers_set_again_over_a_second_year_read_that_block_under_its_own_year() -> None:
    quarters = [["", "First", "Second", "Third", "Fourth", ""], ["", "Quarter", "Quarter", "Quarter", "Quarter", "Total"]]
    facts = _facts([["", "", "", "", "Fiscal 2020", ""], *quarters,
                    ["Revenues", "$ 10,100", "$ 10,200", "$ 10,300", "$ 10,400", "$ 41,000"],
                    ["", "", "", "", "Fiscal 2019", ""], *quarters,
                    ["Revenues", "$ 9,100", "$ 9,200", "$ 9,300", "$ 9,400", "$ 37,000"]], "Quarterly results (unaudited)")
    revenue = {f.period: f.value for f in facts if f.metric_code == "REVENUE"}
    assert revenue == {"2020Q1": 10100, "2020Q2": 10200, "2020Q3": 10300, "2020Q4": 10400, "2020": 41000,
                       "2019Q1": 9100, "2019Q2": 9200, "2019Q3": 9300, "2019Q4": 9400, "2019": 37000}
    locators = [f.source_locator for f in facts if f.metric_code == "REVENUE"]
    assert len(set(locators)) == len(locators)  # each cell's locator names its own block
    assert any("Fiscal 2019" in loc and "First" in loc for loc in locators)


def test_headers_set_again_with_another_layout_do_not_start_a_block() -> None:
    # a row of text in other columns than the headers' is no second header: the table stays one table
    facts = _facts([["", "Fiscal 2020", "Fiscal 2019"], ["Revenues", "41,000", "37,000"],
                    ["", "", "see note 4"], ["Gross profit", "16,000", "15,000"]])
    assert ("REVENUE", "2020", 41000) in _values(facts)


def test_a_header_row_set_again_with_its_corner_unit_note_reads_the_block_below_under_its_own_dates() -> None:
    # two roll-forwards of one schedule stacked in one grid, the header row written again over the year before
    facts = _facts([["(In thousands)", "Jan 2, 2021", "Additions", "Disposals", "Jan 1, 2022"],
                    ["North region", "$3,200", "$410", "$—", "$3,610"], ["South region", "1,150", "—", "(90)", "1,060"],
                    ["(In thousands)", "Dec 28, 2019", "Additions", "Disposals", "Jan 2, 2021"],
                    ["North region", "$2,950", "$250", "$—", "$3,200"], ["South region", "1,020", "130", "—", "1,150"]],
                   "Store fixtures by region")
    values = _values(facts)
    assert {("label:north region", "2019", 2950), ("label:south region", "2019", 1020),
            ("label:north region", "2021", 3610), ("label:south region", "2021", 1060)} <= values
    # the corner's row is a header, never a row of figures, and no date of one block is read in the other's
    assert not any(value in (2950, 1020) and period != "2019" for _, period, value in values)
    assert not any("In thousands" in f.source_locator.split(",col=")[0] for f in facts)


def test_a_count_in_millions_beside_its_amount_under_one_year_leaves_the_amount_read_and_the_count_unread() -> None:
    facts = _facts([["", "2021", "", "2020", ""], ["", "Number", "", "Number", ""],
                    ["Ordinary shares", "M", "$M", "M", "$M"],
                    ["Shares issued under the employee plan", "3.1", "96", "2.4", "71"],
                    ["Issued capital at end of year", "842.6", "3,910", "850.1", "3,975"]], "Issued capital")
    # the count in millions has no unit code: never given as a plain number, nor in conflict with its amount
    assert {(f.metric_code.split(": ")[-1], f.period, f.value, f.unit) for f in facts} == {
        ("shares issued under the employee plan", "2021", 96, "USD_M"),
        ("shares issued under the employee plan", "2020", 71, "USD_M"),
        ("issued capital at end of year", "2021", 3910, "USD_M"),
        ("issued capital at end of year", "2020", 3975, "USD_M")}


def test_a_second_blocks_year_is_never_taken_from_the_caption_of_the_first() -> None:
    # in a CSV the one-cell year row over the first block is read as the table's caption: the year row over the
    # second block then has no twin among the headers, so no block is read under a year it may not have
    text = ",,Fiscal 2020,\n,First,Second,\n,Quarter,Quarter,Total\nRevenues,\"10,100\",\"10,200\",\"20,300\"\n" \
           ",,Fiscal 2019,\n,First,Second,\n,Quarter,Quarter,Total\nRevenues,\"9,100\",\"9,200\",\"18,300\"\n"
    doc = parse_document(text.encode(), filename="q.csv", doc_id="q.csv", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=_starter_glossary(), source_file_hash="sha256:00").facts
    assert not [f for f in facts if f.value in (9100, 9200, 18300) and f.period.startswith("2020")]


def test_share_counts_under_a_heading_of_shares_are_never_read_as_the_per_share_figure_their_label_names() -> None:
    facts = _facts([["", "2020", "2019"], ["Net profit used in earnings per share ($M)", "", ""],
                    ["Continuing operations", "310", "280"],
                    ["Weighted average number of shares used in the calculation of earnings per share (shares, millions)",
                     "", ""],
                    ["Basic earnings per share", "1,250.4", "1,262.0"], ["Diluted earnings per share", "1,255.1", "1,266.3"]])
    assert not any(f.value in (1250.4, 1255.1, 1262.0, 1266.3) for f in facts)
    assert {(f.value, f.unit) for f in facts if f.period == "2020"} == {(310, "USD_M")}


@settings(max_examples=20, deadline=None)
@given(heading=st.sampled_from(["Weighted average shares (millions):", "Weighted-average shares outstanding:",
                                "Number of shares (in millions):", "Weighted average number of shares"]),
       rows=st.sampled_from([("Basic earnings per share", "Diluted earnings per share"), ("Basic EPS", "Diluted EPS"),
                             ("Basic net income per share", "Diluted net income per share")]))
def test_share_counts_under_a_short_heading_are_never_read_as_the_per_share_figure_their_label_names(
        heading: str, rows: tuple[str, str]) -> None:
    # the heading is short enough to qualify the rows, whose own labels still name the per-share figure
    facts = _facts([["", "2020", "2019"], ["Net profit attributable to members ($M)", "310", "280"],
                    [heading, "", ""], [rows[0], "1,250.4", "1,262.0"], [rows[1], "1,255.1", "1,266.3"],
                    ["Basic earnings per share (cents per share)", "24.8", "22.2"]])
    assert not any(f.value in (1250.4, 1255.1, 1262.0, 1266.3) for f in facts), facts
    # a row stating its own unit says what it is
    assert any(f.value == 24.8 and f.metric_code.endswith("basic earnings per share (cents per share)")
               for f in facts), facts


def test_per_share_rows_after_the_counts_of_an_unclosed_share_section_are_the_per_share_figures() -> None:
    # no money sign: the rows after the counts "Basic" and "Diluted" are still the per-share figures
    facts = _facts([["", "2020", "2019"], ["Weighted-average common shares outstanding:", "", ""],
                    ["Basic", "57,100", "52,300"], ["Diluted", "59,000", "58,200"],
                    ["Net income per basic share", "3.61", "4.75"], ["Net income per diluted share", "3.49", "4.27"]],
                   "Earnings per share (in thousands, except per share data)")
    assert {f.value for f in facts if f.period == "2020" and "per diluted share" in f.metric_code} == {3.49}, facts


def test_share_counts_under_a_heading_of_shares_keep_a_label_naming_the_count() -> None:
    facts = _facts([["", "2020", "2019"], ["Weighted average shares (millions):", "", ""],
                    ["Basic", "1,250.4", "1,262.0"], ["Diluted", "1,255.1", "1,266.3"]])
    assert ("label:weighted average shares: basic", "2020", 1250.4) in _values(facts)


def test_dates_one_year_apart_under_a_part_of_a_year_are_no_fiscal_years() -> None:
    # a quarter's end recurs one year apart as a year's end does: under "Three months ended" it is no year
    quarter = _facts([["", "Three months ended", ""], ["", "September 30, 2020", "September 30, 2019"],
                      ["Broadband customers", "512,300", "498,100"]], "Customer statistics")
    year = _facts([["", "September 30, 2020", "September 30, 2019"], ["Broadband customers", "512,300", "498,100"]],
                  "Customer statistics")
    # no year's figure: each column is read as of its own date (ingestion/table_column_dates.py)
    assert {(f.metric_code, f.period_type, f.value) for f in quarter if f.value in (512300, 498100)} == {
        ("label:september 30, 2020: broadband customers", "UNDATED", 512300),
        ("label:september 30, 2019: broadband customers", "UNDATED", 498100)}
    assert _values(year) == {("label:broadband customers", "2020", 512300), ("label:broadband customers", "2019", 498100)}


def test_a_merged_title_written_twice_in_one_cell_heads_its_columns_once() -> None:
    title = "Appropriation of earnings (in thousand NT dollars)"
    facts = _facts([["", f"{title} {title}", "", "Cash dividend per share (NT dollars)", ""],
                    ["", "2019", "2020", "2019", "2020"], ["Legal reserve", "$512,400", "$633,100", "", ""],
                    ["Cash dividends", "4,100,200", "5,000,300", "$0.41", "$0.50"]], "Earnings distribution")
    legal = {(f.metric_code, f.period, f.value, f.unit) for f in facts if "legal reserve" in f.metric_code}
    # the kind of figure is named without its unit note: the unit comes from it, and "thousand" is no label word
    assert legal == {("label:appropriation of earnings: legal reserve", "2019", 512400, "TWD_K"),
                     ("label:appropriation of earnings: legal reserve", "2020", 633100, "TWD_K")}


def test_per_share_rows_after_share_counts_keep_their_currency() -> None:
    # the share-count section is never closed by a total: the per-share rows below it are still money per share
    facts = _facts([["", "2020", "2019"], ["Net income", "$210,400", "$198,700"],
                    ["Weighted-average common shares outstanding:", "", ""], ["Basic", "58,100", "57,200"],
                    ["Diluted", "59,300", "58,400"], ["Net income per diluted share", "$3.55", "$3.40"]],
                   "Earnings per share (in thousands, except per share data)")
    per_share = {(f.period, f.value, f.unit) for f in facts if "per diluted share" in f.metric_code}
    shares = {(f.period, f.value, f.unit) for f in facts if f.metric_code.endswith(": diluted")}
    assert per_share == {("2020", 3.55, "USD"), ("2019", 3.40, "USD")}
    assert shares == {("2020", 59300, "K"), ("2019", 58400, "K")}
