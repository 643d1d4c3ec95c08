"""Deterministic output: Dify's import invariants, stable key order and ids, no clock."""

from __future__ import annotations

import json

import yaml

from ragspine.workflows.dsl.emit import canonical_dsl, content_hash, emit_json, emit_yaml, stable_id
from tests.unit.workflows.samples import dsl, edge, end, llm, start


def _doc() -> dict[str, object]:
    return dsl([start("query"), llm("llm", "{{#start.query#}}"), end(("result", ["llm", "text"]))],
               [edge("start", "llm"), edge("llm", "end")])


class TestInvariants:
    def test_version_is_a_quoted_string_and_kind_is_app(self) -> None:
        text = emit_yaml(_doc())
        assert text.startswith("version: '0.6.0'\nkind: app\napp:\n")
        assert yaml.safe_load(text)["version"] == "0.6.0"

    def test_dependencies_are_always_present(self) -> None:
        doc = _doc()
        del doc["dependencies"]
        assert yaml.safe_load(emit_yaml(doc))["dependencies"] == []

    def test_edge_types_are_set_to_the_node_types(self) -> None:
        edges = yaml.safe_load(emit_yaml(_doc()))["workflow"]["graph"]["edges"]
        assert [(e["data"]["sourceType"], e["data"]["targetType"]) for e in edges] == [("start", "llm"),
                                                                                      ("llm", "end")]

    def test_a_missing_version_is_written_as_dify_reads_it(self) -> None:
        assert canonical_dsl(dsl([], [], version=None))["version"] == "0.1.0"

    def test_top_level_and_wrapper_keys_follow_dify_export_order(self) -> None:
        doc = canonical_dsl(_doc())
        assert list(doc) == ["version", "kind", "app", "workflow", "dependencies"]
        node = doc["workflow"]["graph"]["nodes"][0]
        assert list(node)[:4] == ["id", "type", "data", "position"]
        assert list(node["data"])[:3] == ["type", "title", "desc"]


class TestDeterminism:
    def test_key_order_of_the_input_does_not_change_the_bytes(self) -> None:
        doc = _doc()
        shuffled = json.loads(json.dumps(doc, sort_keys=True))
        assert emit_yaml(doc) == emit_yaml(shuffled)
        assert emit_json(doc) == emit_json(shuffled)
        assert content_hash(canonical_dsl(doc)) == content_hash(canonical_dsl(shuffled))

    def test_yaml_and_json_carry_the_same_document(self) -> None:
        assert yaml.safe_load(emit_yaml(_doc())) == json.loads(emit_json(_doc()))

    def test_stable_ids_look_like_dify_ids_and_depend_only_on_content(self) -> None:
        assert stable_id("a", "b") == stable_id("a", "b") != stable_id("a", "c")
        assert len(stable_id("x")) == 13 and stable_id("x").isdigit()

    def test_multiline_prompts_stay_readable(self) -> None:
        doc = dsl([llm("llm", "line one\nline two")], [])
        assert "text: |-\n" in emit_yaml(doc)
