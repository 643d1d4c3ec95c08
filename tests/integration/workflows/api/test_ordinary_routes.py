"""Ordinary routes: no app-level auth, deterministic output, 4xx with the location for bad input, never 500."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine.settings import Settings
from ragspine.workflows import analyze_document, preview_schema, read_dsl
from ragspine.workflows.dsl import normalize
from tests.support.workflow_api import corpus_files, echo_n8n, summarise_dsl

DESCRIPTIONS = {"zh": "把客户投诉邮件分类，并给出建议的回复：{{email}}",
                "en": "Write a polite reply to the customer's complaint email {{email}}",
                "ja": "顧客からの苦情メール{{email}}を分類して、返信の下書きを作る"}
BROKEN_YAML = "version: '0.6.0'\napp:\n  name: x\n  mode: [workflow\nworkflow: {}\n"


@pytest.fixture
def client(settings: Settings) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from ragspine.api.app import create_local_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_local_app()) as test_client:
            yield test_client


def _error(reply: Any) -> dict[str, Any]:
    return reply.json()["meta"]["error"]  # type: ignore[no-any-return]


def _stable(reply: Any) -> Any:
    """The answer without what legitimately differs per request (request id, timestamp)."""
    return (reply.status_code, _error(reply) if reply.status_code >= 400 else reply.json())


class TestScaffoldDescriptions:
    @pytest.mark.parametrize("lang", sorted(DESCRIPTIONS))
    def test_a_description_becomes_a_dsl_that_reimports_and_analyzes_clean(self, client: Any, lang: str) -> None:
        # GIVEN a description in one of the three languages
        body = {"text": DESCRIPTIONS[lang], "match_catalog": False}
        # WHEN it is scaffolded twice
        first, second = (client.post("/v1/workflows/scaffold", json=body) for _ in range(2))
        # THEN both answers are byte-identical, and the YAML re-imports through our parser and analyzes clean
        assert first.status_code == 200 and first.content == second.content
        payload = first.json()
        reread = normalize(payload["text"])
        assert reread.mapping == payload["document"] and read_dsl(reread.mapping).version == "0.6.0"
        assert analyze_document(reread.mapping).findings == ()
        assert payload["text"].startswith("version: '0.6.0'\nkind: app\n")
        assert payload["preview"]["inputs"][0]["variable"] == "email"

    @pytest.mark.parametrize("lang", sorted(DESCRIPTIONS))
    def test_json_output_is_deterministic_too(self, client: Any, lang: str) -> None:
        body = {"text": DESCRIPTIONS[lang], "output_format": "json"}
        texts = [client.post("/v1/workflows/scaffold", json=body).json()["text"] for _ in range(2)]
        assert texts[0] == texts[1] and json.loads(texts[0])["kind"] == "app"

    def test_a_matching_curated_template_is_reused_and_reported(self, client: Any) -> None:
        payload = client.post("/v1/workflows/scaffold", json={"text": "Translate the text into Japanese"}).json()
        assert payload["origin"] == "template" and payload["match"]["id"] == "tpl-translation"
        assert payload["match"]["used"] is True and analyze_document(payload["document"]).ok

    @pytest.mark.parametrize("entry", ["tpl-meeting-minutes", "gen-media-summarize-standard"])
    def test_an_explicit_catalog_id_needs_no_other_input(self, client: Any, entry: str) -> None:
        payload = client.post("/v1/workflows/scaffold", json={"template": entry}).json()
        assert payload["origin"] == "template" and analyze_document(payload["document"]).ok

    def test_an_unknown_catalog_id_is_404(self, client: Any) -> None:
        reply = client.post("/v1/workflows/scaffold", json={"template": "tpl-nope"})
        assert reply.status_code == 404 and _error(reply)["code"] == "KNOWLEDGE_NOT_FOUND"


class TestBadInput:
    def test_malformed_yaml_is_400_with_line_and_column(self, client: Any) -> None:
        reply = client.post("/v1/workflows/analyze", json={"text": BROKEN_YAML})
        error = _error(reply)
        assert reply.status_code == 400 and error["code"] == "WORKFLOW_PARSE_ERROR"
        assert "line 5, column 9" in error["message"] and error["fieldErrors"][0]["field"] == "5:9"

    def test_malformed_json_text_is_400_with_line_and_column(self, client: Any) -> None:
        reply = client.post("/v1/workflows/compile", json={"text": '{"app": {"name": "x",\n  "mode": }}'})
        assert reply.status_code == 400 and _error(reply)["fieldErrors"][0]["field"] == "2:11"

    def test_a_wrong_shape_names_its_json_pointer(self, client: Any) -> None:
        reply = client.post("/v1/workflows/preview", json={"document": {"app": {"mode": "workflow"},
                                                                        "workflow": {"graph": {"nodes": "x"}}}})
        assert reply.status_code == 422 and _error(reply)["fieldErrors"][0]["field"] == "/workflow/graph/nodes"

    @pytest.mark.parametrize("body", [{}, {"text": "a", "document": {}}, {"text": "a", "extra": 1},
                                      {"text": "a", "input_format": "xml"}])
    def test_invalid_requests_are_400_envelopes(self, client: Any, body: dict[str, Any]) -> None:
        reply = client.post("/v1/workflows/analyze", json=body)
        assert reply.status_code == 400 and _error(reply)["code"] == "KNOWLEDGE_INVALID_INPUT"

    def test_a_description_cannot_be_converted(self, client: Any) -> None:
        reply = client.post("/v1/workflows/convert", json={"text": "Summarise the text"})
        assert reply.status_code == 422 and _error(reply)["code"] == "WORKFLOW_INVALID"


class TestOperations:
    def test_compile_orders_the_steps_from_the_start(self, client: Any) -> None:
        body = client.post("/v1/workflows/compile", json={"document": summarise_dsl()}).json()
        assert [s["node_type"] for s in body["plan"]["steps"]] == ["start", "llm", "end"]
        assert body["origin"] == "reused" and body["warnings"] == []

    def test_preview_follows_the_published_schema(self, client: Any) -> None:
        import jsonschema

        body = client.post("/v1/workflows/preview", json={"document": echo_n8n()}).json()
        jsonschema.validate(body["preview"], preview_schema())
        assert body["origin"] == "converted" and body["preview"]["origin"] == "converted"

    def test_convert_goes_both_ways(self, client: Any) -> None:
        to_dify = client.post("/v1/workflows/convert", json={"document": echo_n8n()}).json()
        assert to_dify["target"] == "dify" and to_dify["report"]["complete"] is True
        back = client.post("/v1/workflows/convert", json={"text": to_dify["text"]}).json()
        assert back["target"] == "n8n" and json.loads(back["text"])["name"] == "Summarise by webhook"

    def test_analyze_reports_findings_with_severity(self, client: Any) -> None:
        doc = summarise_dsl()
        doc["workflow"]["graph"]["edges"].pop()
        analysis = client.post("/v1/workflows/analyze", json={"document": doc}).json()["analysis"]
        assert analysis["ok"] is False and analysis["errors"] >= 1
        assert {f["code"] for f in analysis["findings"]} >= {"no_reachable_terminal", "unreachable_node"}


class TestCatalog:
    @pytest.mark.parametrize(("query", "lang"), [("翻译", "zh"), ("translation", "en"), ("翻訳", "ja")])
    def test_search_in_three_languages(self, client: Any, query: str, lang: str) -> None:
        hits = client.get("/v1/catalog/search", params={"q": query, "lang": lang, "limit": 3}).json()["hits"]
        assert hits and hits[0]["id"] == "tpl-translation" and len(hits) <= 3

    @pytest.mark.parametrize("params", [{"q": "x", "limit": 101}, {"q": ""}, {"q": "x", "lang": "fr"}, {}])
    def test_bad_searches_are_400(self, client: Any, params: dict[str, Any]) -> None:
        assert client.get("/v1/catalog/search", params=params).status_code == 400

    def test_a_template_entry_carries_its_dsl(self, client: Any) -> None:
        body = client.get("/v1/catalog/tpl-translation").json()
        assert body["origin"] == "template" and "\nversion: " in body["template_yaml"]
        assert client.get("/v1/catalog/gen-media-summarize-standard").json()["template_yaml"] is None


@pytest.mark.skipif(not corpus_files(), reason="third-party corpus not present")
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name[:30]}")
def test_every_corpus_file_is_answered_without_a_500(client: Any, settings: Settings, path: Path) -> None:
    text = path.read_bytes().decode("utf-8", errors="replace")
    for route in ("analyze", "convert", "preview"):
        first = client.post(f"/v1/workflows/{route}", json={"text": text})
        second = client.post(f"/v1/workflows/{route}", json={"text": text})
        assert first.status_code < 500, (route, first.text[:300])
        assert _stable(first) == _stable(second)
