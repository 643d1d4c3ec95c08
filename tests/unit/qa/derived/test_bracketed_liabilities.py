"""Liabilities written in brackets (a UK "net assets" balance sheet: ``Current liabilities (239,410)``) enter the
pack's ratios by their size, as outflows do: a current ratio or a debt-to-equity ratio is never negative."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_facts, statement_qa

_EXPECTED = {
    "What was the current ratio in FY2024?": "current ratio (CURRENT_RATIO): 150.00 PCT",  # 900 / 600
    "What was the quick ratio in FY2024?": "quick ratio (QUICK_RATIO): 116.67 PCT",  # (900 - 200) / 600
    "What was the debt-to-equity ratio in FY2024?": "(DEBT_TO_EQUITY): 1.00 TIMES",  # 1250 / 1250
    "What was the debt ratio in FY2024?": "(DEBT_RATIO): 50.00 PCT",  # 1250 / 2500
    "What was net working capital in FY2024?": "(NET_WORKING_CAPITAL): 300 EUR_M",  # 900 - 600
}


@settings(max_examples=4, deadline=None)
@given(current_sign=st.sampled_from([1, -1]), total_sign=st.sampled_from([1, -1]))
def test_liabilities_enter_the_ratios_by_their_size(folder: Path, current_sign: int, total_sign: int) -> None:
    # GIVEN current and total liabilities written as (600) and (1,250), or as 600 and 1,250
    facts = statement_facts(CURRENT_LIABILITIES=statement_fact("CURRENT_LIABILITIES", "2024", current_sign * 600),
                            TOTAL_LIABILITIES=statement_fact("TOTAL_LIABILITIES", "2024", total_sign * 1250))
    qa = statement_qa(folder, facts)
    # THEN every ratio over them is the same, and positive
    for question, expected in _EXPECTED.items():
        answer = answered(qa, question).answer
        assert expected in answer, (question, answer)
        assert ": -" not in answer
