"""A count of the rows under a section heading, through ``ragspine ingest``, ``answer_question`` and
``POST /v1/ask``: "How many components are there under deferred tax assets?" names no total row, only the
heading the rows stand under. They are counted where, a "Less …" deduction aside, they add up to a row of
the same table whose words hold the heading's (its gross amount); rows falling short of every such row are
not counted, and the question is answered as before.

A heading the table repeats under each of its columns ("Gross carrying amount", "Accumulated amortization",
"Net" over "Finite-lived intangible assets") is one heading: its rows are counted once, where every column
lists the same rows and each column's rows add up to that column's total. A threshold over such rows is not
one question (whose figures, which column's?) and is answered as before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import Services, get_services
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module

TAXES = """\
# Income taxes

The components of deferred taxes were as follows (in millions):

| | 2024 | 2023 |
| --- | --- | --- |
| Deferred tax assets | | |
| Lease obligations | $ 410 | $ 388 |
| Tax loss carryforwards | 1,250 | 1,402 |
| Accrued warranty costs | 95 | 120 |
| Gross deferred tax assets | 1,755 | 1,910 |
| Less valuation allowance | (600) | (640) |
| Net deferred tax assets | 1,155 | 1,270 |
| Deferred tax liabilities | | |
| Right-of-use assets | (380) | (370) |
| Software development costs | (210) | (190) |
| Gross deferred tax liabilities | (590) | (560) |
"""

# a row left out of the heading's rows: they fall short of the gross amount, so they are not all of it
ROYALTIES = """\
# Royalty receivables

| | 2024 | 2023 |
| --- | --- | --- |
| Royalty receivables | | |
| Music licences | 70 | 60 |
| Film licences | 40 | 35 |
| Gross royalty receivables | 150 | 120 |
"""

# one heading under three columns, each column's rows adding up to its own total, in two years
INTANGIBLES = """\
# Intangible assets

The carrying amounts of intangible assets were as follows (in millions):

| | Gross carrying amount | Accumulated amortization | Net |
| --- | --- | --- | --- |
| June 30, 2024 | | | |
| Finite-lived intangible assets | | | |
| Developed technology | 820.0 | (310.5) | 509.5 |
| Trade names | 45.0 | (12.0) | 33.0 |
| Total | 865.0 | (322.5) | 542.5 |
| Indefinite-lived intangible assets | | | |
| Broadcast licences | 9.0 | — | 9.0 |
| Total | 874.0 | (322.5) | 551.5 |
| June 30, 2023 | | | |
| Finite-lived intangible assets | | | |
| Developed technology | 790.0 | (250.0) | 540.0 |
| Trade names | 45.0 | (9.0) | 36.0 |
| Total | 835.0 | (259.0) | 576.0 |
| Indefinite-lived intangible assets | | | |
| Broadcast licences | 9.0 | — | 9.0 |
| Total | 844.0 | (259.0) | 585.0 |
"""

# the same layout, one column's rows falling short of its total (an amortization not listed): not all of it
AMORTIZABLE = """\
# Amortizable intangible assets

