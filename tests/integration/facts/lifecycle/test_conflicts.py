"""Two sources stating different figures for the same key: the answer gives both, with their sources, and says so."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.facts.model import FactKey
from ragspine.qa.answer import answer_question
from ragspine.settings import Settings

runner = CliRunner()
REVIEW = """# ACME Japan {title}

Japan's stores carried the year.

## ACME Japan revenue (USD millions)

| Metric | FY2024 |
|---|---|
| Revenue | {revenue} |
"""
JP_REVENUE = FactKey("REVENUE", "ACME_JP", "TOTAL", "FY", "2024")
REVIEW_DOC, NOTE_DOC = "JP_Review.md", "JP_Investor_Note.md"


def _ingest(folder: Path, name: str, title: str, revenue: str) -> None:
    path = folder / name
    path.write_text(REVIEW.format(title=title, revenue=revenue), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output


def _answer(question: str) -> str:
    return answer_question(question, qa=get_services().qa).answer


def test_both_figures_are_given_with_their_sources(backend: str, tmp_path: Path) -> None:
    _ingest(tmp_path, REVIEW_DOC, "FY2024 Review", "655")
    _ingest(tmp_path, NOTE_DOC, "FY2024 investor note", "700")
    facts = get_services().facts
    assert facts.count() == 1  # one kept fact per key; the other figure is recorded beside it
    kept = facts.get(JP_REVENUE)
    assert kept is not None
    stated = {(f.value, f.source_doc_id) for f in (kept, *facts.conflicts(JP_REVENUE))}
    assert stated == {(655, REVIEW_DOC), (700, NOTE_DOC)}
    other = next(f for f in facts.conflicts(JP_REVENUE))
    english = _answer("What was Japan's revenue in FY2024?")
    assert f"{kept.value} USD_M（来源：{kept.source_doc_id} · {kept.source_locator}）" in english
    assert (f"another source states a different figure: {other.value} USD_M"
            f"（来源：{other.source_doc_id} · {other.source_locator}）") in english
    assert "The sources differ" in english
    chinese = _answer("2024年日本的营业收入是多少")
    assert "655" in chinese and "700" in chinese and "各来源数值不一致" in chinese
    japanese = _answer("2024年度の日本の売上高はいくらですか")
    assert "655" in japanese and "700" in japanese and "一致しません" in japanese
    sources = answer_question("What was Japan's revenue in FY2024?", qa=get_services().qa).sources
    assert {s["doc"] for s in sources} == {REVIEW_DOC, NOTE_DOC}


def test_agreeing_again_removes_the_conflict(backend: str, tmp_path: Path) -> None:
    _ingest(tmp_path, REVIEW_DOC, "FY2024 Review", "655")
    _ingest(tmp_path, NOTE_DOC, "FY2024 investor note", "700")
    _ingest(tmp_path, NOTE_DOC, "FY2024 investor note", "655")  # a corrected version of the note
    answer = _answer("What was Japan's revenue in FY2024?")
    assert "655 USD_M" in answer and "700" not in answer and "differ" not in answer


def test_a_newer_version_of_the_same_document_replaces_the_old_one(backend: str, tmp_path: Path) -> None:
    _ingest(tmp_path, REVIEW_DOC, "FY2024 Review", "655")
    _ingest(tmp_path, REVIEW_DOC, "FY2024 Review", "661")
    answer = _answer("What was Japan's revenue in FY2024?")
    assert "661 USD_M" in answer and "655" not in answer and "differ" not in answer
    assert get_services().facts.conflicts(JP_REVENUE) == []


def test_over_http_the_answer_carries_both(settings: Settings, tmp_path: Path) -> None:
    from ragspine.api.app import create_local_app

    _ingest(tmp_path, REVIEW_DOC, "FY2024 Review", "655")
    _ingest(tmp_path, NOTE_DOC, "FY2024 investor note", "700")
    response = TestClient(create_local_app()).post("/v1/ask", json={"question": "What was Japan's revenue in FY2024?"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "655" in body["answer"] and "700" in body["answer"] and "The sources differ" in body["answer"]
    assert {s["doc"] for s in body["sources"]} == {REVIEW_DOC, NOTE_DOC}


def test_two_tables_of_one_document_disagreeing_are_both_shown(settings: Settings, tmp_path: Path) -> None:
    path = tmp_path / "JP_Review.md"
    path.write_text(REVIEW.format(title="FY2024 Review", revenue="655")
                    + "\n## ACME Japan revenue restated (USD millions)\n\n| Metric | FY2024 |\n|---|---|\n"
                    "| Revenue | 661 |\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    answer = answer_question("What was Japan's revenue in FY2024?", qa=get_services().qa)
    assert "655 USD_M（来源：JP_Review.md · table=1," in answer.answer
    assert "a different figure: 661 USD_M（来源：JP_Review.md · table=2," in answer.answer
    assert len(answer.sources) == 2
