"""The month-name check before the dated-cells reader, opened by a lookahead on the months' first letters,
finds exactly what it found without it.

The lookahead only spares ``re`` from trying the case-blind branch at every position; the property
compares the matches (span) with the same pattern written without it, on text made of month names in
any case, their case-folding look-alikes (the long s, the Kelvin sign), digits and other scripts.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa import answer

_WITHOUT = re.compile(r"(?<![a-z])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d", re.I)

_PIECES = ["Jan", "jan", "JAN", "Feb.", "feb", "March", "mar", "Apr", "May", "may", "jun", "JUL", "aug", "Sep",
           "ſep", "oct", "Nov", "dec", "DEC", "uary", "ember", "a", "s", "k", "\u212a", "ſ", "x", ".", " ", "  ",
           "1", "31", "2024", ", ", "年", "月", "の", "是多少", "FY", "revenue", "-", "_", "?"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join))
def test_the_month_word_check_finds_what_it_found_without_the_lookahead(text: str) -> None:
    new, old = answer._MONTH_WORD.search(text), _WITHOUT.search(text)
    assert (new and new.span()) == (old and old.span())
