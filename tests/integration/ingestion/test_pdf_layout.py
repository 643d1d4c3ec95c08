"""PDF reading for filings, reports and manuals: what a user gets from a laid-out PDF.

Each PDF here is written at test time with real fonts and positions (Helvetica, Helvetica-Bold),
then read by the shipped parser and, for the last tests, ingested and searched end to end.
"""

from __future__ import annotations

from pathlib import Path

from ragspine.ingestion.chunking import chunk_document
from ragspine.ingestion.model import BlockKind, ParsedDocument
from ragspine.ingestion.parsers.pdf import PdfParser
from tests.integration.ingestion import documents
from tests.integration.ingestion.documents import PdfLine

BODY = 10.0


def furniture(page: int) -> list[PdfLine]:
    """A running header and a page-number footer, as every page of a filing has them."""
    return [(72, 760, 8, False, "ACME Corp | Annual Report 2024"), (300, 40, 8, False, str(page))]


def paragraph(y: float, *lines: str) -> list[PdfLine]:
    return [(72, y - 12 * i, BODY, False, text) for i, text in enumerate(lines)]


def table(y: float) -> list[PdfLine]:
    """Label column at x=72, figures right-aligned under 2024 and 2023."""
    rows = [("(USD millions)", "2024", "2023"), ("Revenue", "1,320", "1,200"), ("Cost of sales", "(845)", "(790)"),
            ("Operating profit", "475", "410")]
    out: list[PdfLine] = []
    for i, (label, a, b) in enumerate(rows):
        out += [(72, y - 12 * i, BODY, i == 0, label), (400, y - 12 * i, BODY, i == 0, a),
                (480, y - 12 * i, BODY, i == 0, b)]
    return out


def report() -> bytes:
    pages: list[list[PdfLine]] = []
    pages.append(furniture(1) + [(72, 700, 16, True, "Item 7. Management Discussion and Analysis")]
                 + [(72, 670, BODY, True, "Results of operations")]
                 + paragraph(650, "Revenue rose in every region as online sales grew and the long-",
                             "term contracts signed in 2023 began to deliver on the finan-",
                             "cial plan.")
                 + paragraph(600, "Margins held steady; the long-term financial plan is unchanged.")
                 + [(72, 560, BODY, True, "Segment figures")] + table(540))
    for number in (2, 3, 4):
        pages.append(furniture(number) + paragraph(700, f"Page {number} discusses liquidity and capital resources.",
                                                   "Cash flow from operations funded the dividend."))
    return documents.pdf_layout(*pages)


def parsed() -> ParsedDocument:
    return PdfParser().parse(report(), doc_id="report.pdf")


class TestReadingOrder:
    def test_lines_of_a_paragraph_are_rejoined_into_one_text(self) -> None:
        first = next(b for b in parsed().blocks if b.kind is BlockKind.PARAGRAPH)
        # "long-term" and "financial" are how the document spells them elsewhere
        assert first.text == ("Revenue rose in every region as online sales grew and the long-term contracts "
                              "signed in 2023 began to deliver on the financial plan.")
        assert first.locator == "page=1,para=1"

    def test_a_gap_between_paragraphs_starts_a_new_one(self) -> None:
        texts = [b.text for b in parsed().blocks if b.locator.startswith("page=1,para=")]
        assert texts[1] == "Margins held steady; the long-term financial plan is unchanged."

    def test_running_headers_and_page_numbers_are_dropped(self) -> None:
        text = "\n".join(b.text for b in parsed().blocks)
        assert "Annual Report" not in text
        assert not any(b.text.strip().isdigit() for b in parsed().blocks)
        assert "liquidity" in text


