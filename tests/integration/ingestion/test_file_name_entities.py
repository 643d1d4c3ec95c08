"""A document stating no company anywhere but in its file name, through ``ragspine ingest`` and ``answer_question``.

``North_Results_2024.md`` names the glossary's entity North by its alias, with underscores for
spaces: its tables are North's, never the home group's, so the group's revenue is not answered
with North's figure. A file name naming two entities says nothing of which one a table is about.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_in_fresh_domain, service_answer

TABLE = """\
# Results

|  | 2024 | 2023 |
| --- | --- | --- |
| Revenue | {this} | {last} |
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {
        "North_Results_2024.md": TABLE.format(this="1,284.6", last="1,190.2"),
        "north-south_comparison_2024.md": TABLE.format(this="777.7", last="666.6"),
    })


@pytest.mark.parametrize("question", ["What was North's revenue in 2024?", "What was the northern region's revenue "
                                      "in 2024?", "2024年北区的营业收入是多少？"])
def test_the_entity_a_file_name_names_files_its_tables(asked: None, question: str) -> None:
    answer, status = service_answer(question)
    assert status is AnswerStatus.FOUND, answer
    assert "1284.6" in answer and "North_Results_2024.md" in answer, answer


def test_the_home_group_is_not_answered_with_the_figure_of_the_entity_the_file_names(asked: None) -> None:
    answer, _ = service_answer("What was the group's revenue in 2024?")
    assert "1284.6" not in answer, answer


def test_a_file_name_naming_two_entities_files_its_tables_under_neither(asked: None) -> None:
    answer, _ = service_answer("What was the group's revenue in 2024?")
    assert "777.7" in answer, answer
    answer, _ = service_answer("What was South's revenue in 2024?")
    assert "777.7" not in answer, answer
