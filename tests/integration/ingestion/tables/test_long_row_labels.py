"""A row whose own label runs past 100 characters still states its figures, one phrase long.

Hedge notes name a line item by where it is presented ("Total finance costs, net presented in the
consolidated statement of profit or loss in which the effects of fair value hedges are recorded"):
a label of 137 characters beside three years' figures. It is the row's line item, read as a metric
of the document's own, and a question naming it (whole or by its first words) is answered with its
figures, each cited. A cell that holds more than one sentence is text, not a line item, and states
no figure. Asked through ``answer_question`` on a domain fresh from ``domain init``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.domain_env import ingested_for_module, service_answer
from tests.support.markdown_facts import markdown_table_facts

LONG_LABEL = ("Total finance costs, net presented in the consolidated statement of profit or loss in which the effects "
              "of fair value hedges are recorded")

HEDGES = f"""\
# Fernbrook Logistics annual report

The effect of the Company's cash flow hedges on other comprehensive income and earnings (in millions of US dollars):

| | 2024 | 2023 | 2022 |
| --- | --- | --- | --- |
| {LONG_LABEL} | $212 | $205 | $198 |
| Amount recognized in other comprehensive income | $(31) | $(12) | $8 |

The Company expects to reclassify gains of $2 million into earnings during the next 12 months.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "long_row_labels", {"fernbrook.md": HEDGES})


def test_the_change_of_a_long_labelled_row_is_computed_from_its_cells(ingested: None) -> None:
    assert len(LONG_LABEL) > 100
    # WHEN a user asks the change of the row, naming it as the table writes it
    answer, _ = service_answer(f"What was the change in {LONG_LABEL} between 2022 and 2023?")
    # THEN the change is computed from the row's two cells, both cited
    assert "FY2023 vs FY2022 up 7 USD_M（+3.54%）（计算自：" in answer, answer
    assert answer.count("row=Total finance costs net presented in the consolidated") >= 2, answer


def test_a_long_labelled_row_is_read_by_its_first_words(ingested: None) -> None:
    answer, _ = service_answer("What was the total finance costs in 2024?")
    assert ": 212 USD_M（来源：" in answer and "col=2024" in answer, answer


@pytest.mark.parametrize("label", [
    LONG_LABEL.replace(" in which", ". The amounts in which"),  # two sentences: text, no line item
    f"{LONG_LABEL}, together with the amounts reclassified from accumulated other comprehensive loss",  # > 160
])
def test_a_cell_of_sentences_or_of_a_paragraphs_length_states_no_figure(label: str) -> None:
    facts = markdown_table_facts([["", "2024", "2023"], [label, "212", "205"], ["Amount recognized", "(31)", "(12)"]],
                                 "Hedges (in millions of US dollars)")
    assert facts, "the short row beside it is read"
    assert all("finance costs" not in fact.metric_code for fact in facts), facts
