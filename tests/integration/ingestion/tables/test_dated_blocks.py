"""Blocks of rows dated by a row of their own, asked through ``ragspine ingest`` and ``ragspine ask``.

A domain folder fresh from ``ragspine domain init`` keeps a December year. The intangible-asset
table below writes ``June 30, 2019`` over one block and ``June 30, 2018`` over the next (a June
year): each block is the year its row writes, as columns so dated are, and the locator keeps the
date. A ``Total`` under a section heading is that section's total of its column's kind, never the
whole column's.

The first block's date may stand among the header rows with a section heading below it
(``December 31, 2024`` over ``Finite-lived intangible assets`` over the first line items): it
dates that block as the date over the next block dates its own, however the date is written
(``31 December 2024``, ``Dec. 31, 2024``, ``As of …``, ``At …``, ``…:``) and whichever month the
year ends in. The ``Total`` closing the second section sums both sections: it is neither
section's total, so it gives no fact under the first section's name.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.domain_env import cli_answer, ingested_for_module, service_answer
from tests.support.markdown_facts import markdown_facts

REPORT = """\
# Annual report excerpt

| | Gross Carrying Amount | Accumulated Amortization | Net |
| --- | --- | --- | --- |
| | | (in millions) | |
| June 30, 2019 | | | |
| Finite-Lived Intangible Assets | | | |
| Dealer relationships | $1,597.6 | $(498.7) | $1,098.9 |
| Licensed rights | 3.4 | (1.5) | 1.9 |
| Total | 1,601.0 | (500.2) | 1,100.8 |
| Indefinite-Lived Intangible Assets | | | |
| Certifications | 3.5 | — | 3.5 |
| Licensed rights | 14.5 | — | 14.5 |
| Total | 1,619.0 | (500.2) | 1,118.8 |
| June 30, 2018 | | | |
| Finite-Lived Intangible Assets | | | |
| Dealer relationships | $1,597.0 | $(405.6) | $1,191.4 |
| Licensed rights | 2.7 | (0.6) | 2.1 |
| Total | 1,599.7 | (406.2) | 1,193.5 |
| Indefinite-Lived Intangible Assets | | | |
| Certifications | 3.5 | — | 3.5 |
| Licensed rights | 15.1 | — | 15.1 |
| Total | $1,618.3 | $(406.2) | $1,212.1 |
"""


# The first block's date among the header rows, a section heading between it and the first line items.
FIRST_BLOCK = """\
# Intangible assets

The carrying amounts of intangible assets were as follows (in millions):

| | Gross carrying amount | Accumulated amortization | Net |
| --- | --- | --- | --- |
| {first} | | | |
| Finite-lived intangible assets | | | |
| Customer lists | 640.0 | (210.5) | 429.5 |
| Patents | 55.0 | (14.0) | 41.0 |
| Total | 695.0 | (224.5) | 470.5 |
| Indefinite-lived intangible assets | | | |
| Spectrum licences | 12.0 | — | 12.0 |
| Total | 707.0 | (224.5) | 482.5 |
| {second} | | | |
| Finite-lived intangible assets | | | |
| Customer lists | 600.0 | (160.0) | 440.0 |
| Patents | 55.0 | (11.0) | 44.0 |
| Total | 655.0 | (171.0) | 484.0 |
| Indefinite-lived intangible assets | | | |
| Spectrum licences | 12.0 | — | 12.0 |
| Total | 667.0 | (171.0) | 496.0 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    first = FIRST_BLOCK.format(first="December 31, 2024", second="December 31, 2023")
    yield from ingested_for_module(tmp_path_factory, "blocks", {"intangibles.md": REPORT, "licences.md": first})


def test_a_block_dated_by_its_row_answers_the_date_it_writes(asked: None) -> None:
    answer = cli_answer("What was the net dealer relationships as of June 30, 2019?")
    assert "1098.9 USD_M" in answer, answer
    assert "row=June 30 2019/Finite-Lived Intangible Assets: Dealer relationships,col=Net" in answer, answer
    assert "1191.4" not in answer, answer


def test_the_block_a_year_before_answers_that_year(asked: None) -> None:
    answer = cli_answer("What was the change in net dealer relationships from 2018 to 2019?")
    assert "1191.4 USD_M" in answer and "1098.9 USD_M" in answer, answer
    assert "down 92.5 USD_M" in answer, answer


def test_a_sections_total_is_never_the_whole_columns(asked: None) -> None:
    answer = cli_answer("What was the total gross carrying amount as of June 30, 2019?")
    assert "1601" not in answer and "1619" not in answer, answer  # the finite-lived subtotal names no whole


def test_the_first_block_under_its_date_among_the_headers_answers_that_date(asked: None) -> None:
    answer, _ = service_answer("What was the net customer lists at December 31, 2024?")
    assert "429.5 M" in answer, answer
    assert "licences.md" in answer and "col=Net" in answer, answer
    assert "440" not in answer, answer

    change, _ = service_answer("What was the change in net patents from 2023 to 2024?")
    assert "41.0 M" in change and "44.0 M" in change and "down 3.0 M" in change, change


def test_the_total_of_both_sections_is_never_the_first_sections(asked: None) -> None:
    answer, _ = service_answer("What was the total net finite-lived intangible assets as of December 31, 2024?")
    assert "470.5 M" in answer, answer
    assert "482.5" not in answer, answer


_FORMS = ("{month} {day}, {year}", "{day} {month} {year}", "{abbr}. {day}, {year}", "{abbr} {day}, {year}",
          "As of {month} {day}, {year}", "As at {day} {month} {year}", "At {month} {day}, {year}",
          "{month} {day}, {year}:")
# Year ends a December glossary closes, and others (its calendar closes no year on them: the dates as written).
_YEAR_ENDS = (("December", "Dec", 31), ("June", "Jun", 30), ("September", "Sept", 28), ("March", "Mar", 31))


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(form=st.sampled_from(_FORMS), year_end=st.sampled_from(_YEAR_ENDS))
def test_each_block_is_the_year_its_date_row_writes_however_written(asked: None, form: str,
                                                                    year_end: tuple[str, str, int]) -> None:
    month, abbr, day = year_end
    first, second = (form.format(month=month, abbr=abbr, day=day, year=year) for year in (2024, 2023))
    facts = markdown_facts(FIRST_BLOCK.format(first=first, second=second), "licences.md")
    by_name = {(f.metric_code, f.period): f.value for f in facts}

    assert by_name.get(("label:net: finite-lived intangible assets: customer lists", "2024")) == 429.5, facts
    assert by_name.get(("label:net: finite-lived intangible assets: customer lists", "2023")) == 440.0, facts
    assert by_name.get(("label:net: total finite-lived intangible assets", "2024")) == 470.5, facts
    assert by_name.get(("label:net: total finite-lived intangible assets", "2023")) == 484.0, facts
    # the total of both sections is filed under no name: neither section's total
    assert not {482.5, 496.0, 707.0, 667.0} & {f.value for f in facts}, facts
