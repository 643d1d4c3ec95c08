"""The whole workflow pipeline over one input, returning every output as text (for determinism checks)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from ragspine.errors import RagspineError
from ragspine.workflows.analysis.analyze import analyze
from ragspine.workflows.convert.dispatch import dify_to_n8n, n8n_to_dify
from ragspine.workflows.dsl.emit import emit_json, emit_yaml
from ragspine.workflows.dsl.model import read_dsl
from ragspine.workflows.dsl.normalize import DocumentKind, normalize
from ragspine.workflows.dsl.preview import build_preview
from ragspine.workflows.n8n.model import emit_n8n
from ragspine.workflows.run.compile import compile_plan
from ragspine.workflows.scaffold.scaffolder import Origin, scaffold_dsl

T = TypeVar("T")


def _stage(label: str, outputs: dict[str, str], action: Callable[[], T]) -> T | None:
    """Run one stage; one of our own errors is a valid result and is recorded with its code."""
    try:
        return action()
    except RagspineError as exc:
        outputs[label] = f"error {exc.code}: {exc.message}"
        return None


def _dify_stages(doc: dict[str, Any], outputs: dict[str, str]) -> None:
    workflow = _stage("read", outputs, lambda: read_dsl(doc))
    if workflow is None:
        return
    outputs["analyze"] = json.dumps(analyze(workflow).to_dict(), ensure_ascii=False)
    outputs["yaml"], outputs["json"] = emit_yaml(doc), emit_json(doc)
    outputs["preview"] = json.dumps(build_preview(doc, origin=Origin.REUSED).to_dict(), ensure_ascii=False)
    scaffold = scaffold_dsl(doc)
    outputs["scaffold"] = emit_yaml(scaffold.document) + "\n".join(scaffold.warnings)
    there = _stage("dify_to_n8n", outputs, lambda: dify_to_n8n(doc))
    if there is not None:
        outputs["dify_to_n8n"] = emit_n8n(there.document) + json.dumps(there.report.to_dict(), ensure_ascii=False)
    plan = _stage("compile", outputs, lambda: compile_plan(workflow))
    if plan is not None:
        outputs["compile"] = "\n".join(f"{s.node_id} {s.node_type} {s.bindings}" for s in plan.steps)


def run_pipeline(data: bytes, filename: str) -> dict[str, str]:
    """normalise -> (n8n: convert to Dify) -> read -> analyze, emit, preview, scaffold, convert, compile."""
    outputs: dict[str, str] = {}
    normalized = _stage("normalize", outputs, lambda: normalize(data, filename=filename))
    if normalized is None:
        return outputs
    doc = normalized.mapping
    if normalized.kind is DocumentKind.N8N:
        converted = _stage("n8n_to_dify", outputs, lambda: n8n_to_dify(normalized.mapping))
        if converted is None:
            return outputs
        outputs["n8n_to_dify"] = json.dumps(converted.report.to_dict(), ensure_ascii=False)
        doc = converted.document
    if normalized.kind is not DocumentKind.DESCRIPTION:
        _dify_stages(doc, outputs)
    return outputs
