"""The stateless actions behind the ordinary routes and the CLI: compile, preview, analyze, convert.

Each takes a normalised input. A description is scaffolded first and an n8n workflow is
converted first, so every action works on a Dify DSL; what that took is returned as
warnings. Results are plain dataclasses with deterministic ``to_dict`` forms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragspine.workflows.analysis import Analysis, analyze
from ragspine.workflows.convert import ConversionReport, convert, n8n_to_dify
from ragspine.workflows.dsl import (
    DEFAULT_DSL_VERSION,
    DocumentKind,
    NormalizedInput,
    Origin,
    OutputFormat,
    Preview,
    build_preview,
    emit,
    read_dsl,
)
from ragspine.workflows.n8n import emit_n8n
from ragspine.workflows.run import ExecutionPlan, compile_plan
from ragspine.workflows.scaffold import ScaffoldOptions, scaffold_description


@dataclass(frozen=True, slots=True)
class DifySource:
    """The Dify DSL an input amounts to, where it came from, and what getting it took."""

    document: dict[str, Any]
    origin: Origin
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Converted:
    """A converted document, its text in the requested format, and the conversion report."""

    target: str
    document: dict[str, Any]
    text: str
    report: ConversionReport

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form."""
        return {"target": self.target, "document": self.document, "text": self.text, "report": self.report.to_dict()}


def to_dify(normalized: NormalizedInput, options: ScaffoldOptions | None = None) -> DifySource:
    """The Dify DSL of a normalised input (scaffolding a description, converting an n8n workflow).

    Raises:
        WorkflowInvalidError: malformed document. WorkflowNodeUnsupportedError: nothing converts.
    """
    options = options or ScaffoldOptions()
    if normalized.description is not None:
        return DifySource(scaffold_description(normalized.description, options).document, Origin.GENERATED)
    if normalized.kind is DocumentKind.N8N:
        converted = n8n_to_dify(normalized.mapping, dsl_version=options.dsl_version)
        notes = tuple(f"not converted: {s.name} ({s.node_type}): {s.reason}" for s in converted.report.skipped)
        return DifySource(converted.document, Origin.CONVERTED, notes + converted.report.warnings)
    return DifySource(normalized.mapping, Origin.REUSED)


def plan_to_dict(plan: ExecutionPlan) -> dict[str, Any]:
    """JSON-compatible form of a compiled plan (step order is execution order)."""
    def binding(b: Any) -> dict[str, Any]:
        return {"name": b.name, "selector": list(b.selector)} if b.selector else {"name": b.name, "literal": b.literal}

    return {"name": plan.name, "mode": plan.mode, "steps": [
        {"node_id": s.node_id, "node_type": s.node_type, "title": s.title,
         "bindings": [binding(b) for b in s.bindings], "after": list(s.after),
         "next": [{"handle": handle, "target": target} for handle, target in s.next]} for s in plan.steps]}


def compile_source(source: DifySource) -> ExecutionPlan:
    """Compile the source's DSL.

    Raises:
        WorkflowInvalidError: no graph, not one start, bad references. WorkflowCycleError: a cycle.
    """
    return compile_plan(read_dsl(source.document))


def analyze_source(source: DifySource) -> Analysis:
    """Analyze the source's DSL.

    Raises:
        WorkflowInvalidError: the document's structure cannot be read.
    """
    return analyze(read_dsl(source.document))


def preview_source(source: DifySource) -> Preview:
    """Preview schema v1 of the source's DSL, with the warnings of getting it.

    Raises:
        WorkflowInvalidError: the document's structure cannot be read.
    """
    return build_preview(source.document, origin=source.origin, warnings=source.warnings)


def render(document: Mapping[str, Any], *, target: str, fmt: OutputFormat) -> str:
    """Deterministic text: Dify DSL in YAML or JSON, n8n always JSON (n8n imports nothing else)."""
    return emit_n8n(document) if target == "n8n" else emit(document, fmt)


def convert_source(normalized: NormalizedInput, *, fmt: OutputFormat = OutputFormat.YAML,
                   dsl_version: str | None = None) -> Converted:
    """Convert Dify -> n8n or n8n -> Dify, whichever applies.

    Raises:
        WorkflowInvalidError: a description, or a malformed document.
        WorkflowNodeUnsupportedError: nothing converts.
    """
    conversion = convert(normalized.mapping, dsl_version=dsl_version or DEFAULT_DSL_VERSION)
    target = conversion.report.target
    return Converted(target, conversion.document, render(conversion.document, target=target, fmt=fmt),
                     conversion.report)
