"""A row labelled ``Total`` alone is the total of what its rows are, never a channel row without a metric."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers.registry import parse_document
from ragspine.ingestion.table_totals import states_the_sum
from tests.support.glossary import default_glossary
from tests.support.markdown_facts import markdown_table_facts


def _by_metric(facts: list[Fact], period: str) -> dict[str, tuple[float, str]]:
    return {f.metric_code: (f.value, f.source_locator) for f in facts if f.period == period}


@pytest.mark.parametrize("word", ["Total", "TOTAL", "Total:", "total", "Grand total", "Totals", "Total ."])
def test_a_total_row_under_a_section_heading_is_the_sections_total(word: str) -> None:
    rows = [["(in millions)", "2019", "2018"], ["Purchased services:", "", ""], ["Consulting", "120", "100"],
            ["Hosting", "80", "60"], [word, "200", "160"], ["Legal claims", "7", "9"]]

    facts = _by_metric(markdown_table_facts(rows, "Annual report excerpt"), "2019")

    [(value, locator)] = [v for metric, v in facts.items() if metric.endswith(" purchased services")]
    assert value == 200 and f"row=Purchased services: {word.rstrip(':.').strip()}" in locator and "col=2019" in locator
    assert facts["label:purchased services: consulting"][0] == 120
    # the total closes its section: the next row is read as written
    assert facts["label:legal claims"][0] == 7
    assert not any(f.metric_code == "label:total" for f in markdown_table_facts(rows, "Annual report excerpt"))


def test_a_total_row_under_a_heading_over_the_label_column_totals_that_heading() -> None:
    rows = [["Purchased services", "2019", "2018"], ["Consulting", "120", "100"], ["Hosting", "80", "60"],
            ["Total", "200", "160"]]

    facts = _by_metric(markdown_table_facts(rows, "Annual report excerpt"), "2018")

    assert facts["label:total purchased services"][0] == 160


def test_a_total_row_under_a_column_naming_the_kind_of_figure_totals_that_kind() -> None:
    rows = [["", "Fiscal Year 2018", "", "Fiscal Year 2017", ""],
            ["", "Net Bookings", "% of Total", "Net Bookings", "% of Total"],
            ["APAC", "$479,987", "40.0%", "$288,764", "38.1%"], ["EMEA", "277,898", "23.1%", "237,437", "31.4%"],
            ["Total", "$ 757,885", "", "$ 526,201", ""]]

    facts = _by_metric(markdown_table_facts(rows, "Annual report excerpt"), "2017")

    assert facts["label:total net bookings"][0] == 526201
    assert facts["label:net bookings: apac"][0] == 288764


def test_a_glossary_section_gives_its_total_the_sections_words() -> None:
    rows = [["(in millions)", "2019", "2018"], ["Revenue:", "", ""], ["Hardware", "120", "100"],
            ["Services", "80", "60"], ["Total", "200", "160"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    totals = [f for f in facts if f.period == "2019" and f.value == 200]
    assert [f.metric_code for f in totals] == ["label:total revenue"]
    assert not any(f.metric_code == "REVENUE" and f.value in (120, 80) for f in facts)  # the parts are no revenue


def test_a_total_row_without_a_subject_gives_no_fact_and_says_why() -> None:
    text = ("# Annual report excerpt\n\n| | 2019 | 2018 |\n| --- | --- | --- |\n| Consulting | 120 | 100 |\n"
            "| Hosting | 80 | 60 |\n| Total | 200 | 160 |\n")
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)

    result = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")

    assert not any(f.value in (200, 160) for f in result.facts)
    assert {f.metric_code for f in result.facts} == {"label:consulting", "label:hosting"}
    assert any("row 'Total': a total of no section" in w for w in result.warnings)


def test_a_total_of_channel_rows_stays_the_total_channel() -> None:
    rows = [["Revenue", "FY2024", "FY2025"], ["Online", "300", "350"], ["Offline", "700", "650"],
            ["Total", "1,000", "1,000"]]

    facts = [f for f in markdown_table_facts(rows, "ACME Japan revenue by channel") if f.period == "2025"]

    assert {(f.channel, f.value) for f in facts if f.metric_code == "REVENUE"} == {
        ("ONLINE", 350), ("OFFLINE", 650), ("TOTAL", 1000)}


def test_a_japanese_total_row_is_written_after_its_section() -> None:
    rows = [["項目", "2024年", "2025年"], ["流動負債", "", ""], ["買掛金", "120", "130"],
            ["未払金", "30", "20"], ["合計", "150", "150"]]

    facts = _by_metric(markdown_table_facts(rows, "連結貸借対照表（単位：百万円）"), "2025")

    value, locator = facts["label:流動負債合計"]
    assert value == 150 and "row=流動負債: 合計" in locator


def test_a_bare_total_after_the_sections_own_total_is_not_that_sections_total() -> None:
    rows = [["(in millions)", "2019", "2018"], ["Purchased services:", "", ""], ["Consulting", "120", "100"],
            ["Hosting", "80", "60"], ["Total purchased services", "200", "160"], ["Legal claims", "7", "9"],
            ["Total", "207", "169"]]

    facts = _by_metric(markdown_table_facts(rows, "Annual report excerpt"), "2019")

    assert facts["label:total purchased services"][0] == 200  # stated once: the bare total is not a second one
    assert not any(value == 207 for value, _ in facts.values())


def test_a_grand_total_after_the_last_section_is_not_that_sections_total() -> None:
    # Without indentation the last section seems to run to the end: its rows do not sum to the total, so it is not
    # theirs; it sums every line item above it, so it is the total of the fees both sections' headings name.
    rows = [["", "2019", "2018"], ["Audit fees", "", ""], ["Statutory audit", "4,105,000", "4,556,500"],
            ["Audit-related fees", "209,005", "173,934"], ["Non-audit fees", "", ""], ["Tax fees", "—", "—"],
            ["All other fees", "—", "—"], ["Total", "4,314,005", "4,730,434"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    assert not any(f.value in (4314005, 4730434) and "non-audit" in f.metric_code for f in facts)
    assert {f.value for f in facts if f.metric_code == "label:total fees"} == {4314005, 4730434}
    assert {f.value for f in facts if f.metric_code == "label:audit fees: statutory audit"} == {4105000, 4556500}


def test_a_total_row_that_is_not_the_sum_of_its_rows_under_a_column_kind_gives_no_fact() -> None:
    rows = [["", "Fiscal Year 2018"], ["", "Net Bookings"], ["APAC", "$479,987"], ["EMEA", "277,898"],
            ["Total", "$ 900,000"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    assert {f.metric_code for f in facts} == {"label:net bookings: apac", "label:net bookings: emea"}


def test_a_total_under_headers_repeated_inside_the_body_is_its_own_blocks_total() -> None:
    rows = [["", "As of December 31, 2019", ""], ["", "Amortized Cost", "Fair Value"],
            ["Foreign bonds", "$129,499", "$126,066"], ["Treasuries", "99,700", "97,719"], ["Total .", "$229,199", "$223,785"],
            ["", "As of December 31, 2018", ""], ["", "Amortized Cost", "Fair Value"],
            ["Foreign bonds", "$73,798", "$87,797"], ["Treasuries", "97,223", "91,203"], ["Total", "$171,021", "$179,000"]]

    facts = markdown_table_facts(rows, "Annual report excerpt")

    # the second block is read under its own headers: 2018's figures are never filed as 2019's
    assert {f.period for f in facts if f.value in (171021, 179000, 73798, 97223)} == {"2018"}
    assert {f.metric_code for f in facts if f.value == 171021} == {"label:total amortized cost"}


@given(st.lists(st.integers(min_value=-10**7, max_value=10**7), min_size=1, max_size=6), st.integers(0, 2),
       st.integers(min_value=1, max_value=10**6))
def test_a_total_states_the_sum_of_its_rows_as_written_and_nothing_else(cents: list[int], places: int,
                                                                       off: int) -> None:
    def written(units: int) -> str:
        text = f"{abs(units) / 10 ** places:,.{places}f}"
        return f"({text})" if units < 0 else text

    parts = [["Item", written(v)] for v in cents]
    right = [*parts, ["Total", written(sum(cents))]]
    wrong = [*parts, ["Total", written(sum(cents) + len(cents) + off)]]  # beyond half a unit per part

    assert states_the_sum(right, len(parts), range(len(parts)), [1])
    assert not states_the_sum(wrong, len(parts), range(len(parts)), [1])
    assert not states_the_sum([*parts, ["Total", "100%"]], len(parts), range(len(parts)), [1])


def _facts_after(lead: str, rows: list[list[str]], heading: str = "Annual report excerpt") -> tuple[list[Fact], tuple[str, ...]]:
    """The facts and warnings of ``rows`` set under ``# heading`` after the paragraph ``lead``."""
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    text = f"# {heading}\n\n{lead}\n\n" + "\n".join(lines) + "\n"
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)
    result = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")
    return list(result.facts), tuple(result.warnings)


