"""convert: Dify <-> n8n for the node subset, round trips, and a report of what did not convert."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragspine.workflows.analysis.analyze import analyze_document
from ragspine.workflows.convert.dispatch import convert, dify_to_n8n, n8n_to_dify
from ragspine.workflows.convert.expr import N8nRef, from_n8n, parse_n8n_ref, to_n8n
from ragspine.workflows.dsl.emit import emit_yaml
from ragspine.workflows.errors import WorkflowNodeUnsupportedError
from ragspine.workflows.n8n.model import emit_n8n
from tests.unit.workflows.samples import dsl, edge, full_subset, llm, node, start


def _graph(doc: dict[str, Any]) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    graph = doc["workflow"]["graph"]
    nodes = [(n["id"], n["data"]["type"], n["data"]["title"]) for n in graph["nodes"]]
    edges = sorted((e["source"], e["sourceHandle"], e["target"]) for e in graph["edges"])
    return nodes, edges


def _data(doc: dict[str, Any], node_id: str) -> dict[str, Any]:
    return next(n["data"] for n in doc["workflow"]["graph"]["nodes"] if n["id"] == node_id)


class TestDifyRoundTrip:
    def test_every_subset_node_survives_dify_to_n8n_to_dify(self) -> None:
        # GIVEN a workflow using every node type of the subset
        original = full_subset()
        # WHEN it goes to n8n JSON text and back
        there = dify_to_n8n(original)
        back = n8n_to_dify(json.loads(emit_n8n(there.document)))
        # THEN nodes, edges, handles and the parts that carry meaning are unchanged
        assert there.report.complete and back.report.complete
        names = {n: t for n, t, _ in _graph(back.document)[0]}
        assert _graph(back.document)[1] == sorted((e["source"], e["sourceHandle"], e["target"])
                                                  for e in original["workflow"]["graph"]["edges"])
        assert names == {n["id"]: n["data"]["type"] for n in original["workflow"]["graph"]["nodes"]}
        for node_id, keys in {"llm": ("prompt_template",), "calc": ("code", "variables", "outputs"),
                              "cond": ("cases",), "end": ("outputs",), "end2": ("outputs",)}.items():
            for key in keys:
                assert _data(back.document, node_id)[key] == _data(original, node_id)[key], (node_id, key)
        api = _data(back.document, "api")
        assert (api["url"], api["method"], api["params"], api["headers"]) == (
            "https://api.example.com/search", "get", "q:{{#start.query#}}", "Accept:application/json")
        assert _data(back.document, "tpl")["template"] == "Q: {{ query }} ({{ tone }})"
        assert analyze_document(back.document).ok

    def test_a_chatflow_round_trips_through_the_chat_trigger(self) -> None:
        doc = dsl([start(), llm("llm", "{{#sys.query#}}"), node("answer", "answer", "Answer", answer="{{#llm.text#}}")],
                  [edge("start", "llm"), edge("llm", "answer")], mode="advanced-chat")
        there = dify_to_n8n(doc)
        types = [n["type"] for n in there.document["nodes"]]
        assert types == ["@n8n/n8n-nodes-langchain.chatTrigger", "@n8n/n8n-nodes-langchain.openAi",
                         "n8n-nodes-base.respondToWebhook"]
        back = n8n_to_dify(there.document)
        assert back.document["app"]["mode"] == "advanced-chat"
        assert _data(back.document, "llm")["prompt_template"][1]["text"] == "{{#sys.query#}}"
        assert _data(back.document, "answer")["answer"] == "{{#llm.text#}}"

    def test_output_is_deterministic(self) -> None:
        assert emit_n8n(dify_to_n8n(full_subset()).document) == emit_n8n(dify_to_n8n(full_subset()).document)
        n8n = dify_to_n8n(full_subset()).document
        assert emit_yaml(n8n_to_dify(n8n).document) == emit_yaml(n8n_to_dify(n8n).document)


N8N_FLOW: dict[str, Any] = {
    "name": "Support triage",
    "nodes": [
        {"id": "w1", "name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0],
         "parameters": {"path": "triage", "httpMethod": "POST"}},
        {"id": "s1", "name": "Prepare", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [200, 0],
         "parameters": {"assignments": {"assignments": [
             {"id": "a", "name": "ticket", "type": "string", "value": "={{ $json.body.ticket }}"},
             {"id": "b", "name": "lang", "type": "string", "value": "={{ $('Webhook').item.json.body.lang }}"}]}}},
        {"id": "i1", "name": "Is urgent", "type": "n8n-nodes-base.if", "typeVersion": 2, "position": [400, 0],
         "parameters": {"conditions": {"combinator": "and", "conditions": [
             {"id": "c", "leftValue": "={{ $json.ticket }}", "rightValue": "urgent",
              "operator": {"type": "string", "operation": "contains"}}]}}},
        {"id": "o1", "name": "Draft", "type": "@n8n/n8n-nodes-langchain.openAi", "typeVersion": 1.8,
         "position": [600, 0], "credentials": {"openAiApi": {"id": "1", "name": "secret"}},
         "parameters": {"modelId": {"__rl": True, "value": "gpt-4o", "mode": "list"},
                        "messages": {"values": [{"content": "=Reply in {{ $('Prepare').item.json.lang }}: "
                                                            "{{ $('Prepare').item.json.ticket }}"}]}}},
        {"id": "g1", "name": "Log", "type": "n8n-nodes-base.googleSheets", "typeVersion": 4, "position": [600, 200],
         "parameters": {}},
        {"id": "r1", "name": "Respond", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.1,
         "position": [800, 0], "parameters": {"respondWith": "json",
                                              "responseBody": "={{ { \"reply\": $json.message.content } }}"}},
        {"id": "n1", "name": "Note", "type": "n8n-nodes-base.stickyNote", "typeVersion": 1, "position": [0, 0],
         "parameters": {"content": "hi"}},
    ],
    "connections": {
        "Webhook": {"main": [[{"node": "Prepare", "type": "main", "index": 0}]]},
        "Prepare": {"main": [[{"node": "Is urgent", "type": "main", "index": 0}]]},
        "Is urgent": {"main": [[{"node": "Draft", "type": "main", "index": 0}],
                               [{"node": "Log", "type": "main", "index": 0}]]},
        "Draft": {"main": [[{"node": "Respond", "type": "main", "index": 0}]]},
    },
    "settings": {}, "active": True,
}


class TestN8nImport:
    def test_a_subset_workflow_converts_and_reports_the_rest(self) -> None:
        result = n8n_to_dify(N8N_FLOW)
        assert [(s.name, s.node_type) for s in result.report.skipped] == [("Log", "n8n-nodes-base.googleSheets")]
        assert result.report.dropped_connections == 1
        nodes, edges = _graph(result.document)
        assert [t for _, t, _ in nodes] == ["start", "template-transform", "template-transform", "if-else", "llm",
                                            "end"]
        start_id, first, second = nodes[0][0], nodes[1][0], nodes[2][0]
        assert (first, "source", second) in edges and (second, "source", "i1") in edges
        assert ("i1", "true", "o1") in edges
        assert [v["variable"] for v in _data(result.document, start_id)["variables"]] == ["ticket", "lang"]
        assert _data(result.document, "o1")["prompt_template"][0]["text"] == (
            f"Reply in {{{{#{second}.output#}}}}: {{{{#{first}.output#}}}}")
        assert _data(result.document, "i1")["cases"][0]["conditions"][0]["variable_selector"] == [first, "output"]
        assert _data(result.document, "r1")["outputs"] == [{"variable": "reply", "value_selector": ["o1", "text"]}]
        assert analyze_document(result.document).ok

    def test_n8n_to_dify_to_n8n_keeps_names_types_and_connections(self) -> None:
        flow = dify_to_n8n(full_subset()).document
        again = dify_to_n8n(n8n_to_dify(flow).document).document
        assert [(n["name"], n["type"]) for n in again["nodes"]] == [(n["name"], n["type"]) for n in flow["nodes"]]
        assert again["connections"] == flow["connections"]
        assert [n["parameters"] for n in again["nodes"]] == [n["parameters"] for n in flow["nodes"]]

    def test_credentials_and_active_never_cross_over(self) -> None:
        dify = n8n_to_dify(N8N_FLOW).document
        assert "secret" not in json.dumps(dify)
        flow = dify_to_n8n(dify).document
        assert "active" not in flow and all("credentials" not in n for n in flow["nodes"])

    def test_nothing_convertible_is_an_error(self) -> None:
        flow = {"name": "x", "connections": {}, "nodes": [
            {"id": "a", "name": "Sheets", "type": "n8n-nodes-base.googleSheets", "parameters": {}}]}
        with pytest.raises(WorkflowNodeUnsupportedError):
            convert(flow)

    def test_unsupported_dify_nodes_are_reported(self) -> None:
        doc = full_subset()
        doc["workflow"]["graph"]["nodes"].append(node("tool", "tool", "Search"))
        doc["workflow"]["graph"]["edges"].append(edge("llm", "tool"))
        report = dify_to_n8n(doc).report
        assert [(s.node_id, s.node_type) for s in report.skipped] == [("tool", "tool")]
        assert report.dropped_connections == 1 and not report.complete


class TestExpressions:
    @pytest.mark.parametrize(("text", "ref"), [
        ("$('My node').item.json.a.b", N8nRef("My node", ("a", "b"))),
        ('$("X").first().json["key with space"][0]', N8nRef("X", ("key with space", "0"))),
        ('$node["X"].json.v', N8nRef("X", ("v",))),
        ("$json.text", N8nRef(None, ("text",))),
        ("$input.item.json.x", N8nRef(None, ("x",))),
    ])
    def test_plain_references_parse(self, text: str, ref: N8nRef) -> None:
        assert parse_n8n_ref(text) == ref

    @pytest.mark.parametrize("text", ["$json.text.length() / 4", "$now", "$('X').item.json.a + 1"])
    def test_anything_else_is_not_a_reference(self, text: str) -> None:
        assert parse_n8n_ref(text) is None

    def test_translation_keeps_untranslatable_expressions_and_reports_them(self) -> None:
        text, problems = from_n8n("=Hi {{ $json.name }} {{ $now }}", lambda node, path: ("n", *path))
        assert text == "Hi {{#n.name#}} {{ $now }}" and problems == ["{{ $now }}"]
        assert to_n8n("plain", lambda s: None) == ("plain", [])
        assert to_n8n("a {{#n.v#}}", lambda s: "$json.v") == ("=a {{ $json.v }}", [])
