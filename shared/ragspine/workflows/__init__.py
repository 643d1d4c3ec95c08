"""Workflow domain: normalise, scaffold, preview, analyze, convert and compile Dify-compatible workflows.

Lifecycle: description or JSON/YAML/TOML -> :func:`normalize` -> reuse a safe Dify workflow or
generate the fixed start -> llm -> end graph (:mod:`scaffold`) -> deterministic YAML/JSON and
preview schema v1 (:mod:`dsl`) -> optional :func:`analyze` (:mod:`analysis`), :func:`convert`
(:mod:`convert`, over the n8n model in :mod:`n8n`) and :func:`compile_plan` -> the
:class:`ExecutionGate` (off by default) in front of the executor (:mod:`run`; code nodes run
jailed or in their own Lambda function, docs/security.md); :mod:`surfaces` serves stored
workflows to the Dify, n8n and webhook routes. Each subpackage's ``__init__`` is its face: the
others import only from it.

Jinja2 and httpx load on first use.
"""

from __future__ import annotations

from ragspine.workflows.analysis import (
    Analysis,
    Finding,
    FindingCode,
    SafetyReport,
    Severity,
    analyze,
    analyze_document,
    assess_reuse,
)
from ragspine.workflows.convert import Conversion, ConversionReport, SkippedNode, convert, dify_to_n8n, n8n_to_dify
from ragspine.workflows.dsl import (
    DEFAULT_DSL_VERSION,
    AppMode,
    Description,
    DifyWorkflow,
    DocumentKind,
    InputFormat,
    InputSpec,
    NodeType,
    NormalizedInput,
    Origin,
    OutputFormat,
    Preview,
    build_preview,
    content_hash,
    description_from_text,
    emit,
    emit_json,
    emit_yaml,
    normalize,
    preview_schema,
    read_dsl,
)
from ragspine.workflows.n8n import emit_n8n, read_n8n
from ragspine.workflows.run import Binding, ExecutionGate, ExecutionPlan, Step, compile_plan
from ragspine.workflows.scaffold import (
    ModelSpec,
    Scaffold,
    ScaffoldOptions,
    scaffold_description,
    scaffold_dsl,
    scaffold_input,
)

__all__ = [
    "DEFAULT_DSL_VERSION", "Analysis", "AppMode", "Binding", "Conversion", "ConversionReport", "Description",
    "DifyWorkflow", "DocumentKind", "ExecutionGate", "ExecutionPlan", "Finding", "FindingCode", "InputFormat",
    "InputSpec", "ModelSpec", "NodeType", "NormalizedInput", "Origin", "OutputFormat", "Preview", "SafetyReport",
    "Scaffold", "ScaffoldOptions", "Severity", "SkippedNode", "Step", "analyze", "analyze_document", "assess_reuse",
    "build_preview", "compile_plan", "content_hash", "convert", "description_from_text", "dify_to_n8n", "emit",
    "emit_json", "emit_n8n", "emit_yaml", "n8n_to_dify", "normalize", "preview_schema", "read_dsl", "read_n8n",
    "scaffold_description", "scaffold_dsl", "scaffold_input",
]
