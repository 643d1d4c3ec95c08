"""A citation closes at the bracket balancing its opening one, even where its locator was cut short."""

from __future__ import annotations

import unicodedata
from typing import Literal

import pytest

from ragspine.qa.citation_spans import citations
from ragspine.qa.provenance import check_numbers

CUT = "tatqa_168.md · table=1,row=Final dividend for the year ended 30 June 2018 of AU 14 cents (2017: AU 12 cent…,col=2018"


@pytest.mark.parametrize("form", ["NFC", "NFKC"])  # NFKC writes the ellipsis as three dots
def test_a_locator_cut_inside_a_bracket_still_closes_its_citation(form: Literal["NFC", "NFKC"]) -> None:
    text = unicodedata.normalize(form, f"FY2018 final dividend: 12534（来源：{CUT}）; FY2019: 13327")
    found = citations(text)
    assert [c.label for c in found] == ["来源"]
    assert text[found[0].end:] == "; FY2019: 13327"
    assert check_numbers(text, allowed=frozenset({"2018", "12534", "2019", "13327"})).ok


def test_a_bracket_of_a_whole_row_label_still_nests() -> None:
    text = "5（来源：doc.md · row=Carrying amount (non-current (liabilities)/assets)）after"
    assert text[citations(text)[0].end:] == "after"


def test_an_unclosed_citation_stays_a_claim() -> None:
    assert check_numbers("12534（来源：doc.md · row=7", allowed=frozenset({"12534"})).unsupported == ("7",)


def test_a_label_closing_a_bracket_it_never_opened_keeps_its_locator_in_the_citation() -> None:
    row = "row=Sales per square metre ($)$)"
    text = (f"average: 18384.5（计算自：a.md · table=1,{row},col=F19/53 WEEKS；a.md · table=1,{row},col=F18 (3)/52 WEEKS）"
            "\nFY2019: 18675")
    found = citations(text)
    assert len(found) == 1 and text[found[0].end:] == "\nFY2019: 18675"
    assert check_numbers(text, allowed=frozenset({"18384.5", "2019", "18675"})).ok


def test_prose_after_a_citation_closing_an_unopened_bracket_stays_a_claim() -> None:
    text = "up 5（来源：a.md · row=Total）, and 7 more)"
    assert text[citations(text)[0].end:] == ", and 7 more)"
    assert check_numbers(text, allowed=frozenset({"5"})).unsupported == ("7",)