class TestHeadings:
    def test_headings_are_found_by_size_weight_and_numbering_and_nest(self) -> None:
        doc = parsed()
        headings = [(b.text, b.heading_path) for b in doc.blocks if b.kind is BlockKind.HEADING]
        item = "Item 7. Management Discussion and Analysis"
        assert headings[:2] == [(item, (item,)), ("Results of operations", (item, "Results of operations"))]
        margins = next(b for b in doc.blocks if b.text.startswith("Margins held steady"))
        assert margins.heading_path == (item, "Results of operations")

    def test_the_heading_trail_carries_over_to_the_next_page(self) -> None:
        later = next(b for b in parsed().blocks if b.locator == "page=2,para=1")
        assert later.heading_path[-1] == "Segment figures"


def statements() -> bytes:
    """Two statement pages set like 3M's: company, title and period as three bold lines, then notes."""
    def statement(title: str, period: str, section: str, row: str) -> list[PdfLine]:
        return ([(72, 700, BODY, True, "Example Company and Subsidiaries"), (72, 688, BODY, True, title),
                 (72, 676, BODY, True, period), (72, 650, BODY, True, section)]
                + [(72, 636, BODY, False, row), (400, 636, BODY, False, "1,577"), (480, 636, BODY, False, "1,373")])
    return documents.pdf_layout(
        statement("Consolidated Statement of Cash Flows", "Years ended December 31", "Cash Flows from Investing Activities",
                  "Purchases of property, plant and equipment"),
        # PDFium sometimes splits a word of a title ("Shee t"): the title is still recognised
        statement("Consolidated Balance Shee t", "At December 31", "Current assets", "Inventories"),
        [(72, 700, BODY, True, "NOTE 1. Significant Accounting Policies")]
        + paragraph(680, "Inventories are stated at the lower of cost or market. Inventories shown in the",
                    "balance sheet are raw materials and finished goods."))


class TestStatementTitles:
    def test_a_statement_page_keeps_its_title_in_the_heading_trail(self) -> None:
        # GIVEN statement pages whose title is followed by more bold lines (period, section)
        doc = PdfParser().parse(statements(), doc_id="statements.pdf")
        cash = next(b for b in doc.blocks if "Purchases of property" in b.text)
        balance = next(b for b in doc.blocks if b.text.startswith("Inventories") and b.locator.startswith("page=2"))
        # THEN the rows' trail ends with the statement's title
        assert cash.heading_path[-1] == "Consolidated Statement of Cash Flows"
        assert balance.heading_path[-1] == "Consolidated Balance Shee t"

    def test_a_statement_page_is_packed_as_one_section_with_its_captions_in_the_text(self) -> None:
        children = chunk_document(PdfParser().parse(statements(), doc_id="statements.pdf")).children
        page_one = [c for c in children if c.source_locator.startswith("page=1")]
        # the bold captions under the title do not cut the statement into one chunk per caption
        assert len(page_one) == 1
        assert "Cash Flows from Investing Activities" in page_one[0].text
        assert "Purchases of property, plant and equipment" in page_one[0].text

    def test_the_notes_after_the_statements_are_not_under_the_last_title(self) -> None:
        doc = PdfParser().parse(statements(), doc_id="statements.pdf")
        note = next(b for b in doc.blocks if b.text.startswith("Inventories are stated"))
        assert not any("Balance" in heading for heading in note.heading_path)
        assert note.heading_path[-1] == "NOTE 1. Significant Accounting Policies"


    def test_a_question_naming_the_balance_sheet_gets_the_balance_sheet_page(self, tmp_path: Path) -> None:
        from rich.console import Console

        from ragspine.bootstrap import build_ingest_context, build_services
        from ragspine.cli_ingest import ingest_files
        from ragspine.ingestion.submission import document_meta
        from ragspine.retrieval.search import run_search
        from ragspine.settings import EmbedderName, Settings

        path = tmp_path / "docs" / "statements.pdf"
        path.parent.mkdir()
        path.write_bytes(statements())
        services = build_services(Settings(data_dir=tmp_path / "data", embedder=EmbedderName.NONE))
        done = ingest_files([path], context=build_ingest_context(services), console=Console(quiet=True),
                            meta=lambda p: document_meta(p, library="reports"))
        assert done[0].succeeded
        # GIVEN the note on page 3 says "inventories" in a sentence, the balance sheet only as a row label
        hits = run_search(services, "What were inventories, as shown in the balance sheet?", libraries=("reports",),
                          top_k=3).hits
        # THEN the balance sheet page (tagged by its title) comes first
        assert hits[0].locator.startswith("page=2"), [(h.locator, h.text[:40]) for h in hits]


