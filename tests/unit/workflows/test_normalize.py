"""Input normalisation: formats detected, JSON-compatible mappings, errors that say where."""

from __future__ import annotations

import pytest

from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.dsl.normalize import DocumentKind, InputFormat, normalize
from ragspine.workflows.errors import WorkflowInvalidError, WorkflowParseError, WorkflowTooLargeError

DIFY_YAML = "app:\n  name: demo\n  mode: workflow\nkind: app\nversion: '0.6.0'\nworkflow:\n  graph:\n    nodes: []\n"


class TestFormats:
    def test_reads_json_yaml_and_toml_into_the_same_mapping(self) -> None:
        json_text = '{"app": {"name": "demo", "mode": "workflow"}, "version": "0.6.0"}'
        yaml_text = "app:\n  name: demo\n  mode: workflow\nversion: '0.6.0'\n"
        toml_text = 'version = "0.6.0"\n\n[app]\nname = "demo"\nmode = "workflow"\n'
        results = [normalize(t) for t in (json_text, yaml_text, toml_text)]
        assert [r.fmt for r in results] == [InputFormat.JSON, InputFormat.YAML, InputFormat.TOML]
        assert results[0].mapping == results[1].mapping == results[2].mapping
        assert all(r.kind is DocumentKind.DIFY for r in results)

    def test_file_extension_decides_the_format(self) -> None:
        assert normalize(DIFY_YAML.encode(), filename="app.yml").fmt is InputFormat.YAML
        assert normalize(b'{"nodes": [], "connections": {}}', filename="flow.json").kind is DocumentKind.N8N

    def test_bytes_with_a_bom_are_read_as_utf8(self) -> None:
        assert normalize("\ufeff".encode() + DIFY_YAML.encode()).mapping["app"]["name"] == "demo"

    def test_yaml_dates_and_numeric_keys_become_json_values(self) -> None:
        result = normalize("app:\n  name: x\n  created: 2024-05-01\n  1: one\n", fmt=InputFormat.YAML)
        assert result.mapping["app"] == {"name": "x", "created": "2024-05-01", "1": "one"}


class TestDescriptions:
    @pytest.mark.parametrize(("text", "language"), [
        ("把用户输入的文章总结成三句话", "zh"), ("入力された文章を要約してください", "ja"),
        ("Summarise the article in three sentences", "en"), ("Goal: summarise: the text", "en"),
    ])
    def test_free_text_becomes_a_description(self, text: str, language: str) -> None:
        result = normalize(text)
        assert result.kind is DocumentKind.DESCRIPTION
        assert result.description is not None and result.description.language == language
        assert [i.name for i in result.description.inputs] == ["query"]

    def test_placeholders_become_inputs(self) -> None:
        described = normalize("Translate {{text}} into {{language}}").description
        assert described is not None and [i.name for i in described.inputs] == ["text", "language"]

    def test_a_description_mapping_declares_its_inputs(self) -> None:
        result = normalize('{"description": "Classify tickets", "inputs": ["ticket", {"variable": "lang"}]}')
        assert result.description is not None
        assert [i.name for i in result.description.inputs] == ["ticket", "lang"]

    def test_empty_text_is_refused(self) -> None:
        with pytest.raises(WorkflowInvalidError):
            normalize("   \n ")


class TestErrorsCarryTheirLocation:
    def test_malformed_json_gives_line_and_column(self) -> None:
        with pytest.raises(WorkflowParseError) as caught:
            normalize('{\n  "app": {"name": "x",}\n}')
        assert (caught.value.fmt, caught.value.line, caught.value.column) == ("json", 2, 23)
        assert caught.value.code == "WORKFLOW_PARSE_ERROR"

    def test_malformed_yaml_gives_line_and_column(self) -> None:
        with pytest.raises(WorkflowParseError) as caught:
            normalize("app:\n  name: demo\n  mode: [workflow\nversion: '0.6.0'\n")
        assert caught.value.fmt == "yaml"
        assert caught.value.line == 4 and caught.value.column is not None

    def test_malformed_toml_gives_line_and_column(self) -> None:
        with pytest.raises(WorkflowParseError) as caught:
            normalize('version = "0.6.0"\n[app]\nname = = "x"\n')
        assert (caught.value.fmt, caught.value.line) == ("toml", 3)
        assert caught.value.column is not None

    def test_bytes_that_are_not_utf8_give_their_position(self) -> None:
        with pytest.raises(WorkflowParseError) as caught:
            normalize(b"app:\n  name: \xff\n", filename="a.yml")
        assert (caught.value.line, caught.value.column) == (2, 9)

    def test_a_top_level_list_is_refused_with_the_root_pointer(self) -> None:
        with pytest.raises(WorkflowInvalidError) as caught:
            normalize("[1, 2]")
        assert caught.value.pointer == ""

    def test_wrong_types_are_reported_with_a_json_pointer(self) -> None:
        doc = normalize('{"app": {"mode": "workflow"}, "workflow": {"graph": {"nodes": [{"id": "a", "data": '
                        '{"type": 3}}], "edges": []}}}').mapping
        with pytest.raises(WorkflowInvalidError) as caught:
            read_dsl(doc)
        assert caught.value.pointer == "/workflow/graph/nodes/0/data/type"
        assert caught.value.field_errors[0].field == "/workflow/graph/nodes/0/data/type"

    def test_wrong_input_types_in_a_description_name_the_pointer(self) -> None:
        with pytest.raises(WorkflowInvalidError) as caught:
            normalize('{"description": "x", "inputs": [{"variable": "a", "required": "yes"}]}')
        assert caught.value.pointer == "/inputs/0/required"

    def test_nan_is_not_a_json_value(self) -> None:
        with pytest.raises(WorkflowParseError):
            normalize('{"app": {"name": NaN}}')

    def test_yaml_alias_bombs_are_refused(self) -> None:
        lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
        lines += [f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]" for i in range(8)]
        with pytest.raises(WorkflowTooLargeError):
            normalize("app: {}\n" + "\n".join(lines), fmt=InputFormat.YAML)

    def test_oversized_input_is_refused(self) -> None:
        with pytest.raises(WorkflowTooLargeError):
            normalize(b"x" * (10 * 1024 * 1024 + 1))
