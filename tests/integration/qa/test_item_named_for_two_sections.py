"""A row's item named once for two sections: "the total easements and other for both definite-lived and
indefinite-lived intangible assets".

A table files the same line item under two section headings ("Easements and other" under
"Definite-lived intangible assets" and again under "Indefinite-lived intangible assets"). A question
naming the item once, then the two sections, asks that item's row under each; "the total … for both
A and B" asks their sum, computed and citing both rows. Naming the item with one section reads that
section's row alone, and naming it with no section is asked back (neither row is guessed). Asked
through ``answer_question`` on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

INTANGIBLES = """\
# Harrowgate Utilities annual report

Net carrying amount of identifiable intangible assets at December 31 (in millions of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Definite-lived intangible assets | | |
| Customer contracts | 609.6 | 644.8 |
| Easements and other | 3.7 | 3.2 |
| Total | 613.3 | 648.0 |
| Indefinite-lived intangible assets | | |
| Licences | 4.1 | 4.1 |
| Easements and other | 22.8 | 21.5 |
| Total intangible assets | 640.2 | 673.6 |

Easements are amortized over their contractual lives.
"""

DEFINITE = "row=Definite-lived intangible assets: Easements and other,col=2024"
INDEFINITE = "row=Indefinite-lived intangible assets: Easements and other,col=2024"


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "item_for_two_sections", {"harrowgate.md": INTANGIBLES})


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["What is the total easements and other for both {a} and {b} intangible assets in 2024?",
                        "What is the total easements and other in both {a} and {b} intangible assets in 2024?",
                        "What was the total easements and other of both {a} intangible assets and {b} intangible "
                        "assets in 2024?"]))
def test_the_total_for_both_sections_adds_the_items_row_under_each(ingested: None, wording: str) -> None:
    # WHEN a user names an item once and asks its total for both sections it is filed under
    answer, status = service_answer(wording.format(a="definite-lived", b="indefinite-lived"))
    # THEN the two rows are added up, each cited, and neither section's total row stands in
    assert status is AnswerStatus.FOUND, answer
    assert ": 26.5 USD_M（计算自：" in answer, answer
    assert DEFINITE in answer and INDEFINITE in answer, answer
    assert "613.3" not in answer and "640.2" not in answer, answer


def test_the_item_for_two_sections_without_a_sum_gives_each_row(ingested: None) -> None:
    answer, _ = service_answer("What is the easements and other for definite-lived and indefinite-lived intangible "
                               "assets in 2023?")
    assert "easements and other): 3.2 USD_M（来源：" in answer, answer
    assert "easements and other): 21.5 USD_M（来源：" in answer, answer
    assert "24.7" not in answer, answer


def test_the_item_for_one_section_reads_that_row_alone(ingested: None) -> None:
    answer, _ = service_answer("What is the easements and other for indefinite-lived intangible assets in 2024?")
    assert "22.8 USD_M（来源：" in answer and INDEFINITE in answer, answer
    assert "3.7" not in answer and "26.5" not in answer, answer


def test_the_item_with_no_section_is_asked_back(ingested: None) -> None:
    answer, status = service_answer("What is the total easements and other in 2024?")
    assert status is not AnswerStatus.FOUND, answer
    assert "26.5" not in answer and "3.7 USD_M" not in answer and "22.8 USD_M" not in answer, answer
