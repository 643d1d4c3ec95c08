"""Scaffolding: reuse a safe Dify workflow, or generate the fixed start -> llm -> end graph.

A description (free text, or a mapping with inputs) always gives the generated graph. A Dify
document is reused when :func:`assess_reuse` finds nothing and analyze finds no error;
otherwise its name, description and start inputs seed a generated graph, and the reasons are
returned as warnings. Output is deterministic: ids derive from content, never from a clock.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ragspine.workflows.analysis import SafetyReport, analyze, assess_reuse
from ragspine.workflows.convert import n8n_to_dify
from ragspine.workflows.dsl import (
    DEFAULT_DSL_VERSION,
    DEFAULT_FEATURES,
    INPUT_KINDS,
    VARIABLE_NAME,
    AppMode,
    Description,
    DifyWorkflow,
    DocumentKind,
    InputSpec,
    NodeType,
    NormalizedInput,
    Origin,
    canonical_dsl,
    detect_language,
    edge_id,
    node_wrapper,
    read_dsl,
    stable_id,
)
from ragspine.workflows.errors import WorkflowInvalidError
from ragspine.workflows.shapes import maps, text

_VERSION = re.compile(r"\d+\.\d+\.\d+")


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """The llm node's model (Dify ``model``): any provider Dify knows; the executor ignores it."""

    provider: str = "openai"
    name: str = "gpt-4o-mini"
    temperature: float = 0.2


@dataclass(frozen=True, slots=True)
class ScaffoldOptions:
    """Knobs of the scaffolder; ``dsl_version`` is what generated documents declare."""

    dsl_version: str = DEFAULT_DSL_VERSION
    http_allowlist: Collection[str] = ()
    model: ModelSpec = field(default_factory=ModelSpec)

    def __post_init__(self) -> None:
        if not _VERSION.fullmatch(self.dsl_version):
            raise WorkflowInvalidError("dsl_version must look like 0.6.0", pointer="/version")


@dataclass(frozen=True, slots=True)
class Scaffold:
    """A canonical Dify document, how it was obtained, and what the caller should know."""

    document: dict[str, Any]
    origin: Origin
    warnings: tuple[str, ...] = ()
    safety: SafetyReport | None = None


def _user_prompt(inputs: tuple[InputSpec, ...], start_id: str) -> str:
    if len(inputs) == 1:
        return f"{{{{#{start_id}.{inputs[0].name}#}}}}"
    return "\n".join(f"{spec.label}: {{{{#{start_id}.{spec.name}#}}}}" for spec in inputs)


def _start_data(description: Description) -> dict[str, Any]:
    variables = [{"variable": s.name, "label": s.label, "type": s.kind, "required": s.required,
                  "max_length": s.max_length, "options": []} for s in description.inputs]
    return {"type": NodeType.START.value, "title": "Start", "desc": "", "variables": variables}


def _llm_data(description: Description, start_id: str, model: ModelSpec) -> dict[str, Any]:
    return {"type": NodeType.LLM.value, "title": "LLM", "desc": "",
            "model": {"provider": model.provider, "name": model.name, "mode": "chat",
                      "completion_params": {"temperature": model.temperature}},
            "prompt_template": [{"role": "system", "text": description.text},
                                {"role": "user", "text": _user_prompt(description.inputs, start_id)}],
            "context": {"enabled": False, "variable_selector": []}, "vision": {"enabled": False}, "variables": []}


def generate(description: Description, options: ScaffoldOptions | None = None) -> dict[str, Any]:
    """The fixed start -> llm -> end graph for a description, as a canonical DSL mapping."""
    options = options or ScaffoldOptions()
    seed = (description.name, description.text, *(f"{s.name}:{s.kind}" for s in description.inputs))
    start_id, llm_id, end_id = (stable_id(role, *seed) for role in ("start", "llm", "end"))
    end = {"type": NodeType.END.value, "title": "End", "desc": "",
           "outputs": [{"variable": "result", "value_selector": [llm_id, "text"], "value_type": "string"}]}
    nodes = [node_wrapper(start_id, _start_data(description), 0),
             node_wrapper(llm_id, _llm_data(description, start_id, options.model), 1),
             node_wrapper(end_id, end, 2)]
    edges = [{"id": edge_id(s, "source", t), "source": s, "sourceHandle": "source", "target": t,
              "targetHandle": "target", "type": "custom", "zIndex": 0,
              "data": {"isInIteration": False, "isInLoop": False}} for s, t in ((start_id, llm_id), (llm_id, end_id))]
    doc = {"version": options.dsl_version, "kind": "app",
           "app": {"name": description.name, "mode": AppMode.WORKFLOW.value, "icon": "🤖", "icon_type": "emoji",
                   "icon_background": "#FFEAD5", "description": description.text[:400],
                   "use_icon_as_answer_icon": False},
           "workflow": {"graph": {"nodes": nodes, "edges": edges, "viewport": {"x": 0, "y": 0, "zoom": 1}},
                        "features": DEFAULT_FEATURES, "environment_variables": [], "conversation_variables": []},
           "dependencies": []}
    return canonical_dsl(doc)


