"""A dash in a year's column where the row states another year's figure is nil, asked through ``ragspine ask``.

"Litigation settlements | (75) | —" under 2021 and 2020 says nothing was settled in 2020: the
change from 2020 is −75, not "no data". A row of dashes alone, or a dash under a kind of figure
(a price beside a count of shares), still states nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.domain_env import cli_answer, ingested_in_fresh_domain
from tests.support.markdown_facts import markdown_table_facts

_CHARGES = """\
# Other operating charges

| ($ in millions) | | |
| --- | --- | --- |
| For the year ended December 31: | 2021 | 2020 |
| Restructuring charges | 310 | 145 |
| Litigation settlements | (75) | — |
| Impairment of goodwill | — | — |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"charges.md": _CHARGES})


def test_a_dash_beside_another_years_figure_is_nil(asked: None) -> None:
    answer = cli_answer("What is the change in litigation settlements from 2020 to 2021?")
    assert "FY2021 vs FY2020 down 75" in answer, answer
    assert "No data" not in answer, answer


def test_a_row_of_dashes_alone_states_no_figure(asked: None) -> None:
    answer = cli_answer("What was the impairment of goodwill in 2020?")
    assert ": 0 USD_M" not in answer and "impairment of goodwill (label" not in answer, answer


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["—", "–", "-", "−"]))
def test_a_dash_under_a_kind_of_figure_is_no_nil(dash: str) -> None:
    facts = markdown_table_facts([["", "Fiscal 2021", ""], ["", "Shares", "Weighted average price"],
                                  ["Granted", "1,200", "$14.10"], ["Forfeited", "(300)", dash]], "Stock options")
    assert {(f.metric_code, f.value) for f in facts} == {
        ("label:shares: granted", 1200), ("label:weighted average price: granted", 14.1),
        ("label:shares: forfeited", -300)}


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["—", "–", "-", "−"]))
def test_each_dash_writing_is_nil_beside_a_figure(dash: str) -> None:
    facts = markdown_table_facts([["", "2021", "2020"], ["Litigation settlements", "(75)", dash]], "Other charges")
    assert {(f.period, f.value) for f in facts} == {("2021", -75), ("2020", 0)}
