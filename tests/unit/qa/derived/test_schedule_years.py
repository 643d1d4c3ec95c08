"""A payment schedule's years, however many and whatever they hold: the change, sum and mean asked of them.

Each cell of a schedule whose rows are years is its own row (``2021: operating leases``), undated.
Whichever years a question names, the answer is computed from exactly those cells, each cited.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import UNDATED
from ragspine.qa.answer import QAComponents
from tests.unit.qa.derived.statement_set import DOC, answered, statement_fact, statement_qa_with_labels

YEARS = range(2020, 2026)


def schedule_qa(folder: Path, amounts: list[int]) -> QAComponents:
    """One schedule table: a row per year of ``YEARS`` (and Thereafter), the operating leases column."""
    rows = {**{str(year): amount for year, amount in zip(YEARS, amounts, strict=True)}, "thereafter": 999}
    facts = [statement_fact(f"label:{row}: operating leases", "", value, unit="USD_M", period_type=UNDATED,
                            source_locator=f"table=1,row={row},col=Operating Leases")
             for row, value in rows.items()]
    return statement_qa_with_labels(folder, facts)


amounts_st = st.lists(st.integers(min_value=0, max_value=10**6), min_size=len(YEARS), max_size=len(YEARS))
span_st = st.tuples(st.sampled_from(list(YEARS)), st.sampled_from(list(YEARS))).filter(lambda s: s[0] < s[1])


@settings(max_examples=20, deadline=None)
@given(amounts_st, span_st)
def test_a_sum_over_the_years_named_adds_exactly_their_cells(folder: Path, amounts: list[int],
                                                             span: tuple[int, int]) -> None:
    first, last = span
    result = answered(schedule_qa(folder, amounts), f"What is the sum of operating leases from {first} to {last}?")
    expected = sum(amounts[year - YEARS[0]] for year in range(first, last + 1))
    assert f"falling due in {first}–{last}, sum: {expected} USD_M (sum of {last - first + 1} figures)" \
        in result.answer, result.answer
    cited = result.answer.split("sum:")[1]
    assert all(f"{DOC} · table=1,row={year},col=Operating Leases" in cited for year in range(first, last + 1))
    assert "row=thereafter" not in result.answer, result.answer


@settings(max_examples=20, deadline=None)
@given(amounts_st, span_st)
def test_a_change_between_two_years_is_the_later_cell_minus_the_earlier(folder: Path, amounts: list[int],
                                                                        span: tuple[int, int]) -> None:
    first, last = span
    result = answered(schedule_qa(folder, amounts),
                      f"What was the change in operating leases between {last} and {first}?")
    earlier, later = amounts[first - YEARS[0]], amounts[last - YEARS[0]]
    direction = "up" if later > earlier else "down" if later < earlier else "unchanged"
    line = f"falling due in {last} vs {first} {direction} {abs(later - earlier)} USD_M"
    assert line in result.answer, result.answer
    if earlier:
        percent = (Decimal(later - earlier) / earlier * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert f"{abs(percent)}%）" in result.answer.split(line)[1], result.answer
