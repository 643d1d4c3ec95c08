"""Preview schema v1: every preview validates against the published, versioned JSON Schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from ragspine.workflows.dsl.normalize import normalize
from ragspine.workflows.dsl.preview import SCHEMA_ID, SCHEMA_PATH, build_preview, preview_schema
from ragspine.workflows.scaffold.scaffolder import Origin, scaffold_description
from tests.unit.workflows.samples import dsl, edge, end, full_subset, node, start


class TestSchema:
    def test_the_schema_is_a_valid_versioned_json_schema(self) -> None:
        schema = preview_schema()
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$id"] == SCHEMA_ID and SCHEMA_PATH.name == "preview-v1.schema.json"
        assert schema["properties"]["schema_version"] == {"const": "1"}

    @pytest.mark.parametrize("doc", [full_subset(), dsl([node("a", "answer", answer="hi")], [], mode="advanced-chat"),
                                     dsl([], [], mode="chat")], ids=["workflow", "chatflow", "chat"])
    def test_previews_validate(self, doc: dict[str, object]) -> None:
        preview = build_preview(doc, origin=Origin.REUSED, warnings=("a warning",)).to_dict()
        jsonschema.validate(preview, preview_schema())

    def test_a_generated_workflow_preview_lists_inputs_and_outputs(self) -> None:
        described = normalize("Translate {{text}} to {{lang}}").description
        assert described is not None
        preview = build_preview(scaffold_description(described).document, origin=Origin.GENERATED).to_dict()
        jsonschema.validate(preview, preview_schema())
        assert [i["variable"] for i in preview["inputs"]] == ["text", "lang"]
        assert [o["variable"] for o in preview["outputs"]] == ["result"]
        assert preview["dsl_version"] == "0.6.0" and preview["origin"] == "generated"


class TestContentHash:
    def test_the_hash_ignores_key_order_and_changes_with_content(self) -> None:
        doc = dsl([start("q"), end(("r", ["start", "q"]))], [edge("start", "end")])
        shuffled = json.loads(json.dumps(doc, sort_keys=True))
        first = build_preview(doc, origin=Origin.REUSED).content_hash
        assert first == build_preview(shuffled, origin=Origin.REUSED).content_hash
        doc["app"]["name"] = "other"
        assert build_preview(doc, origin=Origin.REUSED).content_hash != first
