"""One amount stated at two roundings in one unit (6437.2 and 6437 EUR_M) is one figure, not two sides.

A summary that rounds to the million beside the statement's decimal takes no side a computation must
choose: the equity ratio is computed, and the stated line says the other source states the same amount.
A figure a whole unit off is still another amount, and nothing is computed from either.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_facts, statement_qa

SUMMARY = "Example_Summary_FY2024.md"


def _ask(folder: Path, kept: Decimal, other: Decimal, question: str) -> str:
    facts = statement_facts(TOTAL_ASSETS=statement_fact("TOTAL_ASSETS", "2024", float(kept)))
    qa = statement_qa(folder, facts)
    qa.facts.put_conflicts([statement_fact("TOTAL_ASSETS", "2024", float(other), source_doc_id=SUMMARY)])
    return answered(qa, question).answer


@settings(max_examples=10, deadline=None)
@given(units=st.integers(1000, 9999), tenth=st.integers(1, 9), coarse_kept=st.booleans())
def test_a_figure_rounded_to_fewer_decimals_is_the_same_amount(folder: Path, units: int, tenth: int,
                                                               coarse_kept: bool) -> None:
    # GIVEN total assets stated as 6437.2 by one document and 6437 by another (either one kept)
    fine = Decimal(units * 10 + tenth).scaleb(-1)
    coarse = fine.quantize(Decimal(1), rounding=ROUND_HALF_UP)
    kept, other = (coarse, fine) if coarse_kept else (fine, coarse)
    # THEN the equity ratio is computed from the kept figure
    answer = _ask(folder, kept, other, "What was the equity ratio in FY2024?")
    expected = (Decimal(1250) / kept * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert f"equity ratio (EQUITY_RATIO): {expected} PCT" in answer
    assert "neither is chosen" not in answer
    # AND the stated line says the other source states the same amount, not that the sources differ
    stated = _ask(folder, kept, other, "What were total assets in FY2024?")
    assert "another source states the same amount" in stated and "The sources differ" not in stated


def test_a_figure_a_whole_unit_off_is_still_another_amount(folder: Path) -> None:
    answer = _ask(folder, Decimal("6437.2"), Decimal("6436"), "What was the equity ratio in FY2024?")
    assert "the sources state different figures for total assets" in answer
    assert "19.42" not in answer  # 1250 / 6437.2 and 1250 / 6436 alike


def test_a_small_figure_at_two_roundings_stays_two_amounts(folder: Path) -> None:
    # 2 beside 2.4: too few digits to say one is the other rounded
    facts = statement_facts(NET_INCOME=statement_fact("NET_INCOME", "2024", 2.4))
    qa = statement_qa(folder, facts)
    qa.facts.put_conflicts([statement_fact("NET_INCOME", "2024", 2, source_doc_id=SUMMARY)])
    answer = answered(qa, "What was net income in FY2024?").answer
    assert "The sources differ" in answer
