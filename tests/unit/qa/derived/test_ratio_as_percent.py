"""A ratio of two metrics below one is shown with its percentage: two decimals of a fraction hide too much."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.qa.derived.statement_set import answered, statement_facts, statement_qa


@pytest.mark.parametrize(("question", "shown"), [
    ("What is the ratio of operating income to revenue in FY2024?", ": 0.08（7.50%）"),  # 150 / 2000 = 0.075
    ("2024年营业利润与营业收入之比是多少", "：0.08（7.50%）"),
])
def test_a_fraction_is_shown_with_its_percentage(folder: Path, question: str, shown: str) -> None:
    assert shown in answered(statement_qa(folder, statement_facts()), question).answer


@pytest.mark.parametrize(("question", "shown"), [
    ("What is the ratio of operating income to revenue in FY2024 to four decimal places?", ": 0.0750（计算自"),
    ("What is the ratio of revenue to operating income in FY2024?", ": 13.33（计算自"),  # above one: none
])
def test_no_percentage_where_places_are_asked_or_the_ratio_is_above_one(folder: Path, question: str,
                                                                       shown: str) -> None:
    assert shown in answered(statement_qa(folder, statement_facts()), question).answer  # the sources follow
