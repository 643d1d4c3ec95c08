"""A row label closing a bracket it never opened (a footnote mark written "1)"), through ``ragspine ingest`` and
``answer_question``: its figures are answered and cited, not withheld for the numbers of its own locator."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_in_fresh_domain, service_answer

REPORT = """\
# Annual report

|  | 2019 | 2018 |
| --- | --- | --- |
| EUR million | 53 weeks | 52 weeks |
| Revenue | 8,657 | 8,244 |
| Adjusted EBITDA 1) | 579 | 603 |
| Sales per square metre ($)$) | 18,675 | 18,094 |

1) Before special items.
"""


@pytest.fixture
def asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from ingested_in_fresh_domain(monkeypatch, tmp_path, {"report.md": REPORT})


@pytest.mark.parametrize(("question", "mean"), [
    ("What is the average adjusted EBITDA for 2019 and 2018?", "591"),
    ("What is the average value for sales per square metre for both 2019 and 2018?", "18384.5"),
])
def test_a_label_with_an_unopened_bracket_is_answered_with_its_figures(asked: None, question: str,
                                                                      mean: str) -> None:
    answer, status = service_answer(question)
    assert status is AnswerStatus.FOUND, answer
    assert "could not be traced" not in answer, answer
    assert f"average: {mean} " in answer, answer
    assert "col=2019/53 weeks" in answer, answer
