"""Dify DSL -> n8n workflow JSON for the shared node subset (see ``n8n_types``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragspine.workflows.convert.report import Conversion, ConversionReport, SkipNode, SkippedNode
from ragspine.workflows.convert.to_n8n_nodes import BUILDERS, ExportContext
from ragspine.workflows.dsl import AppMode, DifyNode, DifyWorkflow, read_dsl
from ragspine.workflows.errors import WorkflowInvalidError, WorkflowNodeUnsupportedError
from ragspine.workflows.n8n import canonical_n8n


def _unique_names(nodes: list[DifyNode]) -> dict[str, str]:
    names: dict[str, str] = {}
    for node in nodes:
        base = node.title.strip() or node.type
        name, n = base, 2
        while name in names.values():
            name, n = f"{base} ({n})", n + 1
        names[node.id] = name
    return names


def _build_all(workflow: DifyWorkflow,
               candidates: list[DifyNode]) -> tuple[ExportContext, list[dict[str, Any]], list[SkippedNode]]:
    names = _unique_names(candidates)
    skipped: dict[str, SkippedNode] = {}
    # Skipping a node removes its name, which can make references elsewhere fail: repeat to a fixpoint.
    while True:
        ctx = ExportContext(workflow, names={k: v for k, v in names.items() if k not in skipped},
                            chat=workflow.mode == AppMode.ADVANCED_CHAT.value)
        built: list[dict[str, Any]] = []
        before = len(skipped)
        for node in candidates:
            if node.id in skipped:
                continue
            try:
                node_type, version, params = BUILDERS[node.type](node, ctx)
            except SkipNode as exc:
                skipped[node.id] = SkippedNode(node.id, node.title, node.type, str(exc))
                continue
            built.append({"id": node.id, "name": names[node.id], "type": node_type, "typeVersion": version,
                          "position": [_plain(v) for v in node.position], "parameters": params})
        if len(skipped) == before:
            return ctx, built, list(skipped.values())


def _output_index(node: DifyNode, handle: str) -> int:
    if node.type != "if-else":
        return 0
    return 1 if handle == "false" else 0


def dify_to_n8n(doc: Mapping[str, Any]) -> Conversion:
    """Convert a Dify DSL mapping; nodes outside the subset are listed in the report.

    Raises:
        WorkflowInvalidError: the document is not a workflow/advanced-chat app.
        WorkflowNodeUnsupportedError: no node at all could be converted.
    """
    workflow = read_dsl(doc)
    if not workflow.has_graph:
        raise WorkflowInvalidError(f"mode {workflow.mode} has no workflow graph to convert", pointer="/app/mode")
    outside = [SkippedNode(n.id, n.title, n.type, "no n8n counterpart in the supported subset") for n in workflow.nodes
               if n.type not in BUILDERS and n.parent_id is None]
    contained = [SkippedNode(n.id, n.title, n.type, "inside a loop/iteration container") for n in workflow.nodes
                 if n.parent_id is not None]
    candidates = [n for n in workflow.nodes if n.type in BUILDERS and n.parent_id is None]
    ctx, built, skipped = _build_all(workflow, candidates)
    if not built:
        raise WorkflowNodeUnsupportedError("no node of this workflow has an n8n counterpart",
                                           node_ids=tuple(n.id for n in workflow.nodes))
    connections: dict[str, dict[str, list[list[dict[str, Any]]]]] = {}
    dropped = 0
    for edge in workflow.edges:
        source, target = ctx.names.get(edge.source), ctx.names.get(edge.target)
        node = workflow.node(edge.source)
        if source is None or target is None or node is None:
            dropped += 1
            continue
        outputs = connections.setdefault(source, {}).setdefault("main", [])
        index = _output_index(node, edge.source_handle)
        while len(outputs) <= index:
            outputs.append([])
        outputs[index].append({"node": target, "type": "main", "index": 0})
    document = canonical_n8n({"name": workflow.name, "nodes": built, "connections": connections,
                              "settings": {"executionOrder": "v1"}, "pinData": {}})
    report = ConversionReport(source="dify", target="n8n", converted=tuple(n["id"] for n in built),
                              skipped=tuple(outside + contained + skipped), warnings=tuple(ctx.notes),
                              dropped_connections=dropped)
    return Conversion(document=document, report=report)


def _plain(value: float) -> int | float:
    """Whole numbers as ints, as n8n writes positions."""
    return int(value) if float(value).is_integer() else value