PERSONNEL = [["", "2019", "2018"], ["Wages and salaries", "191,459", "158,371"], ["Social security", "17,214", "14,802"],
             ["Pension expenses", "8,408", "6,937"], ["Total", "217,081", "180,110"]]


@pytest.mark.parametrize(("lead", "metric"), [
    ("Personnel expenses for employees were as follows:", "label:total personnel expenses"),
    ("Accrued liabilities at April 30, 2019 and 2018, respectively, consisted of the following (in thousands):",
     "label:total accrued liabilities"),
    ("The following table summarizes warrants outstanding (in thousands):", "label:total warrants outstanding"),
    ("The following is a summary of the costs incurred in connection with these activities during each fiscal year:",
     "label:total costs incurred"),
    ("In 2019 we sold a plant. Our revenue by geography was as follows:", "label:total revenue by geography"),
    ("The components of earnings before income taxes were:", "label:total earnings before income taxes"),
    # a roll-forward of a figure: its activity's balances are that figure
    ("Personnel expenses activity for each period was as follows:", "label:total personnel expenses"),
    # "information" says what the table gives of the figures, "by" how its rows split them
    ("The following table presents personnel expenses information by country for the years ended December 31:",
     "label:total personnel expenses by country"),
])
def test_a_bare_total_of_a_table_without_sections_totals_what_the_sentence_before_names(lead: str, metric: str) -> None:
    facts, _ = _facts_after(lead, PERSONNEL)

    totals = {f.period: (f.metric_code, f.value, f.source_locator) for f in facts if f.value in (217081, 180110)}
    assert totals == {"2019": (metric, 217081, "table=1,row=Total,col=2019"),
                      "2018": (metric, 180110, "table=1,row=Total,col=2018")}


