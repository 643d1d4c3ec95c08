"""Headings over period columns as annual reports write them: a merged title in a middle cell, "Fiscal", "Year-ended".

Markdown keeps a merged cell's text in one of the cells it spans (often the middle one) and
leaves the others blank; the heading still names nothing the periods below it do not, while a
heading over a plan or a change keeps its columns skipped.
"""

from __future__ import annotations

from tests.support.markdown_facts import markdown_table_facts


def _facts(rows: list[list[str]]) -> set[tuple[str, str, object]]:
    facts = markdown_table_facts(rows, "Pension costs")
    return {(f.metric_code, f.period, f.value) for f in facts}


def test_a_fiscal_heading_merged_over_the_years_names_nothing() -> None:
    facts = _facts([["", "", "Fiscal", ""], ["", "2019", "2018", "2017"], ["Interest cost", "1,308", "1,230", "1,086"]])
    assert facts == {("label:interest cost", "2019", 1308), ("label:interest cost", "2018", 1230),
                     ("label:interest cost", "2017", 1086)}


def test_a_title_written_in_a_middle_cell_over_the_years_is_a_title() -> None:
    facts = _facts([["", "", "Amount of Gain (Loss) Recognized in AOCI on Derivatives", ""],
                    ["", "", "Years Ended June 30,", ""], ["($ in millions)", "2019", "2018", "2017"],
                    ["Foreign exchange contracts", "(0.9)", "(0.4)", "1.7"]])
    assert ("label:foreign exchange contracts", "2018", -0.4) in facts and len(facts) == 3


def test_a_heading_over_a_plan_or_a_change_keeps_its_columns_skipped() -> None:
    for heading in ("Budget for the year", "Change over prior year", "Pro forma amounts"):
        facts = _facts([["", "", heading, ""], ["", "2019", "2018", "2017"], ["Interest cost", "1", "2", "3"]])
        assert not {period for _, period, _ in facts} & {"2018", "2017"}, heading


def test_a_hyphenated_year_ended_header_names_its_year() -> None:
    facts = _facts([["", "Year-ended 31 March 2019", "Year-ended 31 March 2018 Restated"], ["UK", "83.2", "73.5"]])
    assert facts == {("label:uk", "2019", 83.2), ("label:uk", "2018", 73.5)}


def test_years_ended_in_january_or_february_under_one_heading_are_dated_unless_named_by_their_start() -> None:
    rows = [["", "For the Year Ended", "", ""], ["", "January 30, 2021", "February 1, 2020", "February 2, 2019"],
            ["Average store age (in years)", "6.1", "5.8", "5.5"]]
    # fiscal 2020 to some reports, 2021 to others: the year written, and an answer citing it says so
    assert {period for _, period, _ in _facts(rows)} == {"2021", "2020", "2019"}
    named = markdown_table_facts(rows, "Store data", "Our fiscal 2021 ended January 30, 2021.")
    assert {(f.period, f.value) for f in named} == {("2021", 6.1), ("2020", 5.8), ("2019", 5.5)}
    by_start = markdown_table_facts(rows, "Store data", "Our fiscal 2020 ended January 30, 2021.")
    assert by_start == []


def test_a_label_the_table_repeats_is_qualified_by_the_section_heading_above_it() -> None:
    facts = _facts([["", "Year Ended December 31,", ""], ["", "2019", "2018"],
                    ["Current income tax expense (benefit):", "", ""], ["Federal", "$5", "$4"],
                    ["Deferred income tax expense (benefit):", "", ""], ["Federal", "4,206", "4,860"],
                    ["Income tax expense (benefit)", "$(7,125)", "$5,534"]])
    assert facts == {
        ("label:current income tax expense (benefit): federal", "2019", 5),
        ("label:current income tax expense (benefit): federal", "2018", 4),
        ("label:deferred income tax expense (benefit): federal", "2019", 4206),
        ("label:deferred income tax expense (benefit): federal", "2018", 4860),
        ("label:income tax expense (benefit)", "2019", -7125), ("label:income tax expense (benefit)", "2018", 5534)}


def test_a_row_under_a_section_heading_is_a_line_item_of_that_section() -> None:
    facts = _facts([["(In thousands)", "2018", "2017"], ["Revenue:", "", ""],
                    ["Software delivery, support and maintenance", "$9,441", "$10,949"],
                    ["Cost of revenue:", "", ""], ["Software delivery, support and maintenance", "2,322", "2,918"],
                    ["Gross profit", "6,693", "8,814"]])
    assert facts == {("label:revenue: software delivery, support and maintenance", "2018", 9441),
                     ("label:revenue: software delivery, support and maintenance", "2017", 10949),
                     ("label:cost of revenue: software delivery, support and maintenance", "2018", 2322),
                     ("label:cost of revenue: software delivery, support and maintenance", "2017", 2918),
                     ("GROSS_PROFIT", "2018", 6693),
                     ("GROSS_PROFIT", "2017", 8814)}


