"""The table zoo: the layouts companies use, each with the facts it states, rendered in every table format.

Each ``Specimen`` is a grid as a person would type it, the line written above it (a caption,
a unit note or the sentence before the table) and the facts it states as
``(metric, entity, period, value, unit)``. ``render`` writes it as xlsx, csv, md, docx or
html bytes through the real libraries, so the real parsers read it back.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from datetime import date

import yaml

from ragspine.facts.glossary import Glossary

GLOSSARY = """\
version: zoo-glossary-1
home_entity: MINORI_GROUP
default_channel: TOTAL
fiscal_year: {end_month: 3, named_by: end}
currency: JPY
metrics:
  NET_SALES:
    unit: JPY_B
    additive: true
    names: {en: net sales, zh: 销售额, ja: 売上高}
    aliases: [net sales, sales, 売上高, 销售额, 营业收入]
  OPERATING_INCOME:
    unit: JPY_B
    additive: true
    names: {en: operating income, zh: 营业利润, ja: 営業利益}
    aliases: [operating income, operating profit, 営業利益, 营业利润]
  OPERATING_MARGIN:
    unit: PCT
    names: {en: operating margin, zh: 营业利润率, ja: 営業利益率}
    aliases: [operating margin, 営業利益率, 营业利润率]
entities:
  MINORI_GROUP:
    names: {en: Minori Foods Group, ja: みのり食品グループ}
    aliases: [group, group total, 全社, 集团合计]
  MINORI_WHOLESALE:
    parent: MINORI_GROUP
    names: {en: Wholesale, zh: 批发, ja: 卸売}
    aliases: [wholesale, 卸売, 卸売事業, 批发, 批发业务]
  MINORI_RETAIL:
    parent: MINORI_GROUP
    names: {en: Retail, zh: 零售, ja: 小売}
    aliases: [retail, 小売, 小売事業, 零售, 零售业务]
channels:
  TOTAL:
    names: {en: total}
    aliases: [all channels]
