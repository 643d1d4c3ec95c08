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