def test_an_unlabelled_total_is_its_section_and_closes_it() -> None:
    facts = _facts([["", "2019", "2018"], ["Revenue:", "", ""], ["Malaysia", "$1,138,380", "1,118,032"],
                    ["Romania", "195,837", "177,111"], ["", "1,334,217", "1,295,143"],
                    ["Basic earnings per share (cents per share) (1)", "", ""], ["Continuing operations", "114.3", "123.4"],
                    ["Discontinued operations", "91.9", "9.2"],
                    ["", "206.2", "132.6"], ["Headcount", "12", "11"]])
    assert facts == {("label:revenue: malaysia", "2019", 1138380), ("label:revenue: malaysia", "2018", 1118032),
                     ("label:revenue: romania", "2019", 195837), ("label:revenue: romania", "2018", 177111),
                     ("REVENUE", "2019", 1334217), ("REVENUE", "2018", 1295143),
                     ("label:basic earnings per share (cents per share): continuing operations", "2019", 114.3),
                     ("label:basic earnings per share (cents per share): continuing operations", "2018", 123.4),
                     ("label:basic earnings per share (cents per share): discontinued operations", "2019", 91.9),
                     ("label:basic earnings per share (cents per share): discontinued operations", "2018", 9.2),
                     ("label:basic earnings per share (cents per share)", "2019", 206.2),
                     ("label:basic earnings per share (cents per share)", "2018", 132.6),
                     ("label:headcount", "2019", 12), ("label:headcount", "2018", 11)}


def test_a_heading_over_the_label_column_heads_its_rows() -> None:
    facts = _facts([["", "Year-ended 31 March 2019", "Year-ended 31 March 2018"],
                    ["Revenue from external customers by country", "$M", "$M"], ["UK", "83.2", "73.5"],
                    ["Total revenue from external customers by country", "710.6", "639.0"]])
    assert facts == {("label:revenue from external customers by country: uk", "2019", 83.2),
                     ("label:revenue from external customers by country: uk", "2018", 73.5),
                     ("label:total revenue from external customers by country", "2019", 710.6),
                     ("label:total revenue from external customers by country", "2018", 639.0)}
    for corner in ("(In thousands)", "$ million", "Years ended August 31,", "30 June 2019"):
        facts = _facts([[corner, "2019", "2018"], ["Issued", "11,328", "6,662"]])
        assert {metric for metric, _, _ in facts} == {"label:issued"}, corner


def test_a_month_and_day_over_the_years_names_nothing_itself() -> None:
    for heading in ("December 31,", "December31,", "Sept. 30"):
        facts = _facts([["", heading, "", "Change"], ["", "2019", "2018", "%"],
                        ["Cost of goods sold", "$ 68,367", "$ 74,646", "(8.4%)"]])
        assert facts == {("label:cost of goods sold", "2019", 68367), ("label:cost of goods sold", "2018", 74646)}


def test_a_year_ended_heading_in_the_label_column_dates_the_columns_of_its_row() -> None:
    facts = _facts([["Fiscal Year ended", "June 1, 2019", "June 2, 2018"], ["Feed cost per dozen produced", "0.415", "0.394"]])
    assert facts == {("label:feed cost per dozen produced", "2019", 0.415),
                     ("label:feed cost per dozen produced", "2018", 0.394)}
    # Without the heading the dates are still one a year, side by side: each column is the year it writes
    # (tests/unit/ingestion/tables/test_stated_years.py); two in one year are no year's: each of its own date.
    assert _facts([["Balance sheet", "June 1, 2019", "June 2, 2018"], ["Inventories", "4", "3"]]) == {
        ("label:balance sheet: inventories", "2019", 4), ("label:balance sheet: inventories", "2018", 3)}
    assert _facts([["Balance sheet", "June 1, 2019", "September 2, 2019"], ["Inventories", "4", "3"]]) == {
        ("label:june 1, 2019: balance sheet: inventories", "", 4),
        ("label:september 2, 2019: balance sheet: inventories", "", 3)}


def test_a_line_item_worded_like_a_period_heading_is_still_a_line_item() -> None:
    facts = _facts([["", "2019", "2018"], ["Balance at the beginning of the fiscal year", "$1,264", "$1,626"],
                    ["Balance at the end of the fiscal year", "$1,258", "$1,264"]])
    assert ("label:balance at the beginning of the fiscal year", "2019", 1264) in facts and len(facts) == 4


