"""Headers as PDF converters and report templates leave them: read where they say a period, skipped where not.

A section heading set in the first value column, a merged heading filled onto the next period's
column, a letter-spaced year, a benefit plan's name over the years, a header broken over two
lines, a part of a year over the year columns, and the fixed column words of Chinese quarterly
reports (本报告期, 年初至报告期末). Each table is read by the real Markdown parser and table reader.
"""

from __future__ import annotations

from ragspine.numbers.units import units_in
from tests.support.markdown_facts import markdown_table_facts


def _read(rows: list[list[str]], heading: str = "Notes to the accounts") -> set[tuple[str, str, object]]:
    return {(f.metric_code, f.period, f.value) for f in markdown_table_facts(rows, heading)}


def test_a_section_heading_in_the_first_value_column_heads_the_rows_not_one_column() -> None:
    facts = _read([["", "", "As of and for the Year Ended May 31,", ""],
                   ["(in millions)", "2019", "2018", "2017"],
                   ["", "Statements of Operations Data:", "", ""],
                   ["Operating income", "$13,535", "$13,264", "$12,913"]])
    assert {(period, value) for _, period, value in facts} == {("2019", 13535), ("2018", 13264), ("2017", 12913)}


def test_a_heading_merged_over_two_columns_stops_before_a_period_column() -> None:
    facts = _read([["Year Ended May 31,", "", "", "", ""], ["", "", "", "Percent Change", ""],
                   ["(Dollars in millions)", "2019", "Actual", "Constant", "2018"],
                   ["Interest expense", "$2,082", "3%", "3%", "$2,025"]])
    assert facts == {("label:interest expense", "2019", 2082), ("label:interest expense", "2018", 2025)}


def test_a_letter_spaced_year_is_that_year() -> None:
    facts = _read([["", "December 31", ""], ["", "2019", "2 0 1 8"], ["", "U.S. $ in thousands", ""],
                   ["Operating loss carryforward", "73,260", "57,768"]])
    assert {(period, value) for _, period, value in facts} == {("2019", 73260), ("2018", 57768)}


def test_a_pension_plan_named_over_the_years_is_a_title_not_a_plan_column() -> None:
    facts = _read([["", "", "Combined Pension Plan", ""], ["", "", "Years Ended December 31,", ""],
                   ["", "2019", "2018", "2017"], ["Service cost", "56", "66", "63"]])
    assert {(period, value) for _, period, value in facts} == {("2019", 56), ("2018", 66), ("2017", 63)}


def test_a_balance_at_the_beginning_of_the_year_is_not_the_years_figure() -> None:
    facts = _read([["", "Balance at Beginning of", "", ""],
                   ["", "Period (1/1/19)", "Increase / (Decrease)", "Balance at End of Period"],
                   ["Year Ended December 31, 2019", "", "", ""],
                   ["Accounts receivable", "$90,831", "$7,117", "$97,948"]])
    assert ("label:accounts receivable", "2019", 90831) not in facts
    assert all(value != 90831 or metric.startswith("label:balance at beginning") for metric, _, value in facts)


def test_a_heading_broken_mid_phrase_heads_its_own_column_and_the_closing_balance_is_read() -> None:
    facts = _read([["", "Balance at Start of", "", ""],
                   ["", "Year (1/1/24)", "Additions / (Releases)", "Balance at End of Year"],
                   ["Year Ended December 31, 2024", "", "", ""],
                   ["Warranty reserve", "$1,204", "$(96)", "$1,108"],
                   ["Inventory reserve", "$640", "$52", "$692"]])
    assert ("label:balance at end of year: warranty reserve", "2024", 1108) in facts
    assert ("label:balance at end of year: inventory reserve", "2024", 692) in facts
    # the opening balance's broken heading stays over its own column, never over the closing one's
    assert not any(metric.startswith("label:balance at start of") and value in (1108, 692)
                   for metric, _, value in facts)


def test_nine_months_over_the_year_columns_give_no_fiscal_year() -> None:
    facts = _read([["", "Nine Months Ended June 30,", "Nine Months Ended June 30,"], ["", "2025", "2024"],
                   ["Net cash provided by operating activities", "14,806", "10,392"]])
    assert facts == set()


