"""The month-name check before the dated-cells reader, opened by a lookahead on the months' first letters,
finds exactly what it found without it.

The lookahead only spares ``re`` from trying the case-blind branch at every position; the property
compares the matches (span) with the same pattern written without it, on text made of month names in
any case, their case-folding look-alikes (the long s, the Kelvin sign), digits and other scripts.
The check runs only where the normalised question holds a month's first letters; the second property
shows that it finds nothing elsewhere.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.glossary import normalize_text
from ragspine.qa import answer
from ragspine.qa.dated_periods import holds_month_start

_WITHOUT = re.compile(r"(?<![a-z])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d", re.I)

_PIECES = ["Jan", "jan", "JAN", "Feb.", "feb", "March", "mar", "Apr", "May", "may", "jun", "JUL", "aug", "Sep",
           "ſep", "oct", "Nov", "dec", "DEC", "uary", "ember", "a", "s", "k", "\u212a", "ſ", "x", ".", " ", "  ",
           "1", "31", "2024", ", ", "年", "月", "の", "是多少", "FY", "revenue", "-", "_", "?"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join))
def test_the_month_word_check_finds_what_it_found_without_the_lookahead(text: str) -> None:
    new, old = answer._MONTH_WORD.search(text), _WITHOUT.search(text)
    assert (new and new.span()) == (old and old.span())


_MORE_PIECES = [*_PIECES, "Ｍａｒ", "ＳＥＰ", "\u0301", "\u0327", "İ", "ı", "ﬀ", "\u200b", "gross margin", "Ｄｅｃ 5"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_MORE_PIECES), max_size=10).map("".join))
def test_the_month_word_check_is_skipped_only_where_it_finds_nothing(text: str) -> None:
    # GIVEN text of month names in any case and width, their case-folding look-alikes, combining marks and others
    # WHEN the normalised text holds no month's first letters (the check is then not run)
    # THEN the month-name check finds nothing in the text as written either
    if not holds_month_start(normalize_text(text)):
        assert answer._MONTH_WORD.search(text) is None
