"""A table's scale written as the number its figures are multiplied by: ``Number of shares (1,000)``,
``Revenue (EUR 1,000)``, ``(in 1,000)`` in a header cell, as European reports write it.

The answer states that unit ("up 93.8 K", "EUR_K"), as it does for "(in thousands)"; a per-share row keeps
its own unit, and a count of shares noting its multiplier under a caption of money is thousands of shares, no
money; a table whose report states no scale stays without one (no thousand guessed), and a figure in
brackets ("(1,000)", a negative) is never read as a note. Asked through ``answer_question`` and
``POST /v1/ask``, on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.bootstrap import get_services
from ragspine.numbers.units import units_in
from ragspine.qa.result import AnswerStatus
from tests.support.ask import WAYS, Ask, asker
from tests.support.domain_env import ingested_for_module, service_answer

AWARDS = """\
# Halvorsen Shipping annual report

Restricted share units granted to management:

| Number of units (1,000) | 2019 | 2018 |
| --- | --- | --- |
| Outstanding as of 1 January | 2,104.6 | 1,880.2 |
| Granted during the year | 712.4 | 655.0 |
| Forfeited during the year | -48.1 | -31.7 |
"""

REVENUE = """\
# Brannvik Systems annual report

| Segment revenue (EUR 1,000) | 2019 | 2018 |
| --- | --- | --- |
| Marine sensors | 48,210 | 45,930 |
| Harbour services | 12,604 | 13,118 |
| Earnings per share | 1.42 | 1.17 |
"""

CARGO = """\
# Tollund Freight annual report

| (in 1,000) | 2019 | 2018 |
| --- | --- | --- |
| Containers handled | 3,402 | 3,117 |
| Bulk tonnage | 8,050 | 7,920 |
"""

# no scale stated anywhere in the report: its figures stay without a unit
RESTRUCTURING = """\
# Osterby Metals annual report

A reconciliation of the restructuring liability for the year ended June 30, 2019 is shown below.

| Fiscal 2018 Restructuring Plan | Workforce reduction | Facility costs | Total |
| --- | --- | --- | --- |
| Balance payable as at June 30, 2018 | $1,590 | $3,431 | $5,021 |
| Accruals and adjustments | (254) | 1,152 | 898 |
| Cash payments | (290) | (1,634) | (1,924) |
| Balance payable as at June 30, 2019 | $1,046 | $2,949 | $3,995 |
"""

# a count of shares noting its own multiplier under a caption of money: thousands of shares, never of dollars
EARNINGS = """\
# Karlsvik Foods annual report

(in millions of USD)

| | 2019 | 2018 |
| --- | --- | --- |
| Net income attributable to shareholders | 1,250 | 1,100 |
| Weighted average shares outstanding (000) | 412,300 | 418,900 |
| Dividends paid | (300) | (280) |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "multiplier_scale",
                                   {"halvorsen.md": AWARDS, "brannvik.md": REVENUE, "tollund.md": CARGO,
                                    "osterby.md": RESTRUCTURING, "karlsvik.md": EARNINGS})


@pytest.fixture(params=WAYS)
def ask(request: pytest.FixtureRequest, ingested: None) -> Ask:
    return asker(request.param, get_services())


def test_a_count_headed_in_thousands_states_its_scale(ask: Ask) -> None:
    # GIVEN a table of unit counts headed "Number of units (1,000)"
    # WHEN the change of a row is asked
    body = ask("What was the change in the number of units granted during the year in 2019 from 2018?")

    # THEN the change is stated in thousands, every input cited
    assert body["status"] == AnswerStatus.FOUND.value, body["answer"]
    assert "FY2019 vs FY2018 up 57.4 K（+8.76%）" in body["answer"], body["answer"]
    for year in ("2019", "2018"):
        assert f"halvorsen.md · table=1,row=Granted during the year,col={year}" in body["answer"], body["answer"]


def test_money_headed_with_its_currency_in_thousands_states_both(ingested: None) -> None:
    answer, status = service_answer("What is the sum of marine sensors in 2019 and 2018?")

    assert status is AnswerStatus.FOUND, answer
    assert "94140 EUR_K" in answer, answer
    assert "brannvik.md · table=1,row=Marine sensors,col=2019" in answer, answer


def test_a_per_share_row_keeps_its_own_unit(ingested: None) -> None:
    # the revenue rows are in EUR_K, the earnings per share row beside them in whole euros
    facts = get_services().facts
    units = {(code, f.period): (f.value, f.unit) for code, entity in facts.open_codes()
             if code in ("label:earnings per share", "label:harbour services")
             for f in facts.find(metric_code=code, entity=entity)}
    assert units[("label:earnings per share", "2019")] == (1.42, "EUR"), units
    assert units[("label:harbour services", "2019")] == (12604, "EUR_K"), units


def test_a_note_alone_in_the_label_column_head_is_the_tables_scale(ingested: None) -> None:
    answer, status = service_answer("What is the sum of containers handled in 2019 and 2018?")

    assert status is AnswerStatus.FOUND, answer
    assert "6519 K" in answer, answer


def test_a_report_stating_no_scale_leaves_its_figures_without_one(ingested: None) -> None:
    answer, status = service_answer(
        "For Balance payable as at June 30, 2019, what is the difference between Workforce reduction and Facility "
        "costs?")

    assert status is AnswerStatus.FOUND, answer
    assert ": 1903 (" in answer, answer  # no "K", no "USD_K": nothing in the report says thousands


def test_a_count_of_shares_noting_its_multiplier_takes_no_currency(ingested: None) -> None:
    answer, status = service_answer("What was the change in weighted average shares outstanding from 2018 to 2019?")

    assert status is AnswerStatus.FOUND, answer
    assert "FY2019 vs FY2018 down 6600 K（" in answer, answer  # thousands of shares, no USD_K
    assert "USD_K" not in answer, answer
    assert "karlsvik.md · table=1,row=Weighted average shares outstanding (000),col=2019" in answer, answer


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["Number of shares", "Revenue", "Amounts", "Segment assets"]),
       note=st.sampled_from(["(1,000)", "(1.000)", "(1 000)", "(000)", "('000)", "(in 1,000)", "(x 1,000)",
                             "(× 1,000)"]))
def test_a_multiplier_note_after_a_name_is_read_as_thousands(name: str, note: str) -> None:
    assert units_in(f"{name} {note}") == ["K"]
    assert units_in(f"{name} {note}", "USD") == ["USD_K"]


@pytest.mark.parametrize(("text", "units"), [
    ("Revenue (1,000 EUR)", ["EUR_K"]),
    ("Revenue (in DKK 1,000)", ["DKK_K"]),
    ("Sales (x 1,000,000)", ["M"]),
    ("(1,000)", []),  # a negative figure, not a note
    ("($1,000)", []),
    ("Loss (1,000 shares)", []),
    ("Notes (abc 1,000)", []),  # a code that is no currency
])
def test_what_a_bracketed_multiplier_states(text: str, units: list[str]) -> None:
    assert units_in(text) == units
