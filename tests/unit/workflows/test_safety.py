"""The reuse safety analysis: each rule, and a clean pass."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.workflows.analysis.safety import SafetyRule, assess_reuse
from ragspine.workflows.dsl.model import read_dsl
from tests.unit.workflows.samples import code, dsl, edge, end, http, llm, node, start


def _rules(doc: dict[str, Any], allowlist: tuple[str, ...] = ()) -> set[SafetyRule]:
    return {f.rule for f in assess_reuse(read_dsl(doc), http_allowlist=allowlist).findings}


class TestRules:
    def test_a_plain_llm_workflow_is_safe(self) -> None:
        doc = dsl([start("q"), llm("llm", "{{#start.q#}}"), end(("r", ["llm", "text"]))],
                  [edge("start", "llm"), edge("llm", "end")])
        assert assess_reuse(read_dsl(doc)).safe

    def test_code_nodes_are_unsafe(self) -> None:
        assert SafetyRule.CODE_NODE in _rules(dsl([code("c", "def main():\n    return {}", {})], []))

    def test_http_requests_must_target_an_allowlisted_fixed_host(self) -> None:
        doc = dsl([http("h", "https://api.example.com/x")], [])
        assert SafetyRule.HTTP_NOT_ALLOWLISTED in _rules(doc)
        assert _rules(doc, ("api.example.com",)) == set()
        assert _rules(doc, ("*.example.com",)) == set()
        templated = dsl([http("h", "https://{{#start.host#}}/x")], [])
        assert SafetyRule.HTTP_NOT_ALLOWLISTED in _rules(templated, ("api.example.com",))

    def test_literal_credentials_are_unsafe(self) -> None:
        doc = dsl([http("h", "https://api.example.com/x")], [])
        doc["workflow"]["graph"]["nodes"][0]["data"]["headers"] = "Authorization: Bearer sk-123"
        assert SafetyRule.EMBEDDED_SECRET in _rules(doc, ("api.example.com",))
        secret = dsl([], [], environment_variables=[{"name": "key", "value_type": "secret", "value": ""}])
        assert SafetyRule.EMBEDDED_SECRET in _rules(secret)

    @pytest.mark.parametrize("node_type", ["tool", "agent", "datasource", "trigger-plugin"])
    def test_nodes_needing_credentials_or_plugins_are_unsafe(self, node_type: str) -> None:
        assert SafetyRule.CREDENTIALED_NODE in _rules(dsl([node("n", node_type)], []))

    def test_marketplace_dependencies_are_unsafe(self) -> None:
        doc = dsl([], [])
        doc["dependencies"] = [{"type": "marketplace", "value": {"marketplace_plugin_unique_identifier": "x"}}]
        assert SafetyRule.MARKETPLACE_DEPENDENCY in _rules(doc)

    def test_workspace_datasets_are_unsafe(self) -> None:
        doc = dsl([node("k", "knowledge-retrieval", dataset_ids=["abc"])], [])
        assert SafetyRule.WORKSPACE_DATASET in _rules(doc)

    def test_unknown_node_types_are_unsafe(self) -> None:
        assert SafetyRule.UNKNOWN_NODE in _rules(dsl([node("n", "teleport")], []))
