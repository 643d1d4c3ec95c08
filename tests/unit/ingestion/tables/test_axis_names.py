"""What one header or label names: periods as reports write them, unit notes, generic words, unknown text."""

from __future__ import annotations

import pytest

from ragspine.facts.glossary import Period
from ragspine.ingestion.table_axes import NOTHING, Named, name_of
from tests.unit.ingestion.tables.zoo import zoo_glossary  # fiscal year ends in March, named by its end


@pytest.mark.parametrize(("header", "year"), [
    ("FY2025", 2025), ("2025年3月期", 2025), ("2019 €m", 2019), ("2018 $'000", 2018), ("2018 (4)", 2018),
    ("March 31, 2025", 2025), ("31 March 2024", 2024), ("April 2, 2025", 2025),  # a 52/53-week year end
    ("Year ended December 31, 2019", 2019), ("Fiscal Year Ended April 27, 2019", 2019),
])
def test_period_headers(header: str, year: int) -> None:
    assert name_of(zoo_glossary(), header) == Named(period=Period.fiscal_year(year))


@pytest.mark.parametrize("header", ["September 30, 2019", "Three months ended March 31, 2025", "30 June 2019"])
def test_a_date_inside_the_fiscal_year_is_no_fiscal_year(header: str) -> None:
    assert name_of(zoo_glossary(), header).period is None


@pytest.mark.parametrize("header", ["(in millions, except per share data)", "単位：百万円", "金額(百万円)", "Amount",
                                    "項目", "", "Years Ended March 31,"])
def test_unit_notes_generic_words_and_period_headings_name_nothing(header: str) -> None:
    assert name_of(zoo_glossary(), header) == NOTHING


@pytest.mark.parametrize("header", ["% change", "FY2025 plan", "Budget", "Domestic"])
def test_other_words_are_unknown_never_guessed(header: str) -> None:
    assert name_of(zoo_glossary(), header).unknown


def test_labels_with_units_and_footnotes_name_their_metric() -> None:
    assert name_of(zoo_glossary(), "Net sales (¥ million)") == Named(metric="NET_SALES")
    assert name_of(zoo_glossary(), "売上高※1") == Named(metric="NET_SALES")


@pytest.mark.parametrize("label", ["Total (loan)", "Total (net debt)"])
def test_a_total_naming_what_it_totals_in_brackets_is_no_channels_total(label: str) -> None:
    assert name_of(zoo_glossary(), label).unknown  # a line item of the document's own, read as an open label


@pytest.mark.parametrize("label", ["Total", "Total (in millions)", "Total (1)", "Total (%)", "Total (restated)",
                                   "Total (unaudited)", "Total (continued)"])
def test_a_total_with_a_unit_note_or_footnote_stays_the_total_channel(label: str) -> None:
    assert name_of(zoo_glossary(), label).channel == "TOTAL"


@pytest.mark.parametrize("header", ["USDm", "DKKm", "EURbn"])
def test_a_currency_code_with_its_scale_run_on_names_nothing(header: str) -> None:
    assert name_of(zoo_glossary(), header) == NOTHING