BALANCE_ROWS = ("Cash and cash equivalents", "Trade accounts receivable, net of doubtful accounts", "Inventories, net",
                "Other current assets", "Total current assets", "Investments", "Property, plant and equipment, net",
                "Goodwill, net", "Other intangible assets, net", "Deferred income taxes", "Other assets",
                "Total Assets", "Short-term borrowings", "Accounts payable", "Other accrued liabilities",
                "Total current liabilities", "Long-term debt", "Postretirement benefits other than pensions",
                "Other liabilities", "Total liabilities", "Common stock", "Additional paid-in capital",
                "Retained earnings", "Treasury stock, at cost", "Accumulated other comprehensive loss",
                "Total shareholders' equity", "Total Liabilities and Equity")


def filing_with_exhibit() -> bytes:
    """A filing whose balance sheet title runs on with the registrant, in body type (Corning's setting),
    and an exhibit (a benefit plan) whose pages share the question's request words."""
    balance = ([(72, 700, BODY, False, "Consolidated Balance Sheets Example Company and Subsidiary Companies"),
                (72, 676, BODY, False, "December 31, (in millions)")]
               + [(72, 650 - 12 * i, BODY, False, label) for i, label in enumerate(BALANCE_ROWS)]
               + [(400, 650 - 12 * i, BODY, False, f"{1_000 + 37 * i:,}") for i in range(len(BALANCE_ROWS))])
    def exhibit(article: str) -> list[PdfLine]:
        # (each page's lines differ: lines repeated on every page would be dropped as running headers)
        return ([(72, 700, BODY, True, f"Exhibit 10.4 Deferred Compensation Plan, Article {article}")]
                + paragraph(680, f"If a claim under Article {article} is not useful or relevant to this company's",
                            "plan, the Company will state that and explain why; a positive decision is based on",
                            f"the data of Article {article}. Please state the claim in writing, and if the Company",
                            "finds it not useful or relevant, it will state that and explain why."))
    md_a = paragraph(700, "Example Company sells specialty glass and ceramics to display makers worldwide.")
    # more exhibit pages than one ranking returns (20), so the question's words alone never reach page 2
    return documents.pdf_layout(md_a, balance, *(exhibit(chr(ord("A") + n)) for n in range(25)))


class TestNamedStatementPages:
    QUESTION = ("Does Exampleco have positive working capital based on FY2022 data? If working capital is not a "
                "useful or relevant metric for this company, then please state that and explain why.")

    def test_a_balance_sheet_title_followed_by_the_registrant_is_a_statement_title(self) -> None:
        doc = PdfParser().parse(filing_with_exhibit(), doc_id="EXAMPLECO_2022_10K.pdf")
        rows = next(b for b in doc.blocks if "Total current assets" in b.text)
        assert rows.heading_path[-1] == "Consolidated Balance Sheets Example Company and Subsidiary Companies"

    def test_a_question_implying_the_balance_sheet_of_a_named_filing_gets_that_page(self, tmp_path: Path) -> None:
        from rich.console import Console

        from ragspine.bootstrap import build_ingest_context, build_services
        from ragspine.cli_ingest import ingest_files
        from ragspine.ingestion.submission import document_meta
        from ragspine.retrieval.search import run_search
        from ragspine.settings import EmbedderName, Settings

        folder = tmp_path / "filings"
        folder.mkdir()
        (folder / "EXAMPLECO_2022_10K.pdf").write_bytes(filing_with_exhibit())
        (folder / "OTHERCO_2022_10K.pdf").write_bytes(report())
        services = build_services(Settings(data_dir=tmp_path / "data", embedder=EmbedderName.NONE))
        done = ingest_files(sorted(folder.iterdir()), context=build_ingest_context(services),
                            console=Console(quiet=True), meta=document_meta)
        assert all(d.succeeded for d in done)
        # GIVEN the exhibit shares the question's request words ("useful", "relevant", "state", "explain why")
        # and the balance sheet page only "current assets" and "current liabilities"
        hits = run_search(services, self.QUESTION, top_k=3).hits
        # THEN "working capital" points at the named filing's balance sheet, which comes first
        assert (hits[0].doc, hits[0].locator) == ("EXAMPLECO_2022_10K.pdf", "page=2"), \
            [(h.doc, h.locator, h.text[:40]) for h in hits]