def test_note_numbers_leave_a_label() -> None:
    facts = _facts([["$ million", "2019", "2018"], ["Order intake1", "532.0", "470.0"],
                    ["In-game net revenues (1)", "3,376", "4,249"], ["Diluted (1,2)", "1.5", "1.2"],
                    ["Scope 1", "59,495", "66,336"]])
    assert {metric for metric, _, _ in facts} == {"label:order intake", "label:in-game net revenues",
                                                  "label:diluted", "label:scope 1"}


def test_a_column_naming_a_kind_of_figure_under_a_period_heads_the_rows_of_the_documents_own_labels() -> None:
    facts = _facts([["", "Fiscal Year 2018", "", "Fiscal Year 2017", ""],
                    ["", "Net Sales", "% of Total", "Net Sales", "% of Total"],
                    ["Americas", "$259,105", "21.6%", "$224,056", "29.6%"], ["EMEA", "277,898", "23.1%", "237,437", "31.4%"]])
    assert facts == {("label:net sales: americas", "2018", 259105), ("label:net sales: americas", "2017", 224056),
                     ("label:net sales: emea", "2018", 277898), ("label:net sales: emea", "2017", 237437),
                     # the "% of Total" beside each amount: the row's stated share of that year's total net sales
                     ("label:net sales: americas, percent of total", "2018", 21.6),
                     ("label:net sales: americas, percent of total", "2017", 29.6),
                     ("label:net sales: emea, percent of total", "2018", 23.1),
                     ("label:net sales: emea, percent of total", "2017", 31.4)}


def test_a_column_of_a_part_of_a_period_or_of_a_change_never_heads_rows() -> None:
    for header in ("% change", "Budget"):
        facts = _facts([["", "Fiscal Year 2018"], ["", header], ["Americas", "259,105"]])
        assert facts == set(), header
    # a quarter under the year (in words or as Q1) is that quarter of the year, never a kind of figure of its rows
    for quarter in ("First Quarter", "Q1"):
        assert _facts([["", "Fiscal Year 2018"], ["", quarter], ["Americas", "259,105"]]) == {
            ("label:americas", "2018Q1", 259105)}, quarter


def test_a_kind_of_figure_written_with_a_closing_percent_sign_heads_its_rows_in_percent() -> None:
    facts = markdown_table_facts([["", "Occupancy rate %", "Staff turnover %"], ["December 31, 2019", "", ""],
                                  ["Clinics", "81", "12"], ["December 31, 2018", "", ""], ["Clinics", "77", "15"]],
                                 "Operating statistics")
    assert {(f.metric_code, f.period, f.value, f.unit) for f in facts} == {
        ("label:occupancy rate %: clinics", "2019", 81, "PCT"), ("label:staff turnover %: clinics", "2019", 12, "PCT"),
        ("label:occupancy rate %: clinics", "2018", 77, "PCT"), ("label:staff turnover %: clinics", "2018", 15, "PCT")}
    # a share of the total or a percentage change still heads nothing
    for header in ("% of Total", "Change %"):
        assert _facts([["", "Fiscal Year 2018"], ["", header], ["Americas", "21.6"]]) == set(), header


def test_a_schedule_of_payments_by_future_year_gives_no_fiscal_year_facts() -> None:
    facts = _facts([["(Millions)", "Total", "2019", "2020", "2021", "2022", "After 2022"],
                    ["Interest on long-term debt", "4,281", "335", "331", "321", "280", "2,750"]])
    assert facts == set()
    comparatives = _facts([["(Millions)", "2016", "2017", "2018"], ["Interest cost", "1", "2", "3"]])
    assert {period for _, period, _ in comparatives} == {"2016", "2017", "2018"}


def test_a_date_row_dates_the_rows_under_it() -> None:
    facts = _facts([["", "Accounts Receivable, Gross", "Allowance for Losses"],
                    ["December 31, 2019", "", ""], ["Servicing related", "6,868", "(238)"],
                    ["December 31, 2018", "", ""], ["Servicing related", "864", "(168)"]])
    assert facts == {("label:accounts receivable, gross: servicing related", "2019", 6868),
                     ("label:allowance for losses: servicing related", "2019", -238),
                     ("label:accounts receivable, gross: servicing related", "2018", 864),
                     ("label:allowance for losses: servicing related", "2018", -168)}


def test_a_date_row_beside_period_columns_dates_nothing_twice() -> None:
    facts = _facts([["", "2019", "2018"], ["December 31, 2018", "", ""], ["Interest cost", "1,308", "1,230"]])
    assert facts == {("label:interest cost", "2018", 1230)}


def test_a_share_column_beside_the_figures_of_its_year_is_left_out() -> None:
    facts = _facts([["", "Years ended", "", "", ""], ["", "December 31, 2019", "", "December 31, 2018", ""],
                    ["", "$", "%", "$", "%"], ["Canada", "96,168", "6.1%", "70,774", "6.6%"]])
    assert facts == {("label:canada", "2019", 96168), ("label:canada", "2018", 70774)}
