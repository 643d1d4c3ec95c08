"""On the ACME domain, "outside our business" means outside the domain *and* the ingested documents.

Before: after ingesting one's own filings, "What did AMCOR report for Adjusted EBITDA?" was
refused with "outside ACME's business knowledge" before any channel ran, and every question
on an off-topic subject (electric cars) was refused although the documents were about it.
Each test ingests a small document with ``ragspine ingest`` and asks through
``answer_question`` and ``POST /v1/ask``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.qa.answer import answer_question
from ragspine.settings import Settings, get_settings
from tests.support.process_caches import close_services

runner = CliRunner()
FILING = """# Amcor FY2023 results

Amcor reported Adjusted EBITDA of 2,018 million US dollars for FY2023, up from 1,957 million a year earlier.

## Electric cars

Amcor supplies battery packaging to makers of electric cars; that product line grew strongly in FY2023.
"""
Ask = Callable[[str], dict[str, Any]]


@pytest.fixture(params=["answer_question", "/v1/ask"])
def ask(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Ask]:
    def engine(question: str) -> dict[str, Any]:
        from ragspine.api.schemas import AskResponse

        return AskResponse.from_result(answer_question(question, qa=get_services().qa)).model_dump(mode="json")

    def http(question: str) -> dict[str, Any]:
        from ragspine.api.app import create_local_app

        response = TestClient(create_local_app()).post("/v1/ask", json={"question": question})
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    yield engine if request.param == "answer_question" else http
    close_services()


def _ingest(tmp_path: Path) -> None:
    filing = tmp_path / "Amcor_FY2023_Results.md"
    filing.write_text(FILING, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(filing), "--library", "financial_reports"])
    assert result.exit_code == 0, result.output
    close_services()  # a fresh process would start here


def test_an_ingested_company_is_in_scope(ask: Ask, tmp_path: Path) -> None:
    question = "How did AMCOR's Adjusted EBITDA develop?"
    refused = ask(question)
    assert (refused["route"], refused["refusal_reason"]) == ("refused", "OUT_OF_SCOPE")
    _ingest(tmp_path)
    body = ask(question)
    assert body["route"] == "narrative" and body["refusal_reason"] is None
    assert "Adjusted EBITDA of 2,018 million" in body["answer"]
    assert ("Amcor_FY2023_Results.md", "heading=Amcor FY2023 results,para=1") in [
        (s["doc"], s["locator"]) for s in body["sources"]]


def test_the_issue_question_reaches_the_channels_once_the_filing_is_ingested(ask: Ask, tmp_path: Path) -> None:
    question = "What was AMCOR's Adjusted EBITDA for FY 2023?"
    assert ask(question)["refusal_reason"] == "OUT_OF_SCOPE"
    _ingest(tmp_path)
    body = ask(question)
    # Not refused any more. The ACME glossary has no EBITDA, so the number question asks which
    # of its metrics is meant rather than guessing (a glossary of one's own would name it).
    assert (body["route"], body["refusal_reason"]) == ("clarification", None)


def test_an_off_topic_subject_of_an_ingested_document_is_answered(ask: Ask, tmp_path: Path) -> None:
    question = "Does Amcor supply makers of electric cars?"
    assert ask(question)["refusal_reason"] == "OUT_OF_SCOPE"
    _ingest(tmp_path)
    body = ask(question)
    assert body["route"] == "narrative" and "battery packaging" in body["answer"]


def test_the_off_topic_subject_alone_is_still_refused(ask: Ask, tmp_path: Path) -> None:
    _ingest(tmp_path)
    body = ask("Which electric car is the fastest?")
    assert (body["route"], body["refusal_reason"]) == ("refused", "OUT_OF_SCOPE")
    assert "outside ACME's business knowledge" in body["answer"]


def test_the_documents_are_only_those_the_caller_may_see(ask: Ask, tmp_path: Path) -> None:
    # A RESTRICTED filing does not widen the scope: the probe runs under the caller's ceiling.
    filing = tmp_path / "Amcor_FY2023_Results.md"
    filing.write_text(FILING, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(filing), "--library", "financial_reports",
                                 "--sensitivity", "RESTRICTED"])
    assert result.exit_code == 0, result.output
    close_services()
    assert ask("How did AMCOR's Adjusted EBITDA develop?")["refusal_reason"] == "OUT_OF_SCOPE"


def test_settings_fixture_is_the_acme_domain(settings: Settings) -> None:
    assert settings.domain_dir is None and get_settings().domain_dir is None


def test_a_refusal_weighed_against_the_documents_is_not_cached(settings: Settings, tmp_path: Path) -> None:
    # One process: refused, then the filing is ingested through the same services, then answered.
    services = get_services()
    question = "How did AMCOR's Adjusted EBITDA develop?"
    assert answer_question(question, qa=services.qa).refusal_reason == "OUT_OF_SCOPE"
    filing = tmp_path / "Amcor_FY2023_Results.md"
    filing.write_text(FILING, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(filing), "--library", "financial_reports"])
    assert result.exit_code == 0, result.output
    assert get_services() is services
    assert answer_question(question, qa=services.qa).refusal_reason is None


LEASES = """# Amcor FY2023 notes