class TestTables:
    def test_each_row_keeps_its_row_and_column_labels(self) -> None:
        (block,) = [b for b in parsed().blocks if ",table=" in b.locator]
        assert block.locator == "page=1,table=1"
        lines = block.text.split("\n")
        assert lines[0] == "(USD millions)"
        assert "Revenue: 2024 = 1,320; 2023 = 1,200" in lines
        assert "Cost of sales: 2024 = (845); 2023 = (790)" in lines

    def test_pdf_tables_feed_no_facts(self) -> None:
        assert not any(b.kind is BlockKind.TABLE for b in parsed().blocks)


class TestChunks:
    def test_a_page_gives_one_packed_chunk_with_its_heading_trail(self) -> None:
        children = chunk_document(parsed()).children
        page_two = [c for c in children if c.source_locator.startswith("page=2")]
        assert len(page_two) == 1 and "dividend" in page_two[0].text
        assert page_two[0].heading_path[-1] == "Segment figures"

    def test_every_child_is_located_by_page(self) -> None:
        for child in chunk_document(parsed()).children:
            assert child.source_locator.startswith("page="), child.source_locator


class TestThroughIngestion:
    def test_an_ingested_report_is_found_by_a_table_row_with_its_page(self, tmp_path: Path) -> None:
        from rich.console import Console

        from ragspine.bootstrap import build_ingest_context, build_services
        from ragspine.cli_ingest import ingest_files
        from ragspine.ingestion.submission import document_meta
        from ragspine.retrieval.search import run_search
        from ragspine.settings import EmbedderName, Settings

        path = tmp_path / "docs" / "acme_report.pdf"
        path.parent.mkdir()
        path.write_bytes(report())
        services = build_services(Settings(data_dir=tmp_path / "data", embedder=EmbedderName.NONE))
        done = ingest_files([path], context=build_ingest_context(services), console=Console(quiet=True),
                            meta=lambda p: document_meta(p, library="reports"))
        assert done[0].succeeded
        hits = run_search(services, "operating profit 2024", libraries=("reports",), top_k=3).hits
        assert hits and hits[0].doc == "acme_report.pdf" and hits[0].locator.startswith("page=1")
        assert "Operating profit: 2024 = 475; 2023 = 410" in hits[0].text


class TestFormsAndListings:
    def test_capitals_rows_with_figures_are_text_not_headings(self) -> None:
        # GIVEN a listing in capitals, like a ledger of payees (no heading at all)
        rows = [(72, 700 - 12 * i, BODY, False, f"SMITH, ALVARO R LEGISLATIVE CORRESPONDENT {21000 + i}.00")
                for i in range(6)]
        doc = PdfParser().parse(documents.pdf_layout(rows), doc_id="ledger.pdf")
        # THEN its rows are searchable text, not headings that would leave nothing to index
        assert not any(b.kind is BlockKind.HEADING for b in doc.blocks)
        assert chunk_document(doc).children
