"""A region's share of the group asked in a ratio's words the domain's share cues do not list, through
``ragspine ingest`` and ``answer_question`` on a domain fresh from ``ragspine domain init`` (North and South
under Example Group; its share cues are "share of", "share", 占比 …, not "percentage of" nor "に占める … 割合")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

REPORT = """\
# Regional results

Revenue by region (EUR million):

| Revenue | FY2024 | FY2023 |
| --- | --- | --- |
| North | 300.0 | 280.0 |
| South | 500.0 | 420.0 |
| Group | 800.0 | 700.0 |

Operating margin by region:

| Operating margin | FY2024 |
| --- | --- |
| North | 10% |
| Group | 12% |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "regions", {"regions.md": REPORT})


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(question=st.sampled_from([
    "What percentage of FY2024 revenue did North account for?",
    "What percentage of FY2024 revenue did North account for at Example Group?",
    "What proportion of revenue in FY2024 came from the northern region?",
    "FY2024の売上高に占める北部の割合は何%か",
]))
def test_a_regions_share_of_the_group_in_ratio_words(asked: None, question: str) -> None:
    answer, status = service_answer(question)

    assert status is AnswerStatus.FOUND, answer
    assert "37.5%" in answer, answer  # 300 of 800
    assert "800" in answer and "300" in answer, answer  # both figures it divides, cited


@pytest.mark.parametrize("question", [
    "What was North's revenue in FY2024?",  # no ratio asked
    "What percentage of FY2024 operating margin did North account for?",  # a margin has no share
    "What is North's revenue in FY2024 as a percentage of FY2023?",  # one region over two years
])
def test_no_share_of_the_group_unless_a_part_of_an_additive_figure_is_asked(asked: None, question: str) -> None:
    answer, _ = service_answer(question)

    assert "37.5" not in answer and "% of Example Group" not in answer, answer