def test_a_bare_total_takes_the_heading_right_over_its_table() -> None:
    facts, _ = _facts_after("", PERSONNEL, heading="10. Accrued Liabilities (in thousands)")

    assert {f.value for f in facts if f.metric_code == "label:total accrued liabilities"} == {217081, 180110}


def test_a_heading_with_a_sentence_between_it_and_the_table_names_no_total() -> None:
    # a note's heading sits over tables of its parts: "Income taxes" is not what "Total" here sums
    facts, warnings = _facts_after("Amounts by jurisdiction are unaudited.", PERSONNEL, heading="Note 6 – Income Taxes")

    assert not any(f.value in (217081, 180110) for f in facts)
    assert any("row 'Total': a total of no section" in w for w in warnings)


def test_a_subject_stating_its_total_word_is_not_given_a_second_one() -> None:
    facts, _ = _facts_after("", PERSONNEL, heading="Total costs and expenses")

    assert {f.value for f in facts if f.metric_code == "label:total costs and expenses"} == {217081, 180110}


def test_a_japanese_bare_total_takes_the_sentence_befores_subject() -> None:
    rows = [["項目", "2024年", "2025年"], ["給与", "120", "130"], ["法定福利費", "30", "20"], ["合計", "150", "150"]]

    facts, _ = _facts_after("人件費の内訳は次のとおりです（単位：百万円）。", rows, heading="連結財務諸表")

    assert {(f.period, f.value) for f in facts if f.metric_code == "label:人件費合計"} == {("2024", 150), ("2025", 150)}


@pytest.mark.parametrize(("lead", "metric"), [
    ("Operating income included the following:", "label:total included in operating income"),
    ("The segment's operating income includes the following (in millions):",
     "label:total included in segment's operating income"),
])
def test_a_bare_total_of_rows_a_figure_includes_is_named_as_included_in_it(lead: str, metric: str) -> None:
    """The rows are parts of the figure, never all of it: their total is no operating income."""
    facts, _ = _facts_after(lead, PERSONNEL)

    assert {(f.metric_code, f.value) for f in facts if f.value in (217081, 180110)} == {
        (metric, 217081), (metric, 180110)}


