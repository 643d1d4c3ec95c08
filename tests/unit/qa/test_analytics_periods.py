"""Relative and prior periods on any fiscal calendar, and the analytics cues as a domain configures them."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.authoring.check import check_domain
from ragspine.domain.starter import init_domain
from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.glossary import Period
from ragspine.qa.analytics.cues import AnalyticsCues
from ragspine.qa.analytics.periods import prior_period, quarters_of, resolve_relative

calendars = st.builds(FiscalCalendar, st.integers(1, 12), st.sampled_from(["end", "start"]))
days = st.dates(date(2001, 1, 1), date(2098, 12, 31))
quarters = st.builds(lambda y, q: Period("Q", f"{y}Q{q}"), st.integers(2001, 2098), st.integers(1, 4))


@given(calendars, days)
def test_last_year_is_the_last_completed_fiscal_year_and_this_year_follows_it(calendar: FiscalCalendar,
                                                                               day: date) -> None:
    last, this = resolve_relative("last_year", day, calendar), resolve_relative("this_year", day, calendar)
    assert int(last.period) == calendar.last_completed_year(day) == int(this.period) - 1


@given(calendars, days)
def test_last_quarter_is_the_quarter_before_this_one(calendar: FiscalCalendar, day: date) -> None:
    this = resolve_relative("this_quarter", day, calendar)
    assert resolve_relative("last_quarter", day, calendar) == prior_period(this, "quarter")
    year, number = calendar.fiscal_quarter_of(day)
    assert this == Period("Q", f"{year}Q{number}")


@given(quarters)
def test_four_steps_back_by_quarter_are_one_step_back_by_year(period: Period) -> None:
    back = period
    for _ in range(4):
        back = prior_period(back, "quarter")
    assert back == prior_period(period, "year")


def test_vela_june_year_on_15_september_2025() -> None:
    june = FiscalCalendar(6)
    assert resolve_relative("this_quarter", date(2025, 9, 15), june) == Period("Q", "2026Q1")
    assert resolve_relative("last_quarter", date(2025, 9, 15), june) == Period("Q", "2025Q4")
    assert quarters_of(Period.fiscal_year(2025))[0] == Period("Q", "2025Q1")


CUES = {"year_over_year": ["vs last year", "同比"], "last_year": ["last year", "去年"], "highest": ["most", "一番"],
        "lowest": ["一番低い"], "top": ["top {n}", "前{n}名"], "share": ["share"]}


@pytest.mark.parametrize(("text", "expected"), [
    ("japan revenue vs last year", {"prior": "year", "relative": None}),
    ("去年日本营收同比", {"prior": "year", "relative": "last_year"}),
    ("top 3 regions", {"order": "high", "top": 3}),
    ("营收前三名", {"order": "high", "top": 3}),
    ("2024年前三季度", {"order": None, "top": None}),  # 前三季度 is a period, not a ranking
    ("一番低い地域", {"order": "low"}),
    ("shareholders", {"share": False}),
])
def test_cues_read_what_is_asked(text: str, expected: dict[str, object]) -> None:
    analysis = AnalyticsCues(CUES, {"each region": "region"}).read(text)
    assert {key: getattr(analysis, key) for key in expected} == expected


@pytest.mark.parametrize(("text", "levels"), [
    ("which subsidiary had the highest net income in 2024", ("subsidiary",)),
    ("rank the subsidiaries by revenue", ("subsidiary",)),
    ("which product line had the lowest revenue", ("product",)),
    ("what was the subsidiary's revenue in 2024", ()),  # no order asked: the name is a word of the question
])
def test_a_level_named_beside_an_order_scopes_the_ranking(text: str, levels: tuple[str, ...]) -> None:
    cues = AnalyticsCues({"highest": ["highest"], "lowest": ["lowest"], "rank": ["rank"]}, {"each region": "region"},
                         {"subsidiary": "subsidiary", "product line": "product"})
    assert cues.read(text).levels == levels


def test_the_starter_domain_has_analytics_and_a_top_cue_without_n_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    init_domain(folder)
    assert "year_over_year:" in (folder / "intent.yaml").read_text(encoding="utf-8")
    assert check_domain(folder) == []
    intent = folder / "intent.yaml"
    intent.write_text(intent.read_text(encoding="utf-8").replace("top: [", "top: [top, "), encoding="utf-8")
    problems = [str(p) for p in check_domain(folder)]
    assert any("intent.yaml" in p and "top" in p and "{n}" in p for p in problems), problems
