"""Blocks of rows dated by a row of their own, asked through ``ragspine ingest`` and ``ragspine ask``.

A domain folder fresh from ``ragspine domain init`` keeps a December year. The intangible-asset
table below writes ``June 30, 2019`` over one block and ``June 30, 2018`` over the next (a June
year): each block is the year its row writes, as columns so dated are, and the locator keeps the
date. A ``Total`` under a section heading is that section's total of its column's kind, never the
whole column's.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain

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


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        yield from ingested_in_fresh_domain(patch, tmp_path_factory.mktemp("blocks"), {"intangibles.md": REPORT})


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
