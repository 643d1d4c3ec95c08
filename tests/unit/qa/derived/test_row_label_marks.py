"""Row labels as a question names them: a dot leader's dot is no part of a name, a balance's date tells its rows apart.

A converted report leaves the dot of a dot leader after some labels ("Grocery & Snacks ."); the
row is still "Grocery & Snacks", read and cited as such. A roll-forward's balance rows differ by
their date alone ("Balance at 31 March", "Balance at 31 December"): a question writing one of
the dates reads that row and never the other; a date no row writes reads neither.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.model import Fact
from ragspine.facts.open_vocabulary import open_metric_code
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from ragspine.qa.answer import QAComponents
from tests.unit.qa.derived.statement_set import answered, statement_fact, statement_qa_with_labels

SEGMENTS = """# Net sales by product line

| (in thousands) | 2019 | 2018 |
| --- | --- | --- |
| Licences . | 1,200 | 1,000 |
| Maintenance . | 300 | 250 |
| Net sales . | 1,500 | 1,250 |
"""


def segments_facts(folder: Path) -> list[Fact]:
    """The table read by the real parser and table reader with the domain folder's glossary."""
    doc = parse_document(SEGMENTS.encode(), filename="lines.md", doc_id="lines.md", max_bytes=1_000_000)
    return list(extract_facts(doc, glossary=read_glossary(folder / GLOSSARY), source_file_hash="sha256:00").facts)


class TestDotLeaders:
    def test_the_labels_are_read_without_the_dot(self, folder: Path) -> None:
        labels = {f.metric_code for f in segments_facts(folder)}
        assert {"label:licences", "label:maintenance"} <= labels, labels
        assert not any(label.endswith(".") for label in labels), labels

    def test_a_sum_of_two_such_rows_is_computed_and_cited(self, folder: Path) -> None:
        qa = statement_qa_with_labels(folder, segments_facts(folder))
        result = answered(qa, "What is the sum of licences and maintenance in 2019?")
        assert ": 1500 " in result.answer and "（计算自：" in result.answer, result.answer
        assert "row=Licences,col=2019" in result.answer, result.answer

    def test_the_row_named_as_written_is_read_beside_words_of_another_row(self, folder: Path) -> None:
        # "sale" is a word of the net sales row; "licences" names its own row as written, without the dot
        qa = statement_qa_with_labels(folder, segments_facts(folder))
        result = answered(qa, "What is the net difference in sale of licences between 2018 and 2019?")
        assert "licences (label:licences): FY2019 vs FY2018 up 200 " in result.answer, result.answer
        assert "row=Licences,col=2018" in result.answer, result.answer

    def test_a_change_of_such_a_row_is_computed(self, folder: Path) -> None:
        qa = statement_qa_with_labels(folder, segments_facts(folder))
        result = answered(qa, "What is the percentage change in maintenance from 2018 to 2019?")
        assert "FY2019 vs FY2018 up 50 " in result.answer and "（+20.00%）" in result.answer, result.answer


def code(label: str) -> str:
    found = open_metric_code(label)
    assert found is not None
    return found


def balances_qa(folder: Path, first: str, second: str) -> QAComponents:
    facts = [statement_fact(code(first), "2019", 640, unit="USD_K"), statement_fact(code(first), "2018", 610, unit="USD_K"),
             statement_fact(code(second), "2019", 537, unit="USD_K"),
             statement_fact(code(second), "2018", 656, unit="USD_K"),
             statement_fact(code("Additions"), "2019", 40, unit="USD_K")]
    return statement_qa_with_labels(folder, facts)


class TestBalancesNamedByTheirDate:
    @pytest.mark.parametrize("question", ["What was the balance at 31 December 2019?",
                                          "What was the balance as of December 31, 2019?"])
    def test_the_date_written_reads_its_row(self, folder: Path, question: str) -> None:
        result = answered(balances_qa(folder, "Balance at 31 March", "Balance at 31 December"), question)
        assert "537 USD_K（来源：" in result.answer, result.answer
        assert "640" not in result.answer, result.answer

    def test_a_change_between_two_years_is_of_the_row_dated_as_asked(self, folder: Path) -> None:
        result = answered(balances_qa(folder, "Balance at 31 March", "Balance at 31 December"),
                          "What is the percentage change in the balance at 31 March from 2018 to 2019?")
        assert "FY2019 vs FY2018 up 30 USD_K（+4.92%）（计算自：" in result.answer, result.answer

    def test_a_date_of_no_row_reads_neither(self, folder: Path) -> None:
        # the day is the first row's, the month the second's: neither row is the one asked
        result = answered(balances_qa(folder, "Balance at 1 January", "Balance at 31 December"),
                          "What was the balance at 1 December 2019?")
        assert "640" not in result.answer and "537" not in result.answer, result.answer