@pytest.mark.parametrize("lead", [
    "Our consolidated statements of operations included the following:",  # a statement holds whole figures
    "The amounts were as follows:",  # names no figure
    "Activity for each period was as follows:",  # the activity of no figure named
    "Notes to the consolidated financial statements",
    "Dow Corning Corporation was as follows:",  # another company, not a figure
])
def test_a_bare_total_whose_table_names_no_figure_gives_no_fact_and_says_why(lead: str) -> None:
    facts, warnings = _facts_after(lead, PERSONNEL)

    assert not any(f.value in (217081, 180110) for f in facts)
    assert any("row 'Total': a total of no section" in w for w in warnings)


def test_a_bare_total_that_does_not_sum_its_rows_gives_no_fact_even_with_a_subject() -> None:
    rows = [*PERSONNEL[:-1], ["Total", "227,727", "188,503"]]  # other rows left out of the table

    facts, warnings = _facts_after("Personnel expenses for employees were as follows:", rows)

    assert not any(f.value in (227727, 188503) for f in facts)
    assert any("row 'Total': a total of no section" in w for w in warnings)


def test_a_grand_total_after_the_last_section_is_filed_under_the_tables_subject_never_the_section() -> None:
    rows = [["", "2019", "2018"], ["Audit fees", "", ""], ["Statutory audit", "4,105,000", "4,556,500"],
            ["Audit-related fees", "209,005", "173,934"], ["Non-audit fees", "", ""], ["Tax fees", "—", "—"],
            ["All other fees", "—", "—"], ["Total", "4,314,005", "4,730,434"]]

    facts, _ = _facts_after("Fees billed by the auditors were as follows:", rows)

    assert {f.metric_code for f in facts if f.value in (4314005, 4730434)} == {"label:total fees billed by the auditors"}


def test_a_pdf_pages_table_takes_no_subject_from_a_heading_paragraphs_above_it() -> None:
    # As the PDF reader gives a page: the heading "Industrial Revenue Bonds" stands over paragraphs, then a sentence
    # naming short-term debt, then the table; the table's context carries no sentence, so the heading names nothing.
    heading = ("Notes to the financial statements", "Industrial Revenue Bonds")
    rows = tuple(tuple(row) for row in PERSONNEL)
    doc = ParsedDocument("d.pdf", "", "application/pdf", (
        Block(BlockKind.PARAGRAPH, "Short-term debt at December 31 consisted of the following:", "page=9,para=1",
              heading_path=heading),
        Block(BlockKind.PARAGRAPH, "", "page=9,table=1", heading_path=heading, rows=rows)))

    result = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")

    assert not any(f.value in (217081, 180110) for f in result.facts)
    assert {f.value for f in result.facts if f.metric_code == "label:wages and salaries"} == {191459, 158371}


def _facts_before(rows: list[list[str]], after: str, then: str = "") -> tuple[list[Fact], tuple[str, ...]]:
    """The facts and warnings of ``rows`` set first under its heading, the text ``after`` below it, then ``then``."""
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    text = "# Annual report excerpt\n\n" + "\n".join(lines) + f"\n\n{after}\n\n{then}\n"
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)
    result = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00")
    return list(result.facts), tuple(result.warnings)


@pytest.mark.parametrize(("after", "metric"), [
    ("Personnel expenses for employees were as follows:\nPersonnel expenses are part of operating expenses.",
     "label:total personnel expenses"),
    # the heading the extract lists first, then the sentence that led into the table
    ("12. Accrued Liabilities\nAccrued liabilities at June 30 consisted of the following (in thousands):",
     "label:total accrued liabilities"),
])
def test_a_bare_total_takes_the_subject_of_a_leading_sentence_set_after_its_table(after: str, metric: str) -> None:
    # A sentence pointing forward with no table after it leads no other table: it is this table's, displaced.
    facts, _ = _facts_before(PERSONNEL, after)

    assert {(f.period, f.value, f.source_locator) for f in facts if f.metric_code == metric} == {
        ("2019", 217081, "table=1,row=Total,col=2019"), ("2018", 180110, "table=1,row=Total,col=2018")}


