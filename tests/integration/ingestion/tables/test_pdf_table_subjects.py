"""A filing's PDF table: whose figures it holds and their unit, from the text set above it.

Each page is written at test time (Helvetica, figures right-aligned under their year headers)
and read by the real PDF parser and table reader:

* a unit note on its own line above the table ("(In millions)"), or ending the sentence before
  it ("… were as follows (in millions):") over a "Year ended December 31," line, is the unit of
  its figures, with the currency its ``$`` cells state;
* a table under a heading that is another company's name (an equity investee's summarised
  balance sheet) is filed under that company, never under the filing's company;
* a table under a segment's heading ("Health Care Business (18.4% of consolidated sales):")
  gives no facts of the company: its "Sales" are the segment's.
"""

from __future__ import annotations

import pytest

from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.pdf import PdfParser
from tests.integration.ingestion.documents import PdfLine, pdf_layout
from tests.support.glossary import default_glossary

SIZE = 10.0
_WIDTHS = {**dict.fromkeys("0123456789", 556), ",": 278, ".": 278, "(": 333, ")": 333, "$": 556, " ": 278}


def _right(x: float, y: float, text: str) -> PdfLine:
    return (x - sum(_WIDTHS[c] for c in text) * SIZE / 1000, y, SIZE, False, text)


def _page(heading: str, above: list[str], rows: list[tuple[str, str, str]]) -> list[Fact]:
    lines: list[PdfLine] = [(72, 740, 14, True, heading)]
    y = 716.0
    for text in above:
        lines.append((72, y, SIZE, False, text))
        y -= 16
    lines += [_right(400, y, "2020"), _right(480, y, "2019")]
    for label, first, second in rows:
        y -= 16
        lines += [(72, y, SIZE, False, label), _right(400, y, first), _right(480, y, second)]
    doc = PdfParser().parse(pdf_layout(lines), doc_id="annual_report.pdf")
    return list(extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00").facts)


_ROWS = [("Current assets", "$853", "$1,011"), ("Noncurrent assets", "725", "420")]


@pytest.mark.parametrize("above", [
    ["(In millions)"],
    ["(In millions, except per share amounts)"],
    ["The balance sheet of the company was as follows (in millions):", "Year ended December 31,"],
])
def test_a_unit_note_set_above_the_table_is_its_unit(above: list[str]) -> None:
    facts = _page("Balance sheet", above, _ROWS)
    assert {(f.metric_code, f.period, f.value, f.unit) for f in facts} == {
        ("label:current assets", "2020", 853, "USD_M"), ("label:current assets", "2019", 1011, "USD_M"),
        ("label:noncurrent assets", "2020", 725, "USD_M"), ("label:noncurrent assets", "2019", 420, "USD_M")}


def test_a_sentence_stating_an_amount_is_no_unit_note() -> None:
    facts = _page("Balance sheet", ["Assets grew by $2.1 billion over the year as cash came in."], _ROWS)
    assert facts and {f.unit for f in facts} == {""}


def test_an_investee_s_statements_are_filed_under_the_investee() -> None:
    facts = _page('Hemlock Semiconductor Group ("HSG")', ["(In millions)"], _ROWS)
    assert facts and {f.entity for f in facts} == {"company:hemlock semiconductor group"}


@pytest.mark.parametrize("heading", ["Summarized financial information of equity method investees",
                                     "Affiliated Companies at Equity Method",
                                     "Health Care Business (18.4% of consolidated sales):"])
def test_a_segment_or_investee_table_gives_no_facts_of_the_company(heading: str) -> None:
    facts = _page(heading, [], [("Sales (millions)", "$6,021", "$5,853"), ("Operating income", "1,799", "1,764")])
    assert facts == []


def test_the_company_s_own_table_keeps_the_company() -> None:
    facts = _page("Example Group Balance Sheet", ["(In millions)"], _ROWS)
    assert facts and {f.entity for f in facts} == {default_glossary().home_entity}
