"""Two rows of one section named once beside the glossary metric its heading holds: "cloud and license
revenues from the Americas as compared to Asia Pacific".

A table files regions under a heading ("Subscription revenues:") and again under another ("% of revenues
by region:"); each region is a row of both. A question writing the heading once, then two regions, asks
the two rows under that heading: neither the glossary's revenue (the documents state no such figure)
nor the glossary's own regions, nor the percent rows of the same regions. Asked through
``answer_question`` on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ragspine.facts.glossary import normalize_text
from ragspine.qa.label_words import label_readings
from tests.support.domain_env import ingested_for_module, service_answer
from tests.unit.qa.test_section_rows import glossary_with

REGIONS = """\
# Wrenfield Software annual report

Revenues by region (in millions of US dollars):

| | 2024 | 2023 |
| --- | --- | --- |
| Subscription revenues: | | |
| Americas | 9,410 | 8,720 |
| Europe | 4,150 | 3,980 |
| Japan | 1,260 | 1,105 |
| Total revenues | 14,820 | 13,805 |
| % of revenues by region: | | |
| Americas | 63% | 63% |
| Europe | 28% | 29% |
| Japan | 9% | 8% |
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "section_items_compared", {"wrenfield.md": REGIONS})


def test_two_regions_under_a_heading_named_once_are_that_headings_rows(ingested: None) -> None:
    # WHEN a user names the heading once, then two of its regions
    answer, _ = service_answer(
        "How much more subscription revenues came from Americas as compared to Europe in 2023?")
    # THEN each region's row under that heading answers, cited, never the glossary's revenue or regions
    assert "subscription revenues: americas" in answer and ": 8720" in answer
    assert "subscription revenues: europe" in answer and ": 3980" in answer
    assert "row=Subscription revenues: Americas,col=2023" in answer
    assert "No data" not in answer and "% of revenues" not in answer


@pytest.mark.parametrize(("question", "rows"), [
    ("What were the subscription revenues from Americas as compared to Europe in 2023?",
     ["label:subscription revenues: americas", "label:subscription revenues: europe"]),
    ("What were the subscription revenues from Europe and Japan in 2024?",
     ["label:subscription revenues: europe", "label:subscription revenues: japan"]),
])
def test_the_second_item_is_read_under_the_section_the_first_names(question: str, rows: list[str]) -> None:
    glossary = glossary_with(["Subscription revenues: Americas", "Subscription revenues: Europe",
                              "Subscription revenues: Japan", "% of revenues by region: Americas",
                              "% of revenues by region: Europe", "% of revenues by region: Japan"])
    norm = normalize_text(question)
    read = label_readings(norm, norm, glossary)
    assert [[reading.code for reading in miss.readings] for miss in read] == [[row] for row in rows]