def test_three_and_nine_months_side_by_side_give_no_fiscal_year() -> None:
    facts = _read([["", "Three Months Ended June 30,", "", "Nine Months Ended June 30,", ""],
                   ["", "2025", "2024", "2025", "2024"], ["Net revenue", "38,412", "33,905", "109,877", "96,430"]])
    assert facts == set()


def test_a_quarterly_reports_own_period_column_is_the_quarter_and_the_year_to_date_is_not() -> None:
    facts = _read([["项目", "本报告期", "本报告期比上年同期增减变动幅度(%)", "年初至报告期末", "年初至报告期末比上年同期增减变动幅度(%)"],
                   ["营业外收入", "2,541,276,830.11", "14.54", "7,068,079,947.53", "14.26"]],
                  heading="华辰电子科技股份有限公司2025年第三季度报告")
    assert facts == {("label:营业外收入", "2025Q3", 2541276830.11)}


def test_the_same_period_a_year_before_is_no_figure_of_the_reports_period() -> None:
    facts = _read([["项目", "本报告期", "上年同期"], ["营业外收入", "4,526,803,117.42", "3,967,524,791.85"]],
                  heading="华辰电子科技股份有限公司2025年第三季度报告")
    assert facts == {("label:营业外收入", "2025Q3", 4526803117.42)}


def test_a_unit_note_of_whole_yuan_or_yen_is_that_currency() -> None:
    assert units_in("单位：元  币种：人民币") == ["CNY"]
    assert units_in("単位：円") == ["JPY"]
    assert units_in("单位：万元") == ["CNY_10K"]


def test_a_quarter_column_the_merged_weeks_heading_does_not_sit_over_is_no_fiscal_year() -> None:
    facts = _read([["", "", "", "16 Weeks"], ["", "", "12 Weeks Ended", "Ended"],
                   ["", "September 29,", "July 7,", "January 20,"], ["", "2019", "2019", "2019"],
                   ["High", "$91.30", "$87.84", "$90.49"], ["Low", "$70.77", "$75.80", "$74.19"]])
    # no fiscal year's figure: each column is read as of its own date (ingestion/table_column_dates.py)
    assert ("label:september 29, 2019: high", "", 91.3) in facts and ("label:july 7, 2019: low", "", 75.8) in facts
    assert {period for _, period, _ in facts} == {""}


def test_a_whole_year_column_beside_quarters_keeps_its_year() -> None:
    facts = _read([["", "Three Months Ended", "Year Ended"], ["", "December 31, 2019", "December 31, 2019"],
                   ["Net revenue", "38,412", "150,877"]])
    assert facts == {("label:net revenue", "2019", 150877)}


def test_years_beside_a_change_on_the_year_before_keep_their_years() -> None:
    facts = _read([["项目", "2024年", "2023年", "本期比上年同期增减(%)"], ["营业外收入", "8,652", "7,318", "18.22"]],
                  heading="华辰电子科技股份有限公司2024年年度报告")
    assert facts == {("label:营业外收入", "2024", 8652), ("label:营业外收入", "2023", 7318)}


def test_a_heading_naming_a_block_of_report_data_qualifies_no_row() -> None:
    facts = _read([["主要会计数据", "2024年", "2023年"], ["归属于上市公司股东的净利润", "736,918", "545,210"]],
                  heading="华辰电子科技股份有限公司2024年年度报告")
    assert facts == {("label:归属于上市公司股东的净利润", "2024", 736918), ("label:归属于上市公司股东的净利润", "2023", 545210)}
    facts = _read([["(in millions)", "2019", "2018"], ["", "Consolidated Balance Sheets Data:", ""],
                   ["Working capital", "$27,756", "$57,035"]])
    assert facts == {("label:working capital", "2019", 27756), ("label:working capital", "2018", 57035)}


