"""The "how many" patterns of the count and stated-year readers, opened by a lookahead on their first
characters, find exactly what they found without it.

The lookahead only spares ``re`` from trying every branch at every position; each property
compares the patterns' matches (span and groups) with the same alternation written without it,
on text made of the patterns' own words, their look-alikes and other scripts.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa import count_asks, stated_years

_COUNT_WITHOUT = re.compile(
    r"(?<![a-z])how many (?:of the )?(?:(?P<years>(?:fiscal )?years?)|(?P<quarters>quarters?))"
    r"(?![a-z])|(?:几|幾|多少)(?:个)?(?:(?P<zh_years>年)|(?P<zh_quarters>季度|四半期))")
_STATED_WITHOUT = re.compile(r"(?<![a-z])how many(?![a-z])|几个|多少个|いくつ")

_PIECES = ["how many ", "how many", "show many ", "how", " many", "of the ", "fiscal ", "years", "year", "quarters",
           "quarter", "几", "幾", "多少", "个", "年", "季度", "四半期", "いくつ", "いく", "つ", "h", "a", " ", "s", "?",
           "did revenue exceed 5%", "的", "の", "2024", "-", "_"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join), st.integers(0, 5))
def test_the_count_reader_finds_what_it_found_without_the_lookahead(text: str, start: int) -> None:
    new, old = count_asks._HOW_MANY.search(text, start), _COUNT_WITHOUT.search(text, start)
    assert (new and (new.span(), new.groupdict())) == (old and (old.span(), old.groupdict()))


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join))
def test_the_stated_year_reader_finds_what_it_found_without_the_lookahead(text: str) -> None:
    new, old = stated_years._HOW_MANY.search(text), _STATED_WITHOUT.search(text)
    assert (new and new.span()) == (old and old.span())
