"""Bare quarter headers (Q1 … Q4) take their year from the heading only for the first table under it.

A filing's page often sets "Fiscal Year Ended January 31, 2018" over one quarterly table and
the next year's table below it without a heading of its own: that second table's quarters are
not the heading's year, so they are not dated at all.
"""

from __future__ import annotations

from tests.support.markdown_facts import markdown_facts


def _table(rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    return [*lines, *("| " + " | ".join(row) + " |" for row in rows[1:]), ""]


def test_only_the_first_table_under_a_heading_dates_its_quarters_by_it() -> None:
    first = _table([["", "Q1", "Q2", "Q3", "Q4"], ["Net sales", "116,526", "121,949", "122,136", "135,150"]])
    second = _table([["", "Q1", "Q2", "Q3", "Q4"], ["Net sales", "114,986", "119,405", "117,176", "129,750"]])
    text = "\n".join(["# Quarterly results", "", "## Fiscal year 2018", "", *first, "", *second])
    facts = markdown_facts(text, "q.md")
    assert {(f.period, f.value) for f in facts} == {("2018Q1", 116526), ("2018Q2", 121949), ("2018Q3", 122136),
                                                    ("2018Q4", 135150)}
