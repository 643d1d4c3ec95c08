"""Which questions' one word "total" names a row's stated total rather than a sum (``qa/undated.py``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ragspine.qa.arithmetic_cues import NO_ARITHMETIC, Arithmetic
from ragspine.qa.undated import names_a_stated_total


def test_the_one_word_total_names_a_stated_total() -> None:
    assert names_a_stated_total(replace(NO_ARITHMETIC, period_sum=1, sum_words=1))
    assert names_a_stated_total(replace(NO_ARITHMETIC, period_sum=1, sum_words=1, places=2))


@pytest.mark.parametrize("arithmetic", [
    NO_ARITHMETIC,
    replace(NO_ARITHMETIC, period_sum=2, sum_words=2),  # "the total of the totals"
    replace(NO_ARITHMETIC, period_sum=1, sum_words=1, add=True),  # "the total of A and B"
    replace(NO_ARITHMETIC, period_sum=1, sum_words=1, average=True),
    replace(NO_ARITHMETIC, period_sum=1, sum_words=1, subtract=True),
])
def test_any_other_arithmetic_is_a_sum_or_nothing(arithmetic: Arithmetic) -> None:
    assert not names_a_stated_total(arithmetic)