def _inputs_of(workflow: DifyWorkflow) -> tuple[InputSpec, ...]:
    start = next((n for n in workflow.nodes if n.type == NodeType.START.value and n.parent_id is None), None)
    specs: list[InputSpec] = []
    for var in maps(start.data.get("variables")) if start else []:
        name = var.get("variable")
        if isinstance(name, str) and VARIABLE_NAME.fullmatch(name) and name not in {s.name for s in specs}:
            kind = str(var.get("type")) if var.get("type") in INPUT_KINDS else "paragraph"
            label = text(var.get("label"), name)
            specs.append(InputSpec(name=name, label=label, kind=kind, required=bool(var.get("required", True))))
    return tuple(specs) or (InputSpec(name="query", label="Input"),)


def _description_of(workflow: DifyWorkflow) -> Description:
    text = (workflow.description or workflow.name).strip() or "workflow"
    return Description(text=text, name=workflow.name[:40] or "workflow", language=detect_language(text),
                       inputs=_inputs_of(workflow))


def scaffold_description(description: Description, options: ScaffoldOptions | None = None) -> Scaffold:
    """Generate the fixed graph for a description."""
    return Scaffold(document=generate(description, options), origin=Origin.GENERATED)


def scaffold_dsl(doc: Mapping[str, Any], options: ScaffoldOptions | None = None, *,
                 origin: Origin = Origin.REUSED) -> Scaffold:
    """Reuse a Dify document when it is safe and sound, else generate from its name and inputs.

    Raises:
        WorkflowInvalidError: the document's structure cannot be read.
    """
    options = options or ScaffoldOptions()
    workflow = read_dsl(doc)
    report = assess_reuse(workflow, http_allowlist=options.http_allowlist)
    analysis = analyze(workflow)
    if report.safe and analysis.ok and workflow.has_graph:
        warnings = tuple(f"{f.code.value}: {f.message}" for f in analysis.warnings)
        return Scaffold(document=canonical_dsl({**doc, "dependencies": []}), origin=origin,
                        warnings=warnings, safety=report)
    reasons = report.messages() + tuple(f"{f.code.value}: {f.message}" for f in analysis.errors)
    if not workflow.has_graph:
        reasons += (f"mode {workflow.mode} has no workflow graph",)
    note = "generated the fixed start -> llm -> end graph instead of reusing the supplied workflow"
    return Scaffold(document=generate(_description_of(workflow), options), origin=Origin.GENERATED,
                    warnings=(note, *reasons), safety=report)


def scaffold_input(normalized: NormalizedInput, options: ScaffoldOptions | None = None) -> Scaffold:
    """Scaffold whatever normalisation produced: a description, a Dify DSL or an n8n workflow.

    An n8n workflow is converted first (its report becomes warnings) and then treated like a
    user-supplied Dify document.

    Raises:
        WorkflowInvalidError: the document's structure cannot be read.
        WorkflowNodeUnsupportedError: an n8n workflow with no convertible node.
    """
    options = options or ScaffoldOptions()
    if normalized.description is not None:
        return scaffold_description(normalized.description, options)
    if normalized.kind is DocumentKind.N8N:
        converted = n8n_to_dify(normalized.mapping, dsl_version=options.dsl_version)
        notes = tuple(f"not converted: {s.name} ({s.node_type}): {s.reason}" for s in converted.report.skipped)
        result = scaffold_dsl(converted.document, options, origin=Origin.CONVERTED)
        return dataclasses.replace(result, warnings=notes + converted.report.warnings + result.warnings)
    return scaffold_dsl(normalized.mapping, options)
