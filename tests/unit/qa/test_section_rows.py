"""Rows read under their section heading (``net sales: malaysia``) reached by questions in the words people use.

A question may name the row by its own words ("Malaysia"), by its own words and the section's
("net sales from Malaysia"), or by a glossary metric's words beside the row's ("service
revenue" for ``Revenue: Service``). A row is never taken over the glossary's metric unless its
label holds every word the metric was named by.
"""

from __future__ import annotations

import pytest

from ragspine.facts.glossary import Glossary
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

ROWS = [
    "Net sales: Malaysia", "Net sales: Romania", "Net sales", "Revenue: Service", "Revenue: Product",
    "Cost of sales: Freight", "Current income tax expense: Federal", "Deferred income tax expense: Federal",
    "Weighted-average common shares outstanding: Basic", "Cost of revenue: Hosting",
]


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


GLOSSARY = glossary_with(ROWS)


@pytest.mark.parametrize(("question", "metrics"), [
    ("What was the net sales from Malaysia in 2017?", ("label:net sales: malaysia",)),
    ("What were Romania net sales in 2019?", ("label:net sales: romania",)),
    ("What was Malaysia in 2017?", ("label:net sales: malaysia",)),
    ("What was the service revenue in 2018?", ("label:revenue: service",)),
    ("What was the revenue from product in 2018?", ("label:revenue: product",)),
    ("What was the basic Weighted-average common shares outstanding in 2017?",
     ("label:weighted-average common shares outstanding: basic",)),
    ("What was deferred federal income tax expense in 2019?", ("label:deferred income tax expense: federal",)),
    ("What was the net sales in 2019?", ("label:net sales",)),
    ("What was the revenue in 2019?", ("REVENUE",)),
])
def test_a_row_under_its_section_is_named_by_its_words_and_the_sections(question: str,
                                                                         metrics: tuple[str, ...]) -> None:
    assert parse_slots(question, glossary=GLOSSARY).metrics == metrics


def test_a_glossary_metric_is_never_replaced_by_a_row_of_another_section() -> None:
    # "hosting" is a row of costs: revenue stays asked for, never replaced by the cost row
    assert "REVENUE" in parse_slots("What was the hosting revenue in 2018?", glossary=GLOSSARY).metrics
    assert "REVENUE" in parse_slots("What was freight revenue in 2018?", glossary=GLOSSARY).metrics


def test_a_row_the_table_states_under_two_sections_is_never_chosen_by_its_own_words() -> None:
    parsed = parse_slots("What was Federal in 2019?", glossary=GLOSSARY)
    assert not any(code.endswith("federal") for code in parsed.metrics)


def test_a_row_of_a_section_headed_by_the_metric_is_named_with_the_metric_words() -> None:
    glossary = glossary_with(["Revenue from external customers by country: UK",
                              "Revenue from external customers by country: USA"])
    assert parse_slots("What is the Revenue from UK in 2019?", glossary=glossary).metrics == (
        "label:revenue from external customers by country: uk",)


def test_a_section_named_beside_its_row_is_no_unknown_name() -> None:
    glossary = glossary_with(["Weighted-average common shares outstanding: Basic",
                              "Weighted-average common shares outstanding: Diluted"])
    parsed = parse_slots("What was the basic Weighted-average common shares outstanding in 2017?", glossary=glossary)
    assert parsed.metrics == ("label:weighted-average common shares outstanding: basic",)
    assert parsed.unknown_names == ()


def test_of_two_sections_the_one_the_question_names_whole_is_taken() -> None:
    glossary = glossary_with(["Revenue: Software delivery, support and maintenance",
                              "Cost of revenue: Software delivery, support and maintenance"])
    parsed = parse_slots("What was the Software delivery, support and maintenance revenue in 2018?", glossary=glossary)
    assert parsed.metrics == ("label:revenue: software delivery, support and maintenance",)
    parsed = parse_slots("What was the cost of revenue for software delivery, support and maintenance in 2018?",
                         glossary=glossary)
    assert parsed.metrics == ("label:cost of revenue: software delivery, support and maintenance",)
