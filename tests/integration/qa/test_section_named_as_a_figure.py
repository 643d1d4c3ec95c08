"""A table's section heading named as a figure, through ``answer_question`` and ``POST /v1/ask``: the heading's
total row, cited; never the glossary's revenue its words hold, never the total where a row of it is named, and a
bare "revenue" still the company's revenue."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.qa.result import AnswerStatus
from tests.support.domain_env import ingested_for_module, service_answer

BREAKDOWN = """\
# Net revenues

Net revenues were as follows (in millions):

| | 2024 | 2023 | 2022 |
| --- | --- | --- | --- |
| Net revenues by customer location | | | |
| Europe | 1,200 | 1,100 | 1,000 |
| North America | 800 | 700 | 650 |
| Total revenues | 2,000 | 1,800 | 1,650 |
| Net revenues by product family | | | |
| Sensors | 1,500 | 1,300 | 1,200 |
| Controllers | 500 | 500 | 450 |
| Total revenues | 2,000 | 1,800 | 1,650 |
"""


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    yield from ingested_for_module(tmp_path_factory, "headings", {"revenues.md": BREAKDOWN})


class TestSectionNamedAsAFigure:
    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(heading=st.sampled_from(["Net revenues by customer location", "net revenues by customer location"]),
           ask=st.sampled_from(["What is the average of {}?", "What was the average {}?"]))
    def test_the_heading_reads_as_its_total_row(self, asked: None, heading: str, ask: str) -> None:
        # GIVEN a table whose rows are filed under headings that say more than "revenue"
        # WHEN a question names one heading, and none of its rows, as a figure
        answer, status = service_answer(ask.format(heading))

        # THEN the heading's total row answers, each year's cell cited
        assert status is AnswerStatus.FOUND, answer
        assert "FY2022–FY2024 average: 1816.67" in answer, answer
        for year in ("2022", "2023", "2024"):
            assert f"revenues.md · table=1,row=Net revenues by customer location: Total revenues,col={year}" in answer

    def test_the_heading_is_read_through_the_api(self, asked: None) -> None:
        from ragspine.api.app import create_local_app
        from ragspine.api.deps import services as services_dep
        from ragspine.bootstrap import get_services

        app = create_local_app()
        app.dependency_overrides[services_dep] = get_services
        response = TestClient(app).post(
            "/v1/ask", json={"question": "What was net revenues by product family in 2023?"})

        assert response.status_code == 200, response.text
        body = response.json()
        assert body["status"] == "found", body
        assert body["slots"]["metric"] == ["label:net revenues by product family: total revenues"], body
        assert "1800" in body["answer"], body
        assert {"doc": "revenues.md", "locator": "table=1,row=Net revenues by product family: Total revenues,col=2023"} \
            in body["sources"], body

    def test_a_row_named_beside_its_heading_is_never_read_as_the_total(self, asked: None) -> None:
        answer, _ = service_answer("How much more net revenues by customer location came from Europe than "
                                   "North America in 2024?")

        assert "Total revenues,col=2024" not in answer, answer
        assert "2000" not in answer, answer

    def test_a_bare_revenue_is_not_read_as_a_heading(self, asked: None) -> None:
        answer, _ = service_answer("What was revenue in 2024?")

        assert "by customer location: total revenues" not in answer.lower(), answer
