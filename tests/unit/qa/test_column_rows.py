"""A row named once beside the columns asked reads each column's cell of that row, never the total column.

The table built here is a roll-forward whose columns are product lines: its rows are read as
``<column>: <row>`` (``pumps: closing reserve``), and the ``Total`` column keeps the bare label
(``closing reserve``). Questions name the row once and the columns apart, as people write them.
A second table is the other way round: ``Expected costs`` and ``Costs incurred`` columns over division
rows, read as ``expected costs: harbour services``, the ``Total`` row as the bare heading; questions
name the heading once and the divisions apart.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.answer import QAComponents
from ragspine.qa.column_rows import with_column_rows
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import answered, finance_domain, statement_fact, statement_qa_with_labels

COLUMNS = {"pumps": 1200.0, "valves": 450.0, "field service": 310.0, "change": 25.0}
ROWS = ("closing reserve", "claims settled")
DIVISIONS = {"harbour services": 640.0, "rail services": 415.0, "air services": 90.0}
DIVISION_LABELS = [f"{heading}: {division}" for heading in ("expected costs", "costs incurred")
                   for division in DIVISIONS] + ["expected costs", "costs incurred"]
GLOSSARY = with_open_terms(default_glossary(), [
    (code, default_glossary().home_entity)
    for code in (open_metric_code(f"{column}: {row}") for column in COLUMNS for row in ROWS)
    if code] + [(code, default_glossary().home_entity) for code in (open_metric_code(r) for r in ROWS) if code]
    + [(code, default_glossary().home_entity) for code in map(open_metric_code, DIVISION_LABELS) if code])


def fact(label: str, value: float) -> Fact:
    column, _, row = label.rpartition(": ")
    return statement_fact(f"label:{label}", "2024", value, unit="EUR_K",
                          source_locator=f"table=1,row={row},col={column or 'Total'}")


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    folder = finance_domain(tmp_path_factory.mktemp("finance") / "domain")
    facts = [fact(f"{column}: closing reserve", value) for column, value in COLUMNS.items()]
    facts += [fact("closing reserve", sum(COLUMNS.values())), fact("pumps: claims settled", 95.0),
              fact("claims settled", 140.0)]
    facts += [fact(f"expected costs: {division}", value) for division, value in DIVISIONS.items()]
    facts += [fact(f"costs incurred: {division}", value / 2) for division, value in DIVISIONS.items()]
    facts += [fact("expected costs", sum(DIVISIONS.values())), fact("costs incurred", sum(DIVISIONS.values()) / 2)]
    return statement_qa_with_labels(folder, facts)


@settings(max_examples=40)
@given(ask=st.sampled_from([
    "For the closing reserve in 2024, what is the difference between {a} and {b}?",
    "What was the closing reserve in 2024 for {a} and {b}?",
    "What is the ratio of {a} to {b} of the closing reserve in fiscal 2024?",
    "Closing reserve 2024: {a} versus {b}",
]), pair=st.permutations(sorted(set(COLUMNS) - {"change"})).map(lambda p: p[:2]), upper=st.booleans())
def test_each_column_named_reads_its_own_row(ask: str, pair: list[str], upper: bool) -> None:
    a, b = pair
    question = ask.format(a=a.title() if upper else a, b=b.title() if upper else b)
    parsed = parse_slots(question, glossary=GLOSSARY)
    assert parsed.metrics == (f"label:{a}: closing reserve", f"label:{b}: closing reserve")


def test_the_difference_between_two_columns_is_computed_from_their_cells(qa: QAComponents) -> None:
    first = answered(qa, "For the closing reserve in 2024, what is the difference between Pumps and "
                         "Valves?").answer.splitlines()[0]
    assert ": 750.0 EUR_K (pumps" in first
    assert "col=pumps" in first and "col=valves" in first
    assert "col=Total" not in first


def test_the_average_of_three_columns_is_their_mean(qa: QAComponents) -> None:
    first = answered(qa, "What is the average closing reserve in 2024 for pumps, valves and field "
                         "service?").answer.splitlines()[0]
    assert "653.33" in first and "mean of 3 figures" in first


def test_a_label_named_twice_stays_as_written() -> None:
    # which "closing reserve" the columns go with is open: nothing is rewritten
    question = "What is the closing reserve of pumps and valves over the total closing reserve in 2024?"
    parsed = parse_slots(question, glossary=GLOSSARY)
    assert "label:pumps: closing reserve" not in parsed.metrics


def test_a_word_no_column_of_the_row_holds_is_not_read_as_one() -> None:
    parsed = parse_slots("What was the closing reserve for compressors and valves in 2024?", glossary=GLOSSARY)
    assert "label:compressors: closing reserve" not in parsed.metrics
    assert "label:valves: closing reserve" in parsed.metrics


def test_a_column_written_before_its_row_is_read_as_before() -> None:
    parsed = parse_slots("What were the pumps claims settled in 2024?", glossary=GLOSSARY)
    assert parsed.metrics == ("label:pumps: claims settled",)



def test_a_column_named_by_a_word_asking_for_arithmetic_is_not_read_for_it() -> None:
    # a "Change" column beside the parts: the question's "change" asks a change, it names no column's cell
    question = "For the closing reserve, what is the change for pumps between 2023 and 2024?"
    written = with_column_rows(question, GLOSSARY.scan(question), GLOSSARY)
    assert written == "For the , what is the change for pumps closing reserve between 2023 and 2024?"


@settings(max_examples=30)
@given(ask=st.sampled_from([
    "What was the difference in expected costs between {a} and {b} in 2024?",
    "For 2024, what is the difference in the expected costs of {a} and {b}?",
    "What is the ratio of expected costs in 2024 between {a} and {b}?",
]), pair=st.permutations(sorted(DIVISIONS)).map(lambda p: p[:2]), upper=st.booleans())
def test_a_heading_named_once_reads_each_row_named_apart(ask: str, pair: list[str], upper: bool) -> None:
    a, b = pair
    question = ask.format(a=a.title() if upper else a, b=b.title() if upper else b)
    parsed = parse_slots(question, glossary=GLOSSARY)
    assert parsed.metrics == (f"label:expected costs: {a}", f"label:expected costs: {b}")


def test_the_gap_of_two_rows_under_a_heading_named_once_is_computed_from_their_cells(qa: QAComponents) -> None:
    first = answered(qa, "What was the difference in expected costs between Harbour Services and Rail "
                         "Services in 2024?").answer.splitlines()[0]
    assert ": 225.0 EUR_K (expected costs: harbour services" in first
    assert "row=harbour services" in first and "row=rail services" in first
    assert "col=Total" not in first


def test_the_total_named_beside_a_column_is_the_total_columns_cell(qa: QAComponents) -> None:
    first = answered(qa, "For the closing reserve in 2024, what is the difference between valves and the "
                         "total?").answer.splitlines()[0]
    assert ": 1535.0 EUR_K" in first  # 1985 in total, 450 of valves
    assert "col=valves" in first and "col=Total" in first


def test_a_total_asked_of_the_columns_named_is_no_column() -> None:
    # "the total of pumps and valves" asks their sum: "total" is not named beside them as a column
    question = "What is the total closing reserve of pumps and valves in 2024?"
    written = with_column_rows(question, GLOSSARY.scan(question), GLOSSARY)
    assert written == "What is the total of pumps closing reserve and valves closing reserve in 2024?"
