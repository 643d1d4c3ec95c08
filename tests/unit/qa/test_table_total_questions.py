"""A question naming the total of what a table lists reaches the table's bare ``Total`` row, cited at its cell.

The tables are read by the real parser and table reader on a glossary fresh from ``domain
init``: a ``Total`` closing a table with no section is stored as the total of what the sentence
before the table names ("Personnel expenses for employees were as follows:"). The question
names it as a filing's reader would ("total personnel expenses", 人件費合計); words that name two
such totals equally are asked back, never answered with either.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.domain.starter import init_domain
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import extract_facts
from ragspine.ingestion.parsers.registry import parse_document
from ragspine.qa.answer import QAComponents, answer_question
from tests.unit.qa.derived.statement_set import statement_qa_with_labels


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    domain = tmp_path_factory.mktemp("table-totals") / "domain"
    init_domain(domain)
    return domain


def _table(lead: str, rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    return f"{lead}\n\n" + "\n".join([*lines, *("| " + " | ".join(row) + " |" for row in rows[1:])]) + "\n\n"


def _qa(folder: Path, *tables: str) -> QAComponents:
    """The facts the tables give (read on the folder's glossary), answered on that folder."""
    text = "# Annual report excerpt\n\n" + "".join(tables)
    doc = parse_document(text.encode(), filename="t.md", doc_id="t.md", max_bytes=1_000_000)
    facts: list[Fact] = list(extract_facts(doc, glossary=read_glossary(folder / GLOSSARY),
                                           source_file_hash="sha256:00").facts)
    return statement_qa_with_labels(folder, facts)


PERSONNEL = _table("Personnel expenses for employees were as follows:", [
    ["", "2019", "2018"], ["Wages and salaries", "191,459", "158,371"], ["Social security", "17,214", "14,802"],
    ["Total", "208,673", "173,173"]])
RESTRUCTURING = _table("Personnel costs of the restructuring were as follows:", [
    ["", "2019", "2018"], ["Severance", "7,169", "7,845"], ["Other", "1,286", "2,802"], ["Total", "8,455", "10,647"]])


def test_total_of_the_tables_subject_is_its_total_row(folder: Path) -> None:
    result = answer_question("What is the change in total personnel expenses from 2018 to 2019?",
                             qa=_qa(folder, PERSONNEL, RESTRUCTURING))

    assert result.slots.as_dict()["metric"] == ["label:total personnel expenses"], result.answer
    assert "up 35500" in result.answer and "table=1,row=Total,col=2019" in result.answer, result.answer
    assert "8455" not in result.answer


def test_words_naming_two_table_totals_alike_are_asked_back(folder: Path) -> None:
    result = answer_question("What was the total personnel in 2019?", qa=_qa(folder, PERSONNEL, RESTRUCTURING))

    assert "total personnel expenses" in result.answer and "total personnel costs of the restructuring" in result.answer
    assert "208673" not in result.answer and "8455" not in result.answer, result.answer


def test_a_japanese_table_total_is_reached_by_its_subject_and_total_word(folder: Path) -> None:
    table = _table("人件費の内訳は次のとおりです。", [["項目", "2018年", "2019年"], ["給与", "120", "130"],
                                                 ["法定福利費", "30", "20"], ["合計", "150", "150"]])

    result = answer_question("2019年の人件費合計は？", qa=_qa(folder, table))

    assert result.slots.as_dict()["metric"] == ["label:人件費合計"], result.answer
    assert "150" in result.answer and "row=合計,col=2019" in result.answer, result.answer


def test_a_total_whose_leading_sentence_is_set_after_its_table_is_reached_by_that_subject(folder: Path) -> None:
    # the extract lists the table first and its paragraphs after it, the sentence that led into it among them
    table = _table("", [["", "2019", "2018"], ["Vacation pay", "1,600", "1,400"], ["Payroll taxes", "150", "110"],
                        ["", "$1,750", "$1,510"]])
    after = "Accrued liabilities at June 30 consisted of the following (in thousands):\n\n"

    result = answer_question("What is the difference in the total accrued liabilities between 2018 and 2019?",
                             qa=_qa(folder, table, after))

    assert result.slots.as_dict()["metric"] == ["label:total accrued liabilities"], result.answer
    assert "up 240" in result.answer and "table=1,row=Total accrued liabilities,col=2019" in result.answer, result.answer


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(places=st.sampled_from(["U.K. and overseas", "U.S. and non-U.S.", "domestic and foreign"]),
       other_sign=st.sampled_from(["(loss)", "(losses)", ""]))
def test_a_total_of_the_components_a_sentence_splits_a_figure_into_is_that_figures_total(
        folder: Path, places: str, other_sign: str) -> None:
    # the parts named before "components of" (where the profit was made) are the rows, not what their total is
    table = _table(f"The following table shows our {places} components of profit {other_sign} before taxation "
                   "(in millions):", [["", "2019", "2018"], ["Home market", "41.5", "38.0"],
                                      ["Abroad", "2.5", "(1.0)"], ["Total", "44.0", "37.0"]])

    result = answer_question("What was the change in total profit before taxation from 2018 to 2019?",
                             qa=_qa(folder, table))

    assert result.slots.as_dict()["metric"] == ["label:total profit before taxation"], result.answer
    assert "up 7" in result.answer and "table=1,row=Total,col=2019" in result.answer, result.answer


def test_a_total_of_a_carrying_amount_keeps_that_measure(folder: Path) -> None:
    table = _table("The carrying amount of acquired trademarks was as follows (in millions):", [
        ["", "2019", "2018"], ["Consumer brands", "80.5", "75.0"], ["Trade brands", "4.0", "4.0"],
        ["Total", "84.5", "79.0"]])

    result = answer_question("What was the total carrying amount of acquired trademarks in 2019?",
                             qa=_qa(folder, table))

    assert result.slots.as_dict()["metric"] == ["label:total carrying amount of acquired trademarks"], result.answer
    assert "84.5" in result.answer and "table=1,row=Total,col=2019" in result.answer, result.answer


@pytest.mark.parametrize("scope", ["Consolidated", "Parent entity"])
def test_a_heading_naming_whose_statements_they_are_leaves_the_total_to_the_sentence(folder: Path, scope: str) -> None:
    # "Consolidated" over the label column says whose figures these are, never what the rows are parts of
    table = _table("Distributions paid to shareholders were as follows:", [
        [scope, "", ""], ["", "2019", "2018"], ["Interim distribution of 5 pence", "10,200", "8,100"],
        ["Final distribution of 7 pence", "12,300", "9,400"], ["", "22,500", "17,500"]])

    result = answer_question("What were the total distributions paid to shareholders in 2019?",
                             qa=_qa(folder, table))

    assert result.slots.as_dict()["metric"] == ["label:total distributions paid to shareholders"], result.answer
    assert "22500" in result.answer and "col=2019" in result.answer, result.answer
