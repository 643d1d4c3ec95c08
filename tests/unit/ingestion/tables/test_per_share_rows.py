"""A per-share row keeps its currency but never the scale a statement's caption gives its other rows."""

from __future__ import annotations

import pytest

from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.unit.ingestion.tables.zoo import zoo_glossary


def _facts(caption: str, label: str) -> dict[str, tuple[float, str]]:
    text = "\n".join([f"{caption}", "", "| Item | FY2024 | FY2025 |", "|---|---|---|", "| Net sales | 1,000 | 1,200 |",
                      f"| {label} | 15.10 | 17.74 |", ""])
    doc = parse_document(text.encode(), filename="statement.md", doc_id="statement.md", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts
    return {f"{f.source_locator.split('row=')[1]}": (f.value, f.unit) for f in facts}


@pytest.mark.parametrize("label", ["Basic earnings per share", "Earnings per common share - diluted", "EPS",
                                   "Dividends declared per share", "1株当たり当期純利益", "基本每股收益"])
def test_a_per_share_row_is_not_in_the_captions_millions(label: str) -> None:
    facts = _facts("Income statement (in millions of US dollars, except per share data)", label)

    assert facts["Net sales,col=FY2025"] == (1200, "USD_M")
    assert facts[f"{label},col=FY2025"] == (17.74, "USD")


def test_a_row_without_per_share_keeps_the_caption_scale() -> None:
    facts = _facts("Income statement (in millions of US dollars, except per share data)", "Share count")

    assert facts["Share count,col=FY2025"][1] != "USD"


@pytest.mark.parametrize("label", ["Adjusted basic earnings per share5 (cents)", "Final dividend per share7 (pence)"])
def test_a_per_share_row_in_cents_or_pence_is_given_no_dollar_unit(label: str) -> None:
    facts = _facts("Income statement (in millions of US dollars, except per share data)", label)

    assert facts[f"{label.replace('share5', 'share').replace('share7', 'share')},col=FY2025"] == (17.74, "")


@pytest.mark.parametrize("label", ["Basic earnings per share (p)", "Dividend per share (p)", "Diluted EPS per share (P)"])
def test_a_uk_per_share_row_in_pence_is_never_read_as_pounds(label: str) -> None:
    # "(p)" after "per share" is pence: 30.1p is £0.301, and no unit code says pence, so none is given
    facts = _facts("Five-year record (£'000 unless stated)", label)

    assert facts[f"{label},col=FY2025"] == (17.74, "")

    assert facts[f"{label.replace('share5', 'share').replace('share7', 'share')},col=FY2025"] == (17.74, "")


def test_a_per_share_row_under_a_scale_without_currency_states_no_unit() -> None:
    facts = _facts("Income statement (in millions, except per share data)", "Basic earnings per share")

    assert facts["Net sales,col=FY2025"] == (1200, "M")
    assert facts["Basic earnings per share,col=FY2025"] == (17.74, "")


@pytest.mark.parametrize("label", ["Weighted-average common shares outstanding", "Number of shares", "Shares outstanding"])
def test_a_number_of_shares_keeps_the_scale_but_never_the_currency(label: str) -> None:
    facts = _facts("Income statement (in thousands of US dollars, except per share data)", label)

    assert facts["Net sales,col=FY2025"] == (1200, "USD_K")
    assert facts[f"{label},col=FY2025"] == (17.74, "K")


def test_basic_or_diluted_alone_under_a_money_caption_states_no_unit() -> None:
    facts = _facts("Selected financial data (in millions of US dollars, except per share data)", "Diluted (a)(b)(c)")

    assert facts["Diluted,col=FY2025"] == (17.74, "")


def test_the_dilutive_shares_between_two_share_counts_are_shares_not_money() -> None:
    text = "\n".join(["Earnings per share (in millions, except per share amounts)", "",
                      "| | FY2024 | FY2025 |", "|---|---|---|", "| Net income | $1,316 | $1,079 |",
                      "| Weighted-average common shares outstanding - basic | 843 | 828 |",
                      "| Stock options and other dilutive securities | 14 | 16 |",
                      "| Weighted-average common shares outstanding - diluted | 857 | 844 |",
                      "| Diluted earnings per common share | $1.54 | $1.28 |", ""])
    doc = parse_document(text.encode(), filename="eps.md", doc_id="eps.md", max_bytes=1_000_000)
    units = {f.source_locator.split("row=")[1].split(",col=")[0]: f.unit
             for f in extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts}
    assert units["Net income"] == "USD_M"
    assert units["Stock options and other dilutive securities"] == "M"
    assert units["Weighted-average common shares outstanding - diluted"] == "M"
    assert units["Diluted earnings per common share"] == "USD"


def _eps_units(before: str, after: str) -> dict[str, str]:
    text = "\n".join([before, "", "| | FY2024 | FY2025 |", "|---|---|---|", "| Net income | $1,316 | $1,079 |",
                      "| Weighted-average common shares outstanding - basic | 843,210 | 828,114 |",
                      "| Dilutive securities | 3,354 | 3,201 |",
                      "| Weighted-average common shares outstanding - diluted | 846,564 | 831,315 |",
                      "| Diluted earnings per common share | $1.54 | $1.28 |", "", after, ""])
    doc = parse_document(text.encode(), filename="eps.md", doc_id="eps.md", max_bytes=1_000_000)
    return {f.source_locator.split("row=")[1].split(",col=")[0]: f.unit
            for f in extract_facts(doc, glossary=zoo_glossary(), source_file_hash="sha256:00").facts}


@pytest.mark.parametrize(("before", "after"), [
    ("Earnings per share (in millions, shares in thousands, except per share data)", ""),
    ("Earnings per share", "(Tabular amounts in millions, unless otherwise disclosed)\n\n"
     "The table sets forth basic and diluted net income per common share (shares in thousands, "
     "except per share data)."),
])
def test_shares_take_the_scale_their_own_note_states_not_the_moneys(before: str, after: str) -> None:
    units = _eps_units(before, after)
    assert units["Net income"] == "USD_M"
    assert units["Weighted-average common shares outstanding - basic"] == "K"
    assert units["Dilutive securities"] == "K"
    assert units["Diluted earnings per common share"] == "USD"


def test_shares_keep_the_captions_scale_when_no_note_states_theirs() -> None:
    units = _eps_units("Earnings per share (in millions, except per share amounts)", "")
    assert units["Net income"] == "USD_M"
    assert units["Dilutive securities"] == "M"
