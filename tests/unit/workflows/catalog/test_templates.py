"""The seven curated templates are complete, importable and safe Dify DSL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from ragspine.workflows.scaffold.catalog import Catalog, EntryOrigin, RecipeKind, default_catalog
from ragspine.workflows.scaffold.catalog.resources import template_index
from ragspine.workflows.scaffold.catalog.vocabulary import DOMAINS, TASKS, VARIANTS

TEMPLATE_IDS = [str(item["id"]) for item in template_index()]
TOP_LEVEL = ["version", "kind", "app", "workflow", "dependencies"]
APP_KEYS = ["name", "mode", "icon", "icon_type", "icon_background", "description", "use_icon_as_answer_icon"]
SAFE_NODE_TYPES = {"start", "llm", "knowledge-retrieval", "if-else", "template-transform", "end", "answer"}
OUTPUTS = {"llm": {"text"}, "knowledge-retrieval": {"result"}, "template-transform": {"output"}}
REFERENCE = re.compile(r"\{\{#([^#{}]+)#\}\}")
CREDENTIAL_KEY = re.compile(r"api[_-]?key|secret|token|password|credential|authori[sz]ation", re.IGNORECASE)
CREDENTIAL_VALUE = re.compile(r"\b(sk|app|dataset)-[A-Za-z0-9]{12,}")


def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Yield (path, value) for every node of a parsed YAML document."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}/{key}")
    elif isinstance(value, list):
        for number, item in enumerate(value):
            yield from walk(item, f"{path}/{number}")


def ancestors(edges: list[dict[str, Any]], node_id: str) -> set[str]:
    parents: dict[str, set[str]] = {}
    for edge in edges:
        parents.setdefault(edge["target"], set()).add(edge["source"])
    seen: set[str] = set()
    stack = [node_id]
    while stack:
        for parent in parents.get(stack.pop(), set()) - seen:
            seen.add(parent)
            stack.append(parent)
    return seen


@pytest.fixture(params=TEMPLATE_IDS)
def template(request: pytest.FixtureRequest) -> tuple[str, str, dict[str, Any]]:
    text = default_catalog().template_text(request.param)
    return request.param, text, yaml.safe_load(text)


class TestCatalogTemplates:
    def test_there_are_exactly_seven_curated_templates_with_unique_ids(self) -> None:
        templates = Catalog().templates()
        assert len(templates) == 7
        assert len({entry.id for entry in templates}) == 7
        assert all(entry.origin is EntryOrigin.TEMPLATE for entry in templates)
        assert all(entry.recipe.kind is RecipeKind.TEMPLATE and entry.recipe.template == entry.id for entry in templates)

    def test_each_template_claims_a_distinct_vocabulary_combination(self) -> None:
        claims = {(entry.category, entry.task, entry.variant) for entry in default_catalog().templates()}
        assert len(claims) == 7
        assert {c for c, _, _ in claims} <= {d.key for d in DOMAINS}
        assert {t for _, t, _ in claims} <= {t.key for t in TASKS}
        assert {v for _, _, v in claims} <= {v.key for v in VARIANTS}

    def test_titles_and_descriptions_exist_in_three_languages(self) -> None:
        for entry in default_catalog().templates():
            assert all(text.strip() for text in (*entry.titles.values(), *entry.description.values()))


class TestTemplateDsl:
    def test_top_level_keys_are_in_export_order(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, _, document = template
        assert list(document) == TOP_LEVEL
        assert list(document["app"]) == APP_KEYS
        assert list(document["workflow"]) == ["graph", "features", "environment_variables", "conversation_variables"]
        assert list(document["workflow"]["graph"]) == ["nodes", "edges", "viewport"]

    def test_version_is_a_quoted_string_in_the_raw_text(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, text, document = template
        assert re.search(r'^version: "0\.6\.0"$', text, re.MULTILINE)
        assert document["version"] == "0.6.0"

    def test_app_kind_and_empty_lists_are_as_dify_imports_them(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, _, document = template
        assert document["kind"] == "app"
        assert document["dependencies"] == []
        assert document["workflow"]["environment_variables"] == []
        assert document["workflow"]["conversation_variables"] == []
        assert document["app"]["mode"] in {"workflow", "advanced-chat"}

    def test_index_matches_the_file(self, template: tuple[str, str, dict[str, Any]]) -> None:
        template_id, _, document = template
        entry = default_catalog().get(template_id)
        types = [node["data"]["type"] for node in document["workflow"]["graph"]["nodes"]]
        assert entry.mode == document["app"]["mode"]
        assert entry.node_kinds == tuple(dict.fromkeys(types))

    def test_graph_has_one_start_and_the_mode_specific_terminal(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, _, document = template
        nodes = document["workflow"]["graph"]["nodes"]
        types = [node["data"]["type"] for node in nodes]
        assert types.count("start") == 1
        terminal, forbidden = ("answer", "end") if document["app"]["mode"] == "advanced-chat" else ("end", "answer")
        assert terminal in types and forbidden not in types
        assert len({node["id"] for node in nodes}) == len(nodes)
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", node["id"]) for node in nodes)
        assert all(node["type"] == "custom" for node in nodes)

    def test_edges_carry_the_node_types_and_the_dify_shape(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, _, document = template
        graph = document["workflow"]["graph"]
        types = {node["id"]: node["data"]["type"] for node in graph["nodes"]}
        cases = {
            node["id"]: {case["case_id"] for case in node["data"]["cases"]} | {"false"}
            for node in graph["nodes"]
            if node["data"]["type"] == "if-else"
        }
        for edge in graph["edges"]:
            assert edge["id"] == f"{edge['source']}-{edge['sourceHandle']}-{edge['target']}-{edge['targetHandle']}"
            assert (edge["type"], edge["zIndex"], edge["targetHandle"]) == ("custom", 0, "target")
            assert edge["data"] == {
                "sourceType": types[edge["source"]],
                "targetType": types[edge["target"]],
                "isInIteration": False,
                "isInLoop": False,
            }
            assert edge["sourceHandle"] in cases.get(edge["source"], {"source"})

    def test_every_node_is_reachable_from_start(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, _, document = template
        graph = document["workflow"]["graph"]
        for node in graph["nodes"]:
            if node["data"]["type"] != "start":
                assert "start" in ancestors(graph["edges"], node["id"]), node["id"]

    def test_every_reference_resolves_to_an_upstream_output(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, _, document = template
        graph = document["workflow"]["graph"]
        nodes = {node["id"]: node["data"] for node in graph["nodes"]}
        chat = document["app"]["mode"] == "advanced-chat"
        for node_id, data in nodes.items():
            upstream = ancestors(graph["edges"], node_id)
            selectors = [value for path, value in walk(data) if path.endswith("selector") and value]
            texts = [value for _, value in walk(data) if isinstance(value, str)]
            selectors += [ref.split(".") for text in texts for ref in REFERENCE.findall(text) if ref != "context"]
            if any("{{#context#}}" in text for text in texts):
                assert data["context"]["enabled"] and data["context"]["variable_selector"]
            for source, variable in selectors:
                if source == "sys":
                    assert chat and variable == "query", (node_id, variable)
                    continue
                assert source in upstream, (node_id, source)
                start_vars = {item["variable"] for item in nodes[source].get("variables", [])}
                assert variable in OUTPUTS.get(nodes[source]["type"], start_vars), (node_id, source, variable)

    def test_templates_are_safe(self, template: tuple[str, str, dict[str, Any]]) -> None:
        _, text, document = template
        assert {node["data"]["type"] for node in document["workflow"]["graph"]["nodes"]} <= SAFE_NODE_TYPES
        assert "http://" not in text and "https://" not in text
        for path, value in walk(document):
            assert not CREDENTIAL_KEY.search(path.rsplit("/", 1)[-1]), path
            assert not (isinstance(value, str) and CREDENTIAL_VALUE.search(value)), path
            if path.endswith("/dataset_ids"):
                assert value == [], path