def test_a_japanese_bare_total_takes_the_subject_of_a_leading_sentence_set_after_its_table() -> None:
    rows = [["項目", "2024年", "2025年"], ["給与", "120", "130"], ["法定福利費", "30", "20"], ["合計", "150", "150"]]

    facts, _ = _facts_before(rows, "人件費の内訳は次のとおりです（単位：百万円）。")

    assert {(f.period, f.value) for f in facts if f.metric_code == "label:人件費合計"} == {("2024", 150), ("2025", 150)}


def test_a_leading_sentence_between_two_tables_leads_the_second_only() -> None:
    second = "\n".join(["|  | 2019 | 2018 |", "| --- | --- | --- |", "| Rent | 40 | 30 |", "| Repairs | 2 | 1 |",
                        "| Total | 42 | 31 |"])

    facts, _ = _facts_before(PERSONNEL, "Occupancy costs were as follows:", second)

    assert not any(f.value in (217081, 180110) for f in facts)
    assert {f.value for f in facts if f.metric_code == "label:total occupancy costs"} == {42, 31}


def test_an_unlabelled_last_row_summing_the_table_is_the_total_of_what_its_sentence_names() -> None:
    rows = [*PERSONNEL[:-1], ["", "$217,081", "$180,110"]]

    facts, _ = _facts_before(rows, "The following is a summary of the personnel expenses for each year:")

    assert {(f.period, f.value) for f in facts if f.metric_code == "label:total personnel expenses"} == {
        ("2019", 217081), ("2018", 180110)}


@pytest.mark.parametrize("rows", [
    [*PERSONNEL[:-1], ["", "217,000", "180,110"]],  # not the sum of the rows above it
    [*PERSONNEL[:-1], ["", "217,081", "180,110"], ["Other", "5", "6"]],  # not the last row
])
def test_an_unlabelled_row_that_is_not_the_tables_total_gives_no_fact(rows: list[list[str]]) -> None:
    facts, _ = _facts_before(rows, "Personnel expenses for employees were as follows:")

    assert not any(f.value in (217081, 217000, 180110) and f.period in ("2019", "2018")
                   and f.metric_code.startswith("label:total") for f in facts)


@pytest.mark.parametrize("lead", [
    # the words before the list's first comma name one item of several, never what the table lists
    "The following table summarizes the fair values of receivables acquired, liabilities assumed and goodwill:",
    # what the rows are included in names no figure ("other" is no name)
    "The following table summarizes wages included in other expenses, net:",
])
def test_a_subject_cut_at_a_list_names_no_total(lead: str) -> None:
    for facts, warnings in (_facts_before(PERSONNEL, lead), _facts_after(lead, PERSONNEL)):
        assert not any(f.value in (217081, 180110) for f in facts)
        assert any("row 'Total': a total of no section" in w for w in warnings)


@pytest.mark.parametrize(("lead", "metric"), [
    # the rows are the part of the wages another figure holds: the total says which part, never all wages
    ("The following table summarizes wages included in selling, general and administrative expenses:",
     "label:total wages included in selling, general and administrative expenses"),
    ("The following table summarizes the wages included in cost of sales in the statements of income, related to "
     "the new plant:", "label:total wages included in cost of sales"),
    # a statement or the balance sheet holds all of them: the figures alone
    ("The following table summarizes the wages included in the consolidated statements of operations during the "
     "periods presented (in thousands):", "label:total wages"),
    ("The balances of wages payable included in our consolidated balance sheets were as follows:",
     "label:total balances of wages payable"),
])
def test_figures_included_in_another_are_totalled_as_that_part(lead: str, metric: str) -> None:
    for facts, _ in (_facts_before(PERSONNEL, lead), _facts_after(lead, PERSONNEL)):
        assert {(f.period, f.value) for f in facts if f.metric_code == metric} == {("2019", 217081), ("2018", 180110)}


def test_a_subject_followed_by_a_basis_names_the_figures_alone() -> None:
    facts, _ = _facts_before(PERSONNEL, "Revenue based on the location of the customer was as follows:")

    assert {f.value for f in facts if f.metric_code == "label:total revenue"} == {217081, 180110}


def test_a_subject_cut_at_an_initials_point_names_no_total() -> None:
    # "fees billed by R." read to "R" names nothing: no "Total fees billed by R" row
    facts, warnings = _facts_before(PERSONNEL, "The following table summarizes fees billed by R. Jones and partners:")

    assert not any(f.value in (217081, 180110) for f in facts)
    assert any("row 'Total': a total of no section" in w for w in warnings)