def test_quarters_with_their_months_under_a_by_quarter_caption_are_that_years_quarters() -> None:
    facts = _read([["项目", "第一季度（1-3月份）", "第二季度（4-6月份）", "第三季度（7-9月份）", "第四季度（10-12月份）"],
                   ["营业外收入", "1,872", "2,095", "2,218", "2,466"]], heading="二、2024年分季度主要财务数据")
    assert facts == {("label:营业外收入", "2024Q1", 1872), ("label:营业外收入", "2024Q2", 2095),
                     ("label:营业外收入", "2024Q3", 2218), ("label:营业外收入", "2024Q4", 2466)}


def test_quarters_whose_months_are_another_calendars_are_not_read() -> None:
    facts = _read([["项目", "第一季度（4-6月份）", "第二季度（7-9月份）"], ["营业外收入", "1,872", "2,095"]],
                  heading="二、2024年分季度主要财务数据")
    assert facts == set()



def test_a_table_stating_no_period_is_of_the_year_its_reports_title_names() -> None:
    import io

    import docx

    from ragspine.ingestion.facts_extract import extract_facts
    from ragspine.ingestion.parsers.registry import parse_document
    from tests.support.glossary import default_glossary

    document = docx.Document()
    document.add_paragraph("华辰电子科技股份有限公司2024年年度报告（摘录）", style="Title")
    document.add_paragraph("公司全年经营稳健。")
    document.add_heading("（一）主营业务分产品情况", level=1)
    table = document.add_table(rows=2, cols=3)
    for row, values in enumerate([["分产品", "营业外收入", "营业外支出"], ["智能终端模组", "412,356.80", "321,638.30"]]):
        for col, value in enumerate(values):
            table.cell(row, col).text = value
    out = io.BytesIO()
    document.save(out)
    doc = parse_document(out.getvalue(), filename="t.docx", doc_id="t.docx", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00").facts
    assert {(f.period, f.value) for f in facts} == {("2024", 412356.8), ("2024", 321638.3)}


def test_quarters_across_years_down_with_a_full_year_column() -> None:
    facts = _read([["年度", "第一季度", "第二季度", "第三季度", "第四季度", "全年"],
                   ["2024年", "187,240.63", "209,511.85", "221,869.01", "246,613.23", "865,234.72"]],
                  heading="华辰电子 分季度营业收入（单位：万元）")
    assert facts == {("REVENUE", "2024Q1", 187240.63), ("REVENUE", "2024Q2", 209511.85),
                     ("REVENUE", "2024Q3", 221869.01), ("REVENUE", "2024Q4", 246613.23), ("REVENUE", "2024", 865234.72)}


def test_a_restated_column_is_the_years_figure_and_the_one_before_restatement_is_not() -> None:
    facts = _read([["项目", "2024年", "2023年（调整后）", "2023年（调整前）", "本年比上年增减(%)"],
                   ["营业外收入", "865,234.72", "731,890.46", "730,112.05", "18.22"]],
                  heading="华辰电子科技股份有限公司2024年年度报告")
    assert facts == {("label:营业外收入", "2024", 865234.72), ("label:营业外收入", "2023", 731890.46)}


def test_a_second_header_row_inside_the_body_files_its_cells_under_its_own_periods() -> None:
    # GIVEN exchange rates under "FY 2019 | FY 2018" in the third and fourth columns, then a second table
    # whose own header row sets "FY 2019 (%) | FY 2018 (%)" one column to the left
    facts = _read([["Currency", "Weightage (%)", "FY 2019", "FY 2018", "% Change YoY"],
                   ["USD", "53.6", "70.07", "64.49", "8.7"],
                   ["Breakup of revenue growth", "FY 2019 (%)", "FY 2018 (%)", "", ""],
                   ["Business growth", "11.4", "6.7", "", ""],
                   ["Impact of exchange rate", "7.6", "(2.3)", "", ""]])
    # THEN each growth figure is filed under the year its own header names, never under the first table's
    growth = {(period, float(str(value))) for metric, period, value in facts if "exchange rate" in metric}
    assert growth == {("2019", 7.6), ("2018", -2.3)}
    assert {(period, float(str(value))) for metric, period, value in facts if "business growth" in metric} == {
        ("2019", 11.4), ("2018", 6.7)}
