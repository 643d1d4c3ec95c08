"""A question naming a company and a fiscal year ranks that document's passages first.

Through ``ragspine search`` over a fresh data folder: the distractor filing says the asked words
more often than the named one, so plain BM25 ranks it first; naming the document puts its own
passages first, beyond the per-document cap, and never hides the others.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import Settings

runner = CliRunner()

NAMED = ("# Annual report\n\n## Liquidity\n\nAccounts payable rose to 41 days of cost of sales.\n\n"
         "## Inventories\n\nInventories turned over 8 times; accounts payable terms were extended.\n\n"
         "## Capital\n\nPurchases of property and equipment were funded from operating cash flow; "
         "payable balances grew.\n")
DISTRACTOR = ("# Annual report\n\n## Payables\n\nAccounts payable, accounts payable days and payable terms: "
              "accounts payable rose, accounts payable days rose, cost of sales rose.\n\n"
              "## Payables again\n\nAccounts payable accounts payable cost of sales payable days.\n\n"
              "## Reserves\n\nThe cyclone reserve was released in full during the year.\n")


def _search(query: str, k: int = 5) -> list[dict[str, str]]:
    result = runner.invoke(app, ["search", query, "--json", "--top-k", str(k)])
    assert result.exit_code == 0, result.output
    hits: list[dict[str, str]] = json.loads(result.output)["hits"]
    return hits


def _ingest(tmp_path: Path) -> None:
    folder = tmp_path / "filings"
    folder.mkdir()
    (folder / "WALMART_2019_10K.md").write_text(NAMED, encoding="utf-8")
    (folder / "WALMART_2017_10K.md").write_text(DISTRACTOR, encoding="utf-8")
    (folder / "COSTCO_2019_10K.md").write_text(DISTRACTOR, encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(folder)]).exit_code == 0


def test_the_named_filings_passages_come_first_beyond_the_per_document_cap(settings: Settings,
                                                                          tmp_path: Path) -> None:
    _ingest(tmp_path)
    # GIVEN the other filings repeat "accounts payable" more than the asked one does
    plain = [hit["doc"] for hit in _search("accounts payable days cost of sales")]
    assert plain[0] != "WALMART_2019_10K.md"
    # WHEN the question names Walmart and FY2019
    docs = [hit["doc"] for hit in _search("What were Walmart's FY2019 accounts payable days (cost of sales)?")]
    # THEN Walmart 2019's three passages lead, though the cap keeps other documents to two
    assert docs[:3] == ["WALMART_2019_10K.md"] * 3, docs


def test_a_named_filing_without_the_answer_leaves_the_others_findable(settings: Settings, tmp_path: Path) -> None:
    _ingest(tmp_path)
    hits = _search("Walmart FY2019 cyclone reserve released")
    assert any(hit["doc"] != "WALMART_2019_10K.md" and "cyclone" in hit["text"] for hit in hits), hits


def test_analyst_vocabulary_reaches_the_words_a_statement_prints(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "cash.md").write_text("# Investing\n\nPurchases of property, plant and equipment were 1,577.\n",
                                    encoding="utf-8")
    (folder / "other.md").write_text("# Outlook\n\nThe amount of the outlook for the year is stable.\n",
                                     encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(folder)]).exit_code == 0
    # "capex" is not a word of either document: the expansion finds the purchases of PP&E
    assert _search("What was the capex amount for the year?", k=1)[0]["doc"] == "cash.md"


def test_a_named_filings_statement_comes_first_though_its_words_rank_it_low(settings: Settings,
                                                                           tmp_path: Path) -> None:
    # GIVEN a filing whose exhibits (more sections than one ranking returns) say the question's
    # request words, and whose balance sheet says only the line items
    exhibits = "".join(
        f"## Exhibit 10.{n} Plan article {n}\n\nIf the claim is not useful or relevant to this company's plan, the "
        f"Company will state that and explain why; a positive decision is based on the data.\n\n"
        for n in range(1, 26))
    balance = ("## Consolidated Balance Sheets\n\nCash and cash equivalents 1,671. Trade accounts receivable 1,721. "
               "Inventories 2,904. Other current assets 1,050. Property, plant and equipment 15,371. Goodwill "
               "2,394. Total assets 29,499. Short-term borrowings 224. Accounts payable 1,804. Other accrued "
               "liabilities 3,147. Long-term debt 6,687. Total liabilities 16,350. Retained earnings 16,778. "
               + " ".join(f"Other line item {n}: {1_000 + 37 * n:,}." for n in range(60)) + "\n\n")
    folder = tmp_path / "filings"
    folder.mkdir()
    (folder / "EXAMPLECO_2022_10K.md").write_text(f"# Annual report\n\n{balance}{exhibits}", encoding="utf-8")
    (folder / "OTHERCO_2022_10K.md").write_text(NAMED + "".join(
        f"\n## Segment {n}\n\nSegment {n} sold glass, fibre and ceramics in region {n}.\n" for n in range(80)),
        encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(folder)]).exit_code == 0
    # WHEN the question names the filing and "working capital", read on the balance sheet
    hits = _search("Does Exampleco have positive working capital based on FY2022 data? If working capital is not "
                   "a useful or relevant metric for this company, then please state that and explain why.")
    # THEN that filing's balance sheet comes first, above its exhibits
    assert hits[0]["doc"] == "EXAMPLECO_2022_10K.md" and "Inventories 2,904" in hits[0]["text"], \
        [(hit["doc"], hit["locator"]) for hit in hits]
