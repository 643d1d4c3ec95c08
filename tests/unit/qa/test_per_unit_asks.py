"""The metric after "per" divides the one before it, written in either number; "per" inside a name divides nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.per_unit_asks import metric_per
from tests.support.glossary import default_glossary

GLOSSARY = default_glossary()


@given(metric=st.sampled_from(["revenue", "net profit", "gross profit", "Revenue"]),
       thing=st.sampled_from(["store", "stores", "Store"]), each=st.sampled_from(["", "each ", "one "]),
       entity=st.sampled_from(["Japan", "Hong Kong", "the group"]), year=st.integers(2023, 2025))
def test_the_count_after_per_divides(metric: str, thing: str, each: str, entity: str, year: int) -> None:
    question = f"What was {metric} per {each}{thing} in {entity} in {year}?"
    assert metric_per(question, ("REVENUE",), GLOSSARY) == "STORE_COUNT"


@pytest.mark.parametrize(("question", "metrics"), [
    ("What was revenue in Japan in 2024?", ("REVENUE",)),  # no "per"
    ("What was revenue per employee in Japan in 2024?", ("REVENUE",)),  # no metric counts employees
    ("Revenue and stores per region in 2024", ("REVENUE", "STORE_COUNT")),  # two metrics named: no one to divide
    ("What was revenue per store in 2024?", ("STORE_COUNT",)),  # the count is the metric asked already
])
def test_nothing_divides(question: str, metrics: tuple[str, ...]) -> None:
    assert metric_per(question, metrics, GLOSSARY) is None