| | Gross carrying amount | Accumulated amortization | Net |
| --- | --- | --- | --- |
| June 30, 2024 | | | |
| Amortizable intangible assets | | | |
| Internal-use software | 120.0 | (40.0) | 80.0 |
| Purchased software | 30.0 | (10.0) | 20.0 |
| Total | 150.0 | (65.0) | 85.0 |
| June 30, 2023 | | | |
| Amortizable intangible assets | | | |
| Internal-use software | 100.0 | (25.0) | 75.0 |
| Purchased software | 30.0 | (5.0) | 25.0 |
| Total | 130.0 | (45.0) | 85.0 |
"""


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Services]:
    for _ in ingested_for_module(tmp_path_factory, "heading_counted", {"taxes.md": TAXES, "royalties.md": ROYALTIES,
                                                                        "intangibles.md": INTANGIBLES,
                                                                        "amortizable.md": AMORTIZABLE}):
        yield get_services()


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, services: Services) -> Ask:
    return asker(request.param, services)


def test_counts_the_rows_under_the_heading_named(ask: Ask) -> None:
    # GIVEN a heading whose three rows add up to the gross amount, a valuation allowance deducted below them
    # WHEN its rows are counted, no total row named
    answer = ask("How many components are there under deferred tax assets?")["answer"]

    # THEN the three rows are counted, the allowance not among them, every figure cited
    assert ("rows of gross deferred tax assets: 3 (deferred tax assets: accrued warranty costs, deferred tax assets: "
            "lease obligations, deferred tax assets: tax loss carryforwards; adding up to the total in FY2024, "
            "FY2023)") in answer, answer
    assert "valuation allowance" not in answer.split("（")[0], answer
    assert "row=Gross deferred tax assets,col=2023" in answer, answer


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.sampled_from(["components of deferred tax assets", "items of deferred tax assets"]),
       more=st.sampled_from(["exceeded", "were above", "were more than"]))
def test_counts_the_rows_under_the_heading_over_a_threshold(services: Services, rows: str, more: str) -> None:
    # GIVEN the same heading
    # WHEN its rows are counted over a threshold in one year
    answer = asker("answer_question", services)(f"How many {rows} {more} $100 million in 2024?")["answer"]

    # THEN the rows meeting it are named, every row and the gross amount compared
    assert ("above $100 million in FY2024: 2 (deferred tax assets: lease obligations 410, deferred tax assets: "
            "tax loss carryforwards 1250; 3 rows compared, adding up to the total 1755)") in answer, answer


def test_rows_falling_short_of_the_gross_amount_are_not_counted(ask: Ask) -> None:
    # GIVEN a heading whose rows do not add up to its gross amount (a row not listed)
    answer = ask("How many components are there under royalty receivables?")["answer"]

    # THEN no count is given: the rows read may not be all of it
    assert "rows of" not in answer, answer


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(asked=st.sampled_from(["How many types of finite-lived intangible assets are there?",
                              "How many types of Finite-Lived Intangible Assets are there?",
                              "How many components are there under finite-lived intangible assets?"]))
def test_a_heading_under_each_column_counts_its_rows_once(services: Services, asked: str) -> None:
    # GIVEN a heading the table repeats under three columns, each column's rows adding up to its total
    # WHEN its rows are counted, no column named
    answer = asker("answer_question", services)(asked)["answer"]

    # THEN the two rows are counted once, every column said and every figure compared cited
    assert ("rows of total finite-lived intangible assets: 2 (developed technology, trade names; the same rows in "
            "each column, accumulated amortization, gross carrying amount, net, each adding up to its total in "
            "FY2024, FY2023)") in answer, answer
    assert "Broadcast licences" not in answer and "Indefinite" not in answer, answer
    for column in ("Gross carrying amount", "Accumulated amortization", "Net"):
        assert f"Finite-lived intangible assets: Trade names,col={column}" in answer, answer


def test_a_heading_under_each_column_counted_through_every_way(ask: Ask) -> None:
    answer = ask("How many types of finite-lived intangible assets are there?")["answer"]
    assert "rows of total finite-lived intangible assets: 2 (developed technology, trade names;" in answer, answer


def test_a_threshold_over_a_heading_under_each_column_is_not_counted(ask: Ask) -> None:
    # GIVEN the same heading under three columns: which column's figures a threshold is over is not said
    answer = ask("How many types of finite-lived intangible assets were above $40 million in 2024?")["answer"]

    # THEN no count is given
    assert "rows of" not in answer, answer


def test_a_column_falling_short_of_its_total_leaves_the_rows_uncounted(ask: Ask) -> None:
    # GIVEN a heading under three columns, one column's rows not adding up to its total
    answer = ask("How many types of amortizable intangible assets are there?")["answer"]

    # THEN no count is given: that column's rows may not be all of it
    assert "rows of" not in answer, answer