| Lease | 2022 | 2023 |
| --- | --- | --- |
| Operating lease | 410 | 455 |
| Finance lease | 38 | 41 |

The scope of the emission figures is the plants Amcor operates.
"""


def _ingest_leases(tmp_path: Path) -> None:
    notes = tmp_path / "Amcor_FY2023_Notes.md"
    notes.write_text(LEASES, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(notes), "--library", "financial_reports"])
    assert result.exit_code == 0, result.output
    close_services()


def test_words_that_only_ask_for_a_comparison_do_not_outvote_the_subject(ask: Ask, tmp_path: Path) -> None:
    # Before: "percentage" and "change" counted as subject words the notes do not state, so the
    # subject (operating leases, stated) was outvoted and the question refused.
    question = "What was the percentage change in operating leases between 2022 and 2023?"
    assert ask(question)["refusal_reason"] == "OUT_OF_SCOPE"
    _ingest_leases(tmp_path)
    assert ask(question)["refusal_reason"] is None


def test_a_subject_word_is_stated_in_another_inflection(ask: Ask, tmp_path: Path) -> None:
    _ingest_leases(tmp_path)
    assert ask("What are the scopes of emissions?")["refusal_reason"] is None  # "scope", "emission" stated


def test_words_of_asking_alone_do_not_open_the_scope(ask: Ask, tmp_path: Path) -> None:
    _ingest_leases(tmp_path)
    assert ask("Which football team had the larger percentage change in fans?")["refusal_reason"] == "OUT_OF_SCOPE"


def test_a_refused_question_longer_than_a_search_query_keeps_its_refusal(settings: Settings, tmp_path: Path) -> None:
    # The ask limit may be set above the search limit: the probe then cannot search, and the refusal stands.
    from dataclasses import replace

    _ingest_leases(tmp_path)
    services = get_services()
    qa = replace(services.qa, max_chars=3000)
    question = "Tell me a story about dragons and castles. " * 40
    assert answer_question(question.strip(), qa=qa).refusal_reason == "OUT_OF_SCOPE"


@pytest.mark.parametrize("question", [
    "How many leases were below 500 in 2023?",  # "below" compares, as "above" does
    "What is the average lease at end of period for 2022 and 2023?",
    "What is the nominal difference in leases between 2022 and 2023 in terms of $M?",
])
def test_words_of_when_and_of_how_to_answer_do_not_outvote_the_subject(ask: Ask, tmp_path: Path,
                                                                     question: str) -> None:
    # Before: "below", "end", "period", "nominal" and "terms" counted as subject words
    # the notes do not state, so the leases they do state were outvoted and the question refused.
    _ingest_leases(tmp_path)
    body = ask(question)
    assert body["refusal_reason"] is None
    assert "outside ACME's business knowledge" not in body["answer"]


def test_a_month_alone_does_not_open_the_scope(ask: Ask, tmp_path: Path) -> None:
    _ingest_leases(tmp_path)
    assert ask("Which football team won in May 2023?")["refusal_reason"] == "OUT_OF_SCOPE"
