"""n8n workflow JSON -> Dify DSL for the shared node subset (see ``n8n_types``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragspine.workflows.convert import node_types as t
from ragspine.workflows.convert.from_n8n_nodes import BUILDERS, set_chain
from ragspine.workflows.convert.import_state import Built, ImportContext, dify_id
from ragspine.workflows.convert.report import Conversion, ConversionReport, SkipNode, SkippedNode
from ragspine.workflows.dsl import DEFAULT_DSL_VERSION, DEFAULT_FEATURES, AppMode, canonical_dsl, edge_id, node_wrapper
from ragspine.workflows.errors import WorkflowNodeUnsupportedError
from ragspine.workflows.n8n import N8nNode, N8nWorkflow, read_n8n


def _candidates(workflow: N8nWorkflow) -> tuple[N8nNode | None, list[N8nNode], list[SkippedNode]]:
    triggers = [n for n in workflow.nodes if n.type in t.TRIGGERS and not n.disabled]
    start = triggers[0] if triggers else None
    chosen: list[N8nNode] = []
    skipped: list[SkippedNode] = []
    for node in workflow.nodes:
        if node.disabled:
            skipped.append(SkippedNode(node.id, node.name, node.type, "disabled in n8n"))
        elif node.type in t.TRIGGERS and node is not start:
            skipped.append(SkippedNode(node.id, node.name, node.type, "Dify allows exactly one start node"))
        elif node.type not in BUILDERS:
            skipped.append(SkippedNode(node.id, node.name, node.type, "no Dify counterpart in the supported subset"))
        else:
            chosen.append(node)
    return start, chosen, skipped


def _build(workflow: N8nWorkflow, start: N8nNode | None, chosen: list[N8nNode]
           ) -> tuple[ImportContext, dict[str, Built], list[SkippedNode]]:
    taken: set[str] = set()
    ids = {n.name: dify_id(n.id, taken) for n in chosen}
    chains = {n.name: set_chain(n, ids[n.name]) for n in chosen if n.type == t.SET}
    skipped: dict[str, SkippedNode] = {}
    # Skipping a node unresolves references to it elsewhere: rebuild until nothing new is skipped.
    while True:
        ctx = ImportContext(workflow, ids={k: v for k, v in ids.items() if k not in skipped}, chains=chains,
                            start=start.name if start else None,
                            chat=start is not None and start.type == t.CHAT_TRIGGER)
        built: dict[str, Built] = {}
        before = len(skipped)
        for node in chosen:
            if node.name in skipped:
                continue
            try:
                built[node.name] = BUILDERS[node.type](node, ctx)
            except SkipNode as exc:
                skipped[node.name] = SkippedNode(node.id, node.name, node.type, str(exc))
        if len(skipped) == before:
            return ctx, built, list(skipped.values())


def _edges(workflow: N8nWorkflow, ctx: ImportContext, built: Mapping[str, Built]) -> tuple[list[dict[str, Any]], int]:
    pairs: list[tuple[str, str, str]] = []
    for parts in built.values():
        pairs += [(a[0], "source", b[0]) for a, b in zip(parts, parts[1:], strict=False)]
    dropped = 0
    kinds = {n.name: n.type for n in workflow.nodes}
    for conn in workflow.connections:
        if conn.kind != "main" or conn.source not in built or conn.target not in built:
            dropped += 1
            continue
        handle = ("true" if conn.output == 0 else "false") if kinds[conn.source] == t.IF else "source"
        pairs.append((built[conn.source][-1][0], handle, built[conn.target][0][0]))
    edges = [{"id": edge_id(s, h, g), "source": s, "sourceHandle": h, "target": g, "targetHandle": "target",
              "type": "custom", "zIndex": 0, "data": {"isInIteration": False, "isInLoop": False}}
             for s, h, g in dict.fromkeys(pairs)]
    return edges, dropped


def n8n_to_dify(doc: Mapping[str, Any], *, dsl_version: str = DEFAULT_DSL_VERSION) -> Conversion:
    """Convert an n8n workflow mapping; nodes outside the subset are listed in the report.

    Raises:
        WorkflowInvalidError: the n8n document has the wrong shape.
        WorkflowNodeUnsupportedError: no node at all could be converted.
    """
    workflow = read_n8n(doc)
    start, chosen, skipped = _candidates(workflow)
    ctx, built, late = _build(workflow, start, chosen)
    if not built:
        raise WorkflowNodeUnsupportedError("no node of this n8n workflow has a Dify counterpart",
                                           node_ids=tuple(n.id for n in workflow.nodes))
    positions = {n.name: n.position for n in workflow.nodes}
    nodes = []
    for name, parts in built.items():
        x, y = positions[name]
        for i, (node_id, data) in enumerate(parts):
            if data["type"] == "start":
                data["variables"] = [{"variable": v, "label": v, "type": "paragraph", "required": True,
                                      "max_length": 4000, "options": []} for v in ctx.start_vars]
            nodes.append(node_wrapper(node_id, data, position=(x + 300 * i, y)))
    edges, dropped = _edges(workflow, ctx, built)
    mode = AppMode.ADVANCED_CHAT.value if ctx.chat else AppMode.WORKFLOW.value
    document = canonical_dsl({
        "version": dsl_version, "kind": "app",
        "app": {"name": workflow.name, "mode": mode, "icon": "🤖", "icon_type": "emoji", "icon_background": "#FFEAD5",
                "description": "", "use_icon_as_answer_icon": False},
        "workflow": {"graph": {"nodes": nodes, "edges": edges, "viewport": {"x": 0, "y": 0, "zoom": 1}},
                     "features": DEFAULT_FEATURES, "environment_variables": [], "conversation_variables": []},
        "dependencies": []})
    report = ConversionReport(source="n8n", target="dify", converted=tuple(n["id"] for n in nodes),
                              skipped=tuple(skipped + late), warnings=tuple(dict.fromkeys(ctx.notes)),
                              dropped_connections=dropped)
    return Conversion(document=document, report=report)
