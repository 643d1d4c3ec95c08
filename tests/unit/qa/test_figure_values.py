"""The structured answer's sourced figures, read one by one and remembered, allow exactly what reading them joined did."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import format_number
from ragspine.qa.provenance import figure_values, numbers_in

_VALUES = st.one_of(st.integers(min_value=-10**12, max_value=10**12),
                    st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False))
_COMPUTED = st.sampled_from(["12.5%", "-3.2", "1.2万", "+7", "0.05", "3", "48億", "1,320"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_VALUES.map(format_number), _COMPUTED), min_size=1, max_size=6))
def test_figures_read_one_by_one_allow_what_the_joined_figures_allow(figures: list[str]) -> None:
    assert frozenset().union(*map(figure_values, figures)) == numbers_in("\n".join(figures))


def test_a_figure_is_read_once_per_process() -> None:
    figure_values.cache_clear()
    for _ in range(3):
        figure_values("672")
    info = figure_values.cache_info()
    assert (info.misses, info.hits) == (1, 2)