@pytest.mark.parametrize("lead", [
    "The following table summarizes our U.S. and foreign components of income (loss) before income taxes "
    "(in millions):",
    "The domestic and foreign components of income before income taxes were as follows:",
])
def test_the_components_a_sentence_splits_a_figure_into_leave_that_figure_as_the_totals(lead: str) -> None:
    # an abbreviation's points end no sentence; the parts named before "components of" are the rows
    facts, _ = _facts_before(PERSONNEL, lead)

    assert {(f.period, f.value, f.source_locator) for f in facts
            if f.metric_code == "label:total income before income taxes"} == {
        ("2019", 217081, "table=1,row=Total,col=2019"), ("2018", 180110, "table=1,row=Total,col=2018")}


RESTRUCTURING = [["", "2019", "2018"], ["Severance", "$7,169", "$7,845"], ["Advisory", "1,286", "2,802"],
                 ["Total", "$8,455", "$10,647"]]
_LONG_PARAGRAPH = ("Restructuring charges include the costs of the plan announced in the year, " * 6).strip()


def test_the_unit_of_a_leading_sentence_set_after_its_table_is_the_tables() -> None:
    after = f"{_LONG_PARAGRAPH}\n\nThe following is a summary of the restructuring costs for each year (in thousands):"

    facts, _ = _facts_before(RESTRUCTURING, after)

    assert {(f.metric_code, f.period, f.value, f.unit) for f in facts if f.value in (8455, 7169)} == {
        ("label:total restructuring costs", "2019", 8455, "USD_K"), ("label:severance", "2019", 7169, "USD_K")}


@pytest.mark.parametrize(("line", "unit"), [
    ("The table below presents restructuring costs by type (in millions):", "USD_M"),
    ("The following table sets forth, for the periods indicated, certain costs (in thousands):", "USD_K"),
    ("Costs for the years ended June 30, 2019 and 2018 (in thousands):", "USD_K"),
    # a unit note in a line that leads into nothing is no table's
    ("Severance of (in thousands) amounts was paid in cash", ""),
])
def test_the_unit_note_of_any_line_leading_into_a_table_set_after_it_is_the_tables(line: str, unit: str) -> None:
    facts, _ = _facts_before(RESTRUCTURING, f"{_LONG_PARAGRAPH}\n\n{line}")

    assert {f.unit for f in facts if f.value in (7169, 8455)} == {unit}


def test_the_unit_of_a_sentence_leading_the_next_table_is_not_the_first_tables() -> None:
    after = f"{_LONG_PARAGRAPH}\n\nRent and repairs were as follows (in millions):"
    second = "\n".join(["|  | 2019 | 2018 |", "| --- | --- | --- |", "| Rent | $40 | $30 |"])

    facts, _ = _facts_before(RESTRUCTURING, after, second)

    assert {f.unit for f in facts if f.value == 7169} == {""}  # no scale stated for it
    assert {f.unit for f in facts if f.value == 40} == {"USD_M"}


def test_a_heading_over_the_whole_table_its_lead_does_not_name_gives_no_total_of_its_own() -> None:
    # the sentence leading into the table, displaced after it, names the figures: the heading says where they stand
    rows = [["(in millions)", "2019", "2018"], ["Assets", "", ""], ["Prepaid and other current assets", "30", "25"],
            ["Other noncurrent assets", "70", "65"], ["Total", "100", "90"]]
    lead = "The balances of capitalized commissions in our balance sheets were as follows:"

    facts = _by_metric(markdown_table_facts(rows, "Annual report excerpt", after=lead), "2019")

    assert "label:total assets" not in facts
    value, locator = facts["label:total balances of capitalized commissions"]
    assert value == 100 and "row=Total" in locator and "col=2019" in locator


def test_a_heading_over_the_whole_table_its_lead_names_is_its_totals_subject() -> None:
    rows = [["(in millions)", "2019", "2018"], ["Assets", "", ""], ["Cash", "30", "25"],
            ["Receivables", "70", "65"], ["Total", "100", "90"]]

    facts = _by_metric(markdown_table_facts(rows, "Annual report excerpt", after="Our assets by category were as follows:"), "2019")

    value, locator = facts["label:total assets"]
    assert value == 100 and "row=Assets: Total" in locator
