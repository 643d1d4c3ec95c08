"""Scaffolding: descriptions in three languages, reuse when safe, the fixed graph otherwise."""

from __future__ import annotations

import pytest

from ragspine.workflows.analysis.analyze import analyze_document
from ragspine.workflows.dsl.emit import emit_json, emit_yaml
from ragspine.workflows.dsl.normalize import DocumentKind, normalize
from ragspine.workflows.errors import WorkflowInvalidError
from ragspine.workflows.scaffold.scaffolder import (
    ModelSpec,
    Origin,
    ScaffoldOptions,
    scaffold_description,
    scaffold_dsl,
)
from tests.unit.workflows.samples import code, dsl, edge, end, full_subset, llm, start

DESCRIPTIONS = {
    "zh": "把用户输入的中文新闻总结成三句话，并给出一个标题",
    "en": "Summarise the customer's email in three bullet points and suggest a reply",
    "ja": "入力された文章を丁寧な日本語のビジネスメールに書き換えてください",
}


class TestGeneratedGraph:
    @pytest.mark.parametrize("language", sorted(DESCRIPTIONS))
    def test_a_description_compiles_to_a_dsl_that_reimports_cleanly(self, language: str) -> None:
        # GIVEN a free-text description
        described = normalize(DESCRIPTIONS[language]).description
        assert described is not None and described.language == language
        # WHEN it is scaffolded and written as YAML
        text = emit_yaml(scaffold_description(described).document)
        # THEN our own parser reads it back as a Dify DSL with no error finding
        again = normalize(text, filename="app.yml")
        assert again.kind is DocumentKind.DIFY
        analysis = analyze_document(again.mapping)
        assert analysis.ok and not analysis.warnings
        assert [n["data"]["type"] for n in again.mapping["workflow"]["graph"]["nodes"]] == ["start", "llm", "end"]

    @pytest.mark.parametrize("language", sorted(DESCRIPTIONS))
    def test_the_same_description_gives_byte_identical_output(self, language: str) -> None:
        first = scaffold_description(normalize(DESCRIPTIONS[language]).description)  # type: ignore[arg-type]
        second = scaffold_description(normalize(DESCRIPTIONS[language]).description)  # type: ignore[arg-type]
        assert emit_yaml(first.document) == emit_yaml(second.document)
        assert emit_json(first.document) == emit_json(second.document)

    def test_the_prompt_references_every_input_of_the_start_node(self) -> None:
        described = normalize("Rewrite {{text}} for {{audience}}").description
        assert described is not None
        nodes = scaffold_description(described).document["workflow"]["graph"]["nodes"]
        start_id, user_prompt = nodes[0]["id"], nodes[1]["data"]["prompt_template"][1]["text"]
        assert f"{{{{#{start_id}.text#}}}}" in user_prompt and f"{{{{#{start_id}.audience#}}}}" in user_prompt
        assert nodes[2]["data"]["outputs"][0]["value_selector"] == [nodes[1]["id"], "text"]

    def test_dsl_version_and_model_are_configurable(self) -> None:
        options = ScaffoldOptions(dsl_version="0.7.0", model=ModelSpec(provider="anthropic", name="claude"))
        doc = scaffold_description(normalize("Summarise").description, options).document  # type: ignore[arg-type]
        assert doc["version"] == "0.7.0"
        assert doc["workflow"]["graph"]["nodes"][1]["data"]["model"]["provider"] == "anthropic"

    def test_a_malformed_version_option_is_refused(self) -> None:
        with pytest.raises(WorkflowInvalidError):
            ScaffoldOptions(dsl_version="0.6")


class TestReuse:
    def test_a_safe_sound_workflow_is_reused(self) -> None:
        doc = dsl([start("query"), llm("llm", "{{#start.query#}}"), end(("result", ["llm", "text"]))],
                  [edge("start", "llm", types=("start", "llm")), edge("llm", "end", types=("llm", "end"))])
        result = scaffold_dsl(doc)
        assert result.origin is Origin.REUSED and result.safety is not None and result.safety.safe
        assert [n["id"] for n in result.document["workflow"]["graph"]["nodes"]] == ["start", "llm", "end"]

    def test_an_unsafe_workflow_becomes_the_fixed_graph_with_its_inputs(self) -> None:
        doc = full_subset()  # has a code node and a non-allowlisted http-request
        result = scaffold_dsl(doc)
        assert result.origin is Origin.GENERATED
        assert any(w.startswith("code_node:") for w in result.warnings)
        assert any(w.startswith("http_not_allowlisted:") for w in result.warnings)
        variables = result.document["workflow"]["graph"]["nodes"][0]["data"]["variables"]
        assert [v["variable"] for v in variables] == ["query", "tone"]

    def test_a_workflow_with_analysis_errors_is_not_reused(self) -> None:
        doc = dsl([start("x"), code("c", "def main():\n    return {}", {})], [edge("start", "missing")])
        result = scaffold_dsl(doc)
        assert result.origin is Origin.GENERATED
        assert any("dangling_edge" in w for w in result.warnings)