"""


def zoo_glossary() -> Glossary:
    return Glossary.from_mapping(yaml.safe_load(GLOSSARY))


Expected = tuple[str, str, str, float, str]
W, R, G = "MINORI_WHOLESALE", "MINORI_RETAIL", "MINORI_GROUP"
NS, OI, OM = "NET_SALES", "OPERATING_INCOME", "OPERATING_MARGIN"


@dataclass(frozen=True)
class Specimen:
    name: str
    above: str
    rows: tuple[tuple[str, ...], ...]
    facts: frozenset[Expected]
    warns: str = ""  # a fragment some warning must hold (a table read with doubt)
    stated_date: date | None = None  # the date an undated table states, carried on each fact (closing no fiscal year)


# A bare total closing a table without sections is the total of what the sentence before it names.
_PERSONNEL = (("", "FY2024", "FY2025"), ("Wages", "5.0", "5.5"), ("Pension", "1.0", "1.5"), ("Total", "6.0", "7.0"))

SPECIMENS = (
    Specimen("wide", "Wholesale segment (JPY billion)",
             (("Metric", "FY2024", "FY2025"), ("Net sales", "15.2", "16.8"), ("Operating income", "1.4", "1.6")),
             frozenset({(NS, W, "2024", 15.2, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B"),
                        (OI, W, "2024", 1.4, "JPY_B"), (OI, W, "2025", 1.6, "JPY_B")})),
    Specimen("long", "Segment results (JPY billion)",
             (("Segment", "Metric", "FY2024", "FY2025"), ("Wholesale", "Net sales", "15.2", "16.8"),
              ("", "Operating income", "1.4", "1.6"), ("Retail", "Net sales", "9.7", "10.3"),
              ("", "Operating income", "0.8", "0.9")),
             frozenset({(NS, W, "2024", 15.2, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B"),
                        (OI, W, "2024", 1.4, "JPY_B"), (OI, W, "2025", 1.6, "JPY_B"),
                        (NS, R, "2024", 9.7, "JPY_B"), (NS, R, "2025", 10.3, "JPY_B"),
                        (OI, R, "2024", 0.8, "JPY_B"), (OI, R, "2025", 0.9, "JPY_B")})),
    Specimen("tidy", "Unit: JPY billion",
             (("Segment", "Metric", "Period", "Value"), ("Wholesale", "Net sales", "FY2025", "16.8"),
              ("Retail", "Net sales", "FY2025", "10.3"), ("Retail", "Operating income", "FY2024", "0.8")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B"), (NS, R, "2025", 10.3, "JPY_B"),
                        (OI, R, "2024", 0.8, "JPY_B")})),
    Specimen("crosstab", "FY2025 results by segment (JPY billion)",
             (("Segment", "Net sales", "Operating income", "Operating margin"),
              ("Wholesale", "16.8", "1.6", "9.5%"), ("Retail", "10.3", "0.9", "8.7%")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B"), (OI, W, "2025", 1.6, "JPY_B"), (OM, W, "2025", 9.5, "PCT"),
                        (NS, R, "2025", 10.3, "JPY_B"), (OI, R, "2025", 0.9, "JPY_B"),
                        (OM, R, "2025", 8.7, "PCT")})),
    Specimen("transposed", "Retail (JPY billion)",
             (("Period", "Net sales", "Operating income"), ("FY2024", "9.7", "0.8"), ("FY2025", "10.3", "0.9")),
             frozenset({(NS, R, "2024", 9.7, "JPY_B"), (NS, R, "2025", 10.3, "JPY_B"),
                        (OI, R, "2024", 0.8, "JPY_B"), (OI, R, "2025", 0.9, "JPY_B")})),
    Specimen("two_row_header", "Segment results (JPY billion)",
             (("", "FY2024", "", "FY2025", ""), ("Segment", "Net sales", "Operating income", "Net sales",
                                                  "Operating income"),
              ("Wholesale", "15.2", "1.4", "16.8", "1.6"), ("Retail", "9.7", "0.8", "10.3", "0.9")),
             frozenset({(NS, W, "2024", 15.2, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B"),
                        (OI, W, "2024", 1.4, "JPY_B"), (OI, W, "2025", 1.6, "JPY_B"),
                        (NS, R, "2024", 9.7, "JPY_B"), (NS, R, "2025", 10.3, "JPY_B"),
                        (OI, R, "2024", 0.8, "JPY_B"), (OI, R, "2025", 0.9, "JPY_B")})),
    Specimen("ja_million_yen", "卸売事業の業績（単位：百万円）",
             (("項目", "2024年3月期", "2025年3月期"), ("売上高※1", "15,200", "16,800"), ("営業利益", "△120", "1,600")),
             frozenset({(NS, W, "2024", 15200, "JPY_M"), (NS, W, "2025", 16800, "JPY_M"),
                        (OI, W, "2024", -120, "JPY_M"), (OI, W, "2025", 1600, "JPY_M")})),
    Specimen("zh_hundred_million_yuan", "零售业务 单位：亿元",
             (("项目", "2024年", "2025年"), ("营业收入", "9.7", "10.3"), ("营业利润", "(0.2)", "▲0.1")),
             frozenset({(NS, R, "2024", 9.7, "CNY_100M"), (NS, R, "2025", 10.3, "CNY_100M"),
                        (OI, R, "2024", -0.2, "CNY_100M"), (OI, R, "2025", -0.1, "CNY_100M")})),
    Specimen("units_in_headers", "Results for FY2025",
             (("Segment", "Net sales (¥ million)", "Operating income (¥ million)"),
              ("Wholesale", "16,800", "1,600"), ("Retail", "10,300", "900−"), ("Group total", "27,100", "700")),
             frozenset({(NS, W, "2025", 16800, "JPY_M"), (OI, W, "2025", 1600, "JPY_M"),
                        (NS, R, "2025", 10300, "JPY_M"), (OI, R, "2025", -900, "JPY_M"),
                        (NS, G, "2025", 27100, "JPY_M"), (OI, G, "2025", 700, "JPY_M")})),
    # no period anywhere: none is guessed, the facts are undated (period "")
    Specimen("undated", "Group results (JPY billion)",
             (("Segment", "Net sales"), ("Wholesale", "16.8"), ("Retail", "10.3")),
             frozenset({(NS, W, "", 16.8, "JPY_B"), (NS, R, "", 10.3, "JPY_B")}), warns="facts are undated"),
    # an aging schedule: each bucket (and its digits) qualifies the row's label; the Total column is the row's own
    Specimen("aging_schedule_undated", "Trade receivables by age (JPY million)",
             (("", "Current", "1–90 days past due", "Total"), ("Gross carrying amount", "2,400", "310", "2,710"),
              ("Loss allowance", "24", "16", "40")),
             frozenset({("label:current: gross carrying amount", G, "", 2400, "JPY_M"),
                        ("label:1–90 days past due: gross carrying amount", G, "", 310, "JPY_M"),
                        ("label:gross carrying amount", G, "", 2710, "JPY_M"),
                        ("label:current: loss allowance", G, "", 24, "JPY_M"),
                        ("label:1–90 days past due: loss allowance", G, "", 16, "JPY_M"),
                        ("label:loss allowance", G, "", 40, "JPY_M")}), warns="facts are undated"),
    # a fair-value table: the lives (a count of years, no money) stay unread, the amounts are undated facts
    Specimen("fair_value_undated", "Intangible assets acquired (JPY million)",
             (("", "Useful life (in years)", "Fair value amount"), ("Customer relationships", "7.0", "215"),
              ("Trademarks", "5.0", "25")),
             frozenset({("label:fair value amount: customer relationships", G, "", 215, "JPY_M"),
                        ("label:fair value amount: trademarks", G, "", 25, "JPY_M")}),
             warns="column 'Useful life (in years)'"),
    # figures as reported beside an adjustment and a restatement: only the reported ones are the document's own
    Specimen("as_reported_undated", "Effect of the new revenue standard (JPY million)",
             (("", "As reported", "Adjustments", "Without the new standard"), ("Deferred revenue", "2,426", "(194)", "2,232"),
              ("Other assets", "2,251", "(331)", "1,920")),
             frozenset({("label:as reported: deferred revenue", G, "", 2426, "JPY_M"),
                        ("label:as reported: other assets", G, "", 2251, "JPY_M")}),
             warns="column 'Without the new standard'"),
    # a date written once over the table: inside the glossary's year (March) it dates nothing, the facts are undated
    Specimen("lone_inner_date_undated", "Trade receivables by age (JPY million)",
             (("30 September 2025", "Current", "Total"), ("Gross carrying amount", "2,400", "2,710")),
             frozenset({("label:current: gross carrying amount", G, "", 2400, "JPY_M"),
                        ("label:gross carrying amount", G, "", 2710, "JPY_M")}), warns="facts are undated",
             stated_date=date(2025, 9, 30)),
    # ... and at the glossary's year end it is the table's fiscal year
    Specimen("lone_closing_date", "Trade receivables by age (JPY million)",
             (("31 March 2025", "Current", "Total"), ("Gross carrying amount", "2,400", "2,710")),
             frozenset({("label:current: gross carrying amount", G, "2025", 2400, "JPY_M"),
                        ("label:gross carrying amount", G, "2025", 2710, "JPY_M")})),
    # a mid-year date spanning every column, over figures as reported and their adjustments
    Specimen("date_over_columns_undated", "Effect of the new revenue standard (JPY million)",
             (("", "As of September 30, 2025", ""), ("", "As reported", "Adjustments"), ("Deferred revenue", "2,426", "(194)")),
             frozenset({("label:as reported: deferred revenue", G, "", 2426, "JPY_M")}), warns="Adjustments'",
             stated_date=date(2025, 9, 30)),
    # dates on rows of their own between two blocks date the rows below them: never undated, though no column is
    # dated; dates the glossary's calendar does not close, one year apart, are the years they write, as such columns
    Specimen("dates_between_blocks_read_as_written", "Intangible assets (JPY million)",
             (("", "Gross amount", "Net"), ("30 September 2025", "", ""), ("Indefinite-lived", "", ""),
              ("Trademarks", "25", "20"), ("30 September 2024", "", ""), ("Indefinite-lived", "", ""),
              ("Trademarks", "25", "18")),
             frozenset({("label:gross amount: indefinite-lived: trademarks", G, "2025", 25, "JPY_M"),
                        ("label:net: indefinite-lived: trademarks", G, "2025", 20, "JPY_M"),
                        ("label:gross amount: indefinite-lived: trademarks", G, "2024", 25, "JPY_M"),
                        ("label:net: indefinite-lived: trademarks", G, "2024", 18, "JPY_M")})),
    # quarters broken over two header rows under the year written once over them; the Total column is the year's
    Specimen("quarters_on_two_rows", "Wholesale quarterly results (JPY billion)",
             (("", "", "Fiscal 2025", "", "", ""), ("", "First", "Second", "Third", "Fourth", ""),
              ("", "Quarter", "Quarter", "Quarter", "Quarter", "Total"), ("Net sales", "4.1", "4.2", "4.0", "4.5", "16.8")),
             frozenset({(NS, W, "2025Q1", 4.1, "JPY_B"), (NS, W, "2025Q2", 4.2, "JPY_B"), (NS, W, "2025Q3", 4.0, "JPY_B"),
                        (NS, W, "2025Q4", 4.5, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B")})),
    # a glossary row split by columns naming its parts, with no period: its total alone would answer a question
    # naming a part, so the row gives nothing
    Specimen("parts_of_a_glossary_row_undated", "Net sales by customer tenure (JPY billion)",
             (("", "New customers", "Returning customers", "Total"), ("Net sales", "3.0", "12.0", "15.0")),
             frozenset(), warns="cannot carry"),
    # sub-columns under each year qualify the rows of the document's own labels; they never name the year
    Specimen("sub_columns_under_years", "Headcount of the wholesale segment",
             (("", "FY2025", "", "FY2024", ""), ("", "Men", "Women", "Men", "Women"), ("Employees", "120", "80", "110", "75")),
             frozenset({("label:men: employees", W, "2025", 120, ""), ("label:women: employees", W, "2025", 80, ""),
                        ("label:men: employees", W, "2024", 110, ""), ("label:women: employees", W, "2024", 75, "")})),
    # a change column beside the two years is no figure of either year
    Specimen("change_beside_years", "Wholesale (JPY billion)",
             (("", "FY2025", "FY2024", "% CHANGE"), ("Net sales", "16.8", "15.2", "10.5")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B"), (NS, W, "2024", 15.2, "JPY_B")}), warns="'% CHANGE'"),
    # a period word in a header the reader cannot date ("Year 3") is not "no period": nothing is read
    Specimen("unread_period_is_not_undated", "Intangible assets acquired (JPY million)",
             (("", "Year 3", "Year 4"), ("Customer relationships", "215", "230")),
             frozenset(), warns="no period"),
    Specimen("ja_period_in_sentence", "卸売事業の2025年3月期の主要項目を以下に示す。",
             (("項目", "金額(百万円)"), ("売上高", "16,800"), ("営業利益", "1,600")),
             frozenset({(NS, W, "2025", 16800, "JPY_M"), (OI, W, "2025", 1600, "JPY_M")})),
    Specimen("ten_k_style", "Minori Foods Group consolidated statements of income",
             (("(in millions, except per share data)", "Years Ended March 31,", ""), ("", "2025", "2024"),
              ("Net sales", "27,100", "24,900"), ("Operating income", "(300)", "2,200")),
             # a scale with no currency stated anywhere is the scale alone: the domain's yen is never assumed
             frozenset({(NS, G, "2025", 27100, "M"), (NS, G, "2024", 24900, "M"),
                        (OI, G, "2025", -300, "M"), (OI, G, "2024", 2200, "M")})),
    Specimen("ten_k_style_dollar_cells", "Minori Foods Group consolidated statements of income",
             (("(in millions, except per share data)", "Years Ended March 31,", ""), ("", "2025", "2024"),
              ("Net sales", "$ 27,100", "$ 24,900"), ("Operating income", "($300)", "$2,200")),
             # the currency the cells state goes with the caption's scale; "($300)" is -300
             frozenset({(NS, G, "2025", 27100, "USD_M"), (NS, G, "2024", 24900, "USD_M"),
                        (OI, G, "2025", -300, "USD_M"), (OI, G, "2024", 2200, "USD_M")})),
    Specimen("half_year_is_no_fiscal_year", "Segment results, January–June 2025 (JPY billion)",
             (("Segment", "Net sales"), ("Wholesale", "8.1"), ("Retail", "5.0")),
             frozenset(), warns="no period"),
    Specimen("bare_year_in_title_is_no_fiscal_year", "Segment results 30 06 2025 (JPY billion)",
             (("Segment", "Net sales"), ("Wholesale", "8.1"), ("Retail", "5.0")),
             frozenset(), warns="no period"),
    Specimen("home_entity_assumed", "Key figures (JPY billion)",
             (("Metric", "FY2025"), ("Net sales", "27.1")),
             frozenset({(NS, G, "2025", 27.1, "JPY_B")}), warns="assumed MINORI_GROUP"),
    Specimen("another_company", "キリンホールディングスの2025年3月期の主要項目（単位：十億円）",
             (("項目", "金額"), ("売上高", "2,134")),
             frozenset({(NS, "company:キリンホールディングス", "2025", 2134, "JPY_B")}),
             warns="filed under company:キリンホールディングス"),
    Specimen("unknown_column", "Wholesale (JPY billion)",
             (("Metric", "FY2025", "FY2025 plan"), ("Net sales", "16.8", "17.0")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B")}), warns="column 'FY2025 plan'"),
    Specimen("adversarial_caption", "Segment net sales (JPY billion)",
             (("Segment", "Metric", "FY2024", "FY2025"), ("Wholesale", "Operating income", "16.1", "1.6"),
              ("", "Net sales", "15.2", "16.8"), ("Retail", "EBITDA", "1.1", "1.2")),
             frozenset({(OI, W, "2024", 16.1, "JPY_B"), (OI, W, "2025", 1.6, "JPY_B"),
                        (NS, W, "2024", 15.2, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B"),
                        # a label the glossary does not name is a metric of its own, in no unit the caption
                        # gives net sales
                        ("label:ebitda", R, "2024", 1.1, ""), ("label:ebitda", R, "2025", 1.2, "")})),
    Specimen("doubt", "Wholesale (JPY billion)",
             (("Name", "Plan", "Actual"), ("Alpha", "1.0", "2.0"), ("Beta", "3.0", "4.0")),
             frozenset(), warns="table skipped"),
    Specimen("totals", "FY2025 net sales by segment (JPY billion)",
             (("Segment", "Net sales"), ("Wholesale", "16.8"), ("Retail", "10.3"), ("Group total", "30.0")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B"), (NS, R, "2025", 10.3, "JPY_B"),
                        (NS, G, "2025", 30.0, "JPY_B")}),
             warns="the parts sum to 27.1 but the table states 30.0"),
    Specimen("grand_total_of_the_sentence_before", "Personnel expenses were as follows (JPY billion):", _PERSONNEL,
             frozenset({("label:wages", G, "2024", 5.0, "JPY_B"), ("label:wages", G, "2025", 5.5, "JPY_B"),
                        ("label:pension", G, "2024", 1.0, "JPY_B"), ("label:pension", G, "2025", 1.5, "JPY_B"),
                        ("label:total personnel expenses", G, "2024", 6.0, "JPY_B"),
                        ("label:total personnel expenses", G, "2025", 7.0, "JPY_B")})),
    Specimen("ja_grand_total_of_the_sentence_before", "人件費の内訳は次のとおりです（単位：十億円）。",
             (("項目", "2024年3月期", "2025年3月期"), ("給与", "5.0", "5.5"), ("退職給付費用", "1.0", "1.5"),
              ("合計", "6.0", "7.0")),
             frozenset({("label:給与", G, "2024", 5.0, "JPY_B"), ("label:給与", G, "2025", 5.5, "JPY_B"),
                        ("label:退職給付費用", G, "2024", 1.0, "JPY_B"), ("label:退職給付費用", G, "2025", 1.5, "JPY_B"),
                        ("label:人件費合計", G, "2024", 6.0, "JPY_B"), ("label:人件費合計", G, "2025", 7.0, "JPY_B")})),
    # the period in a caption as a year ended on a date, beside other words
    Specimen("caption_year_ended", "Minori Foods - net sales by segment, fiscal year ended March 31, 2025",
             (("Segment", "Net sales (JPY billion)"), ("Wholesale", "16.8"), ("Retail", "10.3")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B"), (NS, R, "2025", 10.3, "JPY_B")})),
    # a Japanese balance date closing the fiscal year heads its column
    Specimen("ja_balance_dates", "卸売事業の主要項目（単位：十億円）",
             (("項目", "2024年3月31日", "2025年3月31日"), ("売上高", "15.2", "16.8")),
             frozenset({(NS, W, "2024", 15.2, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B")})),
    # a Chinese header running the period into the figure's name, the unit in 亿 of yen
    Specimen("zh_period_run_into_the_metric", "单位：亿日元",
             (("分部", "2025财年营业收入"), ("批发", "168.0"), ("零售", "103.0")),
             frozenset({(NS, W, "2025", 168.0, "JPY_100M"), (NS, R, "2025", 103.0, "JPY_100M")})),
    # sub-columns under each year, a measure word written over every column below them
    Specimen("sub_columns_over_a_measure_word", "Average tenure of the wholesale segment's staff",
             (("", "FY2025", "", "FY2024", ""), ("", "Men", "Women", "Men", "Women"),
              ("", "Years", "Years", "Years", "Years"), ("Employees", "12.5", "11.0", "12.1", "10.8")),
             frozenset({("label:men: employees", W, "2025", 12.5, ""), ("label:women: employees", W, "2025", 11.0, ""),
                        ("label:men: employees", W, "2024", 12.1, ""), ("label:women: employees", W, "2024", 10.8, "")})),
    # a payment schedule set down the rows: the years say when amounts fall due, no fiscal year's figures
    Specimen("schedule_down_the_rows", "Wholesale lease commitments (JPY billion)",
             (("", "Store leases", "Vehicle leases"), ("2026", "3.0", "0.4"), ("2027", "2.5", "0.3"),
              ("Thereafter", "6.0", "0.5")),
             frozenset({("label:2026: store leases", W, "", 3.0, "JPY_B"), ("label:2026: vehicle leases", W, "", 0.4, "JPY_B"),
                        ("label:2027: store leases", W, "", 2.5, "JPY_B"), ("label:2027: vehicle leases", W, "", 0.3, "JPY_B"),
                        ("label:thereafter: store leases", W, "", 6.0, "JPY_B"),
                        ("label:thereafter: vehicle leases", W, "", 0.5, "JPY_B")}),
             warns="its facts are undated"),
    # fiscal years down the rows, bare quarters across: each cell that quarter of its row's year, the metric the caption's
    Specimen("quarters_beside_year_rows", "Quarterly net sales of the wholesale segment (JPY billion)",
             (("Fiscal year", "Q1", "Q2", "Q3", "Q4"), ("FY2024", "3.6", "3.8", "3.9", "3.9"),
              ("FY2025", "4.1", "4.2", "4.0", "4.5")),
             frozenset({(NS, W, "2024Q1", 3.6, "JPY_B"), (NS, W, "2024Q2", 3.8, "JPY_B"), (NS, W, "2024Q3", 3.9, "JPY_B"),
                        (NS, W, "2024Q4", 3.9, "JPY_B"), (NS, W, "2025Q1", 4.1, "JPY_B"), (NS, W, "2025Q2", 4.2, "JPY_B"),
                        (NS, W, "2025Q3", 4.0, "JPY_B"), (NS, W, "2025Q4", 4.5, "JPY_B")})),
    # a row counting people under a money caption: its own note says so, and it never takes the caption's money
    Specimen("count_row_under_a_money_caption", "Wholesale segment (¥ billion)",
             (("", "FY2024", "FY2025"), ("Net sales", "15.2", "16.8"), ("Employees (persons)", "1,200", "1,250")),
             frozenset({(NS, W, "2024", 15.2, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B"),
                        ("label:employees (persons)", W, "2024", 1200, ""),
                        ("label:employees (persons)", W, "2025", 1250, "")})),
    # the unit note leaves a row out of its unit
    Specimen("unit_note_except_a_row", "Segment data (unit: JPY billion, except employees)",
             (("Segment", "Metric", "FY2024", "FY2025"), ("Wholesale", "Net sales", "15.2", "16.8"),
              ("", "Employees", "1,200", "1,250")),
             frozenset({(NS, W, "2024", 15.2, "JPY_B"), (NS, W, "2025", 16.8, "JPY_B"),
                        ("label:employees", W, "2024", 1200, ""), ("label:employees", W, "2025", 1250, "")})),
    # a forecast column with its word in brackets is never the year's stated figure
    Specimen("forecast_in_brackets", "Wholesale (JPY billion)",
             (("", "FY2025", "FY2026 (forecast)"), ("Net sales", "16.8", "18.0")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B")}), warns="'FY2026 (forecast)'"),
    Specimen("ja_forecast_in_brackets", "卸売事業（単位：十億円）",
             (("項目", "2025年3月期", "2026年3月期（予想）"), ("売上高", "16.8", "18.0")),
             frozenset({(NS, W, "2025", 16.8, "JPY_B")}), warns="2026年3月期（予想）"),
    # quarters written whole (Q1, 第1四半期) under the year its caption states
    Specimen("bare_quarters_under_a_caption_year", "FY2025 quarterly net sales by segment (JPY billion)",
             (("Segment", "Q1", "Q2", "Q3", "Q4"), ("Wholesale", "4.1", "4.2", "4.0", "4.5")),
             frozenset({(NS, W, "2025Q1", 4.1, "JPY_B"), (NS, W, "2025Q2", 4.2, "JPY_B"), (NS, W, "2025Q3", 4.0, "JPY_B"),
                        (NS, W, "2025Q4", 4.5, "JPY_B")})),
    Specimen("ja_bare_quarters_under_a_caption_year", "2025年3月期 セグメント別売上高（単位：十億円）",
             (("セグメント", "第1四半期", "第2四半期"), ("卸売", "4.1", "4.2")),
             frozenset({(NS, W, "2025Q1", 4.1, "JPY_B"), (NS, W, "2025Q2", 4.2, "JPY_B")})),
    # a common-size statement: "%" written on a column's first (100 %) and last figures, the shares between bare
    Specimen("common_size_statement", "Wholesale results as a share of sales",
             (("", "FY2024", "FY2025"), ("Net sales", "100.0 %", "100.0 %"), ("Gross profit", "48.1", "50.9"),
              ("Selling expenses", "38.9", "41.4"), ("Operating margin", "9.2 %", "9.5 %")),
             frozenset({("label:gross profit", W, "2024", 48.1, "PCT"), ("label:gross profit", W, "2025", 50.9, "PCT"),
                        ("label:selling expenses", W, "2024", 38.9, "PCT"),
                        ("label:selling expenses", W, "2025", 41.4, "PCT"),
                        (OM, W, "2024", 9.2, "PCT"), (OM, W, "2025", 9.5, "PCT")}),
             warns="a percentage for NET_SALES"),
    Specimen("grand_total_the_sentence_before_does_not_name", "Amounts were as follows (JPY billion):", _PERSONNEL,
             frozenset({("label:wages", G, "2024", 5.0, "JPY_B"), ("label:wages", G, "2025", 5.5, "JPY_B"),
                        ("label:pension", G, "2024", 1.0, "JPY_B"), ("label:pension", G, "2025", 1.5, "JPY_B")}),
             warns="row 'Total': a total of no section"),
)
FORMATS = ("xlsx", "csv", "md", "docx", "html", "pptx")


def render(specimen: Specimen, fmt: str) -> bytes:
    """The specimen as a file of format ``fmt``, the line above it written the way that format writes one."""
    if fmt == "xlsx":
        return _xlsx(specimen)
    if fmt == "csv":
        import csv

        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([specimen.above])
        writer.writerows(specimen.rows)
        return out.getvalue().encode()
    if fmt == "md":
        head, *body = specimen.rows
        lines = ["# Zoo", "", specimen.above, "", "| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines).encode()
    if fmt == "docx":
        return _docx(specimen)
    if fmt == "pptx":
        return _pptx(specimen)
    if fmt == "html":
        rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in specimen.rows)
        return (f"<html><body><h1>Zoo</h1><p>{html.escape(specimen.above)}</p>"
                f"<table>{rows}</table></body></html>").encode()
    raise ValueError(fmt)


def _xlsx(specimen: Specimen) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Zoo"
    sheet["B2"] = specimen.above  # a title row, then the table from row 4 and column B
    for r, row in enumerate(specimen.rows, start=4):
        for c, text in enumerate(row, start=2):
            if text:
                sheet.cell(row=r, column=c, value=text)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _docx(specimen: Specimen) -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("Zoo", level=1)
    document.add_paragraph(specimen.above)
    table = document.add_table(rows=len(specimen.rows), cols=len(specimen.rows[0]))
    for r, row in enumerate(specimen.rows):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _pptx(specimen: Specimen) -> bytes:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])  # "Title Only": the line above is the slide title
    assert slide.shapes.title is not None
    slide.shapes.title.text = specimen.above
    rows, cols = len(specimen.rows), len(specimen.rows[0])
    table = slide.shapes.add_table(rows, cols, Inches(0.5), Inches(1.5), Inches(9), Inches(0.4 * rows)).table
    for r, row in enumerate(specimen.rows):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()
