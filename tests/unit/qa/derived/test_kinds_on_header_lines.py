"""A question naming one kind of a table whose kinds are written over two header lines.

The table is read by the real parser and table reader, its facts asked through ``answer_question``:
the kind whose column gives no figure (``Amortized Cost``, its date centred over the other
columns) is never answered with another kind's figure of the same row.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.qa.answer import QAComponents, answer_question
from ragspine.qa.result import AnswerStatus
from tests.support.markdown_facts import markdown_table_facts
from tests.unit.ingestion.tables.test_kinds_on_header_lines import HOLDINGS
from tests.unit.qa.derived.statement_set import statement_qa_with_labels


@pytest.fixture(scope="module")
def qa(folder: Path) -> QAComponents:
    facts = markdown_table_facts(HOLDINGS, "ACME Japan securities available for sale")
    # the company the finance domain answers for when a question names none
    return statement_qa_with_labels(folder, [replace(f, entity="EXAMPLE_GROUP") for f in facts])


def test_a_kind_without_figures_is_not_answered_with_another_kinds(qa: QAComponents) -> None:
    result = answer_question("What was the amortized cost of municipal bonds in 2023?", qa=qa)
    assert not any(figure in result.answer for figure in ("49860", "49,860", "1340", "1,340")), result.answer


def test_the_kind_named_gives_its_own_figure(qa: QAComponents) -> None:
    result = answer_question("What was the fair value of municipal bonds in 2023?", qa=qa)
    assert result.status is AnswerStatus.FOUND and "49860" in result.answer, result.answer
    assert "1340" not in result.answer, result.answer
