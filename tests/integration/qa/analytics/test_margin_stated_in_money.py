"""A "Gross margin" row of amounts, the company's word for its gross profit, under the finance pack.

The pack's gross margin is a percentage (gross profit over revenue). A row ``Gross margin | 32,666 |
29,870`` in a table of thousands of dollars is the gross profit in money: it is read as gross profit,
so "the gross profit in 2019" is 32,666 thousand and "the gross margin in 2019" is computed from it
and revenue, both cited, never "32,666 %". A row of percentages stays the margin; a rate named in the
label's own words (毛利率, 売上総利益率) stating amounts is left unread, and so is a margin row under a
note keeping percentages out of the table's money.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingest_into_finance_domain, pointed_services
from tests.support.finance_domain import finance_domain

TODAY = "2025-09-15"
INCOME = """\
# Corvid Devices annual report

Consolidated statement of income (in thousands of US dollars):

| | 2019 | 2018 |
| --- | --- | --- |
| Revenue | 102,400 | 95,100 |
| Cost of sales | 69,734 | 65,230 |
| {label} | {this_year} | {last_year} |
| Operating income | 12,000 | 10,500 |

Figures are for the financial year.
"""


def _income(label: str = "Gross margin", this_year: str = "32,666", last_year: str = "29,870",
            caption: str = "in thousands of US dollars") -> str:
    text = INCOME.format(label=label, this_year=this_year, last_year=last_year)
    return text.replace("in thousands of US dollars", caption)


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return ingest_into_finance_domain(tmp_path_factory.mktemp("margin_in_money"), {"corvid.md": _income()},
                                      today=TODAY)


@pytest.fixture
def ask(ingested: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> Iterator[Ask]:
    for services in pointed_services(monkeypatch, *ingested, today=TODAY):
        yield asker(WAYS[0], services)


@pytest.fixture(scope="module")
def glossary_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return finance_domain(tmp_path_factory.mktemp("finance_glossary"))


def _facts(folder: Path, text: str) -> dict[tuple[str, str], Fact]:
    doc = parse_document(text.encode(), filename="corvid.md", doc_id="corvid.md", max_bytes=1_000_000)
    facts = extract_facts(doc, glossary=read_glossary(folder / GLOSSARY), source_file_hash="sha256:00").facts
    return {(f.metric_code, f.period): f for f in facts}


def test_the_gross_profit_is_the_margin_rows_amount(ask: Ask) -> None:
    # WHEN a user asks the gross profit, which the table calls "Gross margin"
    answer = ask("What was the gross profit in 2019?")["answer"]
    # THEN it is that row's amount in the table's money, cited to the row
    assert "gross profit (GROSS_PROFIT): 32666 USD_K" in answer and "row=Gross margin,col=2019" in answer


@pytest.mark.parametrize("question", ["What was the gross margin in 2019?", "2019年的毛利率是多少？",
                                      "2019年の売上総利益率は？"])
def test_the_gross_margin_is_computed_from_the_amount_and_revenue(ask: Ask, question: str) -> None:
    # WHEN a user asks the gross margin, in any language
    answer = ask(question)["answer"]
    # THEN it is gross profit over revenue (32,666 / 102,400), both inputs cited, never the amount in percent
    assert "31.90 PCT" in answer and "32666 PCT" not in answer
    assert "row=Gross margin,col=2019" in answer and "row=Revenue,col=2019" in answer


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(label=st.sampled_from(["Gross margin", "Gross Margin", "GROSS MARGIN", "Gross profit margin"]),
       caption=st.sampled_from(["in thousands of US dollars", "$ in thousands", "in USD thousands"]),
       figures=st.sampled_from([("32,666", "29,870"), ("$32,666", "$29,870"), ("(1,250)", "420")]))
def test_a_margin_row_of_amounts_is_never_a_percentage(glossary_folder: Path, label: str, caption: str,
                                                       figures: tuple[str, str]) -> None:
    facts = _facts(glossary_folder, _income(label, *figures, caption=caption))
    assert not any(metric == "GROSS_MARGIN" for metric, _ in facts), facts
    assert facts["GROSS_PROFIT", "2019"].unit == "USD_K"


@pytest.mark.parametrize("label", ["毛利率", "売上総利益率", "Gross margin %", "Gross margin percentage"])
def test_a_rate_in_its_own_words_stating_amounts_is_left_unread(glossary_folder: Path, label: str) -> None:
    # WHEN a row whose label names a rate states amounts
    facts = _facts(glossary_folder, _income(label))
    # THEN it is neither the margin in percent nor an amount
    assert ("GROSS_MARGIN", "2019") not in facts and ("GROSS_PROFIT", "2019") not in facts
    assert ("REVENUE", "2019") in facts  # the table's other rows are read as before


def test_a_margin_stated_in_percent_stays_the_margin(glossary_folder: Path) -> None:
    facts = _facts(glossary_folder, _income(this_year="31.9%", last_year="31.4%"))
    assert (facts["GROSS_MARGIN", "2019"].value, facts["GROSS_MARGIN", "2019"].unit) == (31.9, "PCT")
    assert ("GROSS_PROFIT", "2019") not in facts


def test_a_margin_in_percent_under_a_note_keeping_percentages_out_stays_the_margin(glossary_folder: Path) -> None:
    facts = _facts(glossary_folder, _income(this_year="31.9", last_year="31.4",
                                            caption="in thousands of US dollars, except percentages"))
    assert (facts["GROSS_MARGIN", "2019"].value, facts["GROSS_MARGIN", "2019"].unit) == (31.9, "PCT")


def test_amounts_under_a_note_keeping_percentages_out_are_left_unread(glossary_folder: Path) -> None:
    # WHEN the note says percentages are stated apart, yet the margin row's figures are amounts
    facts = _facts(glossary_folder, _income(caption="in thousands of US dollars, except percentages"))
    # THEN which they are is unsaid: neither read
    assert ("GROSS_MARGIN", "2019") not in facts and ("GROSS_PROFIT", "2019") not in facts


def test_a_margin_row_beside_its_percent_of_revenue_reads_each_column_as_it_is(glossary_folder: Path) -> None:
    # WHEN the margin row states its amount and, in a column headed "% of revenue", its margin
    text = ("# Corvid Devices annual report\n\nResults (in thousands of US dollars):\n\n"
            "| | 2019 | 2019 | 2018 | 2018 |\n| --- | --- | --- | --- | --- |\n"
            "| | Amount | % of revenue | Amount | % of revenue |\n"
            "| Revenue | 102,400 | 100.0 | 95,100 | 100.0 |\n| Gross margin | 32,666 | 31.9 | 29,870 | 31.4 |\n")
    facts = _facts(glossary_folder, text)
    # THEN the amount column's figure is the gross profit, the percent column's never an amount
    assert (facts["GROSS_PROFIT", "2019"].value, facts["GROSS_PROFIT", "2019"].unit) == (32666, "USD_K")
    assert facts["GROSS_PROFIT", "2019"].source_locator.endswith("col=2019/Amount")
    assert facts.get(("GROSS_MARGIN", "2019")) is None or facts["GROSS_MARGIN", "2019"].value == 31.9
