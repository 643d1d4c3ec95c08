"""The local service over HTTP, as a client sees it."""

from __future__ import annotations

import pytest

from tests.e2e.api_client import ApiClient
from tests.e2e.conftest import LocalService


class TestStartUp:
    def test_serve_prints_the_sample_question_and_its_sourced_answer_before_serving(
            self, local_service: LocalService) -> None:
        banner = local_service.banner
        assert "sample question: 2024年日本的毛利率是多少" in banner
        assert "36.0 PCT" in banner
        assert "source: ACME_FY2024_Review.pptx · slide=4,table=1,row=GROSS_MARGIN,col=FY2024" in banner
        assert banner.index("sample question") < banner.index("serving on")

    def test_all_state_lives_in_the_data_dir(self, local_service: LocalService) -> None:
        for name in ("facts.db", "chunks.db", "operations.db"):
            assert (local_service.data_dir / name).exists(), name

    def test_serve_ingests_the_sample_documents(self, local_service: LocalService) -> None:
        # every manifest document through the pipeline: 114 facts extracted, versioned passages indexed
        assert "sample data: 8 of 8 documents ingested (8 now, 0 unchanged): 114 facts, " in local_service.banner
        assert " passages indexed (" in local_service.banner


class TestAsk:
    def test_seed_001_question_returns_1320_with_source(self, api: ApiClient) -> None:
        reply = api.ask("中国内地FY2024的REVENUE是多少")
        assert reply.status == 200
        assert "1320 USD_M（来源：ACME_FY2024_Review.pptx · slide=2,table=1,row=REVENUE,col=FY2024）" in reply.body["answer"]
        assert reply.body["sources"] == [{"doc": "ACME_FY2024_Review.pptx",
                                          "locator": "slide=2,table=1,row=REVENUE,col=FY2024"}]
        assert reply.body["route"] == "structured" and reply.body["status"] == "found"
        assert reply.headers["x-request-id"]

    def test_japan_gross_margin_is_36_0(self, api: ApiClient) -> None:
        reply = api.ask("2024年日本的毛利率是多少")
        assert "36.0 PCT" in reply.body["answer"]
        assert reply.body["slots"]["entity"] == ["ACME_JP"]

    def test_assumptions_are_listed_for_a_question_without_entity_or_period(self, api: ApiClient) -> None:
        reply = api.ask("How many stores?")
        assert reply.body["status"] == "found"
        assert [a["slot"] for a in reply.body["assumptions"]] == ["entity", "period"]
        assert "733 COUNT" in reply.body["answer"]

    def test_unknown_entity_is_unrecognized_param(self, api: ApiClient) -> None:
        reply = api.ask("火星公司2024年的营收是多少")
        assert reply.status == 200 and reply.body["status"] == "unrecognized_param"
        assert "火星公司" in reply.body["answer"]


class TestNarrative:
    def test_why_question_is_answered_from_cited_documents(self, api: ApiClient) -> None:
        reply = api.ask("为什么2024年香港营收下降？")
        assert reply.body["route"] == "composite" and reply.body["narrative_status"] == "answered"
        assert "338 USD_M" in reply.body["answer"] and "归因分析：" in reply.body["answer"]
        assert {"doc": "ACME_FY2024_MDA.docx", "locator": "heading=香港（ACME_HK）,para=1"} in reply.body["sources"]

    def test_search_route_serves_hits(self, api: ApiClient) -> None:
        reply = api.post_raw("/v1/search", b'{"query": "Project Lotus", "top_k": 3}')
        assert reply.status == 200 and len(reply.body["hits"]) == 3

    def test_the_restricted_minutes_are_never_served(self, api: ApiClient) -> None:
        reply = api.post_raw("/v1/search", b'{"query": "Project Falcon Hikari Retail board", "top_k": 10}')
        assert reply.status == 200
        assert [h for h in reply.body["hits"] if h["doc"] == "ACME_Board_Minutes_2025Q4.docx"] == []
        answer = api.ask("What did the board decide about Project Falcon?").body
        assert "420" not in answer["answer"]
        assert all(s["doc"] != "ACME_Board_Minutes_2025Q4.docx" for s in answer["sources"])


class TestBadInput:
    @pytest.mark.parametrize("question", ["", "   "])
    def test_empty_question_is_a_400_with_the_field(self, api: ApiClient, question: str) -> None:
        reply = api.ask(question)
        assert reply.status == 400 and reply.error_code == "KNOWLEDGE_INVALID_INPUT"
        assert reply.body["meta"]["error"]["fieldErrors"][0]["field"] == "question"

    def test_question_over_the_configured_limit_is_a_400_naming_the_limit(self, api: ApiClient) -> None:
        reply = api.ask("营收" * 150)
        assert reply.status == 400 and "limit is 200" in reply.body["meta"]["error"]["message"]

    @pytest.mark.parametrize("payload", [b"{not json", b"", b"[1, 2]", b'{"question": 42}', b'{"q": "x"}',
                                         b'{"question": "x", "extra": 1}'])
    def test_malformed_bodies_are_400_never_500(self, api: ApiClient, payload: bytes) -> None:
        reply = api.post_raw("/v1/ask", payload)
        assert reply.status == 400, reply.body
        assert reply.error_code == "KNOWLEDGE_INVALID_INPUT"
        assert reply.body["data"] is None and reply.body["meta"]["success"] is False

    def test_oversized_body_is_413(self, api: ApiClient) -> None:
        reply = api.post_raw("/v1/ask", b'{"question": "' + b"x" * 70000 + b'"}')
        assert reply.status == 413 and reply.error_code == "KNOWLEDGE_INVALID_INPUT"

    def test_oversized_chunked_body_is_413_too(self, api: ApiClient) -> None:
        # no Content-Length: the server counts the bytes it receives and stops at the limit
        reply = api.post_chunked("/v1/ask", b'{"question": "' + b"x" * 70000 + b'"}')
        assert reply.status == 413 and reply.error_code == "KNOWLEDGE_INVALID_INPUT"

    def test_unknown_route_is_a_404_envelope(self, api: ApiClient) -> None:
        reply = api.get("/v1/nothing-here")
        assert reply.status == 404 and reply.error_code == "KNOWLEDGE_NOT_FOUND"

    def test_wrong_method_is_a_405_envelope(self, api: ApiClient) -> None:
        reply = api.get("/v1/ask")
        assert reply.status == 405 and reply.body["meta"]["error"]["message"].startswith("method GET")


class TestDocs:
    def test_openapi_describes_the_live_routes(self, api: ApiClient) -> None:
        spec = api.get("/openapi.json").body
        assert {"/v1/ask", "/healthz"} <= set(spec["paths"])
        ask = spec["paths"]["/v1/ask"]["post"]
        assert "400" in ask["responses"] and "200" in ask["responses"]
        assert "422" not in ask["responses"]  # validation errors are answered 400, and documented so

    def test_swagger_ui_is_served_at_docs(self, api: ApiClient) -> None:
        reply = api.get("/docs")
        assert reply.status == 200 and "swagger" in reply.body.lower()
