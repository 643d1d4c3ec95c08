"""analyze: structural findings for a Dify DSL of any version 0.1.0 to 0.7.x.

Checks the version field, the mode, node types, edges (dangling ends, declared types), exactly
one start, reachability of an end (workflow) or answer (advanced-chat), cycles outside loop or
iteration containers, mode-specific nodes in the wrong mode and variable references.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ragspine.workflows.analysis.findings import Analysis, Finding, FindingCode, Severity, sort_findings
from ragspine.workflows.analysis.references import reference_findings
from ragspine.workflows.dsl import (
    CONTAINER_TYPES,
    KNOWN_NODE_TYPES,
    AppMode,
    DifyWorkflow,
    Graph,
    NodeType,
    build_graph,
    reachable,
    reaches,
    read_dsl,
    strongly_connected,
)

_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)")
# Newest DSL minor version we read; Dify 1.16 declares 0.7.0.
NEWEST_READABLE = (0, 7)
ENTRY_TYPES = frozenset({NodeType.START.value, NodeType.TRIGGER_WEBHOOK.value, NodeType.TRIGGER_SCHEDULE.value,
                         NodeType.TRIGGER_PLUGIN.value, NodeType.DATASOURCE.value})
TERMINAL_BY_MODE = {AppMode.WORKFLOW.value: NodeType.END.value, AppMode.ADVANCED_CHAT.value: NodeType.ANSWER.value}
_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO


def _version_findings(workflow: DifyWorkflow) -> list[Finding]:
    raw = workflow.version_raw
    if raw is None:
        return [Finding(FindingCode.MISSING_VERSION, _W, "no version: Dify imports it as 0.1.0", pointer="/version")]
    if not isinstance(raw, str):
        return [Finding(FindingCode.NON_STRING_VERSION, _E,
                        f"version must be a quoted string, got {type(raw).__name__} {raw!r}", pointer="/version")]
    match = _VERSION.fullmatch(raw)
    if not match:
        return [Finding(FindingCode.INVALID_VERSION, _E, f"version {raw!r} is not MAJOR.MINOR.PATCH",
                        pointer="/version")]
    if (int(match.group(1)), int(match.group(2))) > NEWEST_READABLE:
        return [Finding(FindingCode.NEWER_VERSION, _W, f"version {raw} is newer than 0.7.x; Dify asks to confirm",
                        pointer="/version")]
    return []


def _header_findings(workflow: DifyWorkflow) -> list[Finding]:
    found = _version_findings(workflow)
    kind = workflow.raw.get("kind")
    if kind is not None and kind != "app":
        found.append(Finding(FindingCode.KIND_NOT_APP, _W, f"kind {kind!r} is replaced by 'app' on import",
                             pointer="/kind"))
    if workflow.mode not in {m.value for m in AppMode}:
        found.append(Finding(FindingCode.UNKNOWN_MODE, _E, f"unknown app mode {workflow.mode!r}", pointer="/app/mode"))
    elif not workflow.has_graph:
        found.append(Finding(FindingCode.NO_GRAPH, _I, f"mode {workflow.mode} has no workflow graph to analyze",
                             pointer="/app/mode"))
    return found


def _node_findings(workflow: DifyWorkflow) -> list[Finding]:
    found: list[Finding] = []
    counts = Counter(n.id for n in workflow.nodes)
    for node in workflow.nodes:
        if counts[node.id] > 1:
            found.append(Finding(FindingCode.DUPLICATE_NODE_ID, _E, f"node id {node.id} is used more than once",
                                 node.id, f"{node.pointer}/id"))
        if node.type not in KNOWN_NODE_TYPES:
            found.append(Finding(FindingCode.UNKNOWN_NODE_TYPE, _E, f"unknown node type {node.type!r}",
                                 node.id, f"{node.pointer}/data/type"))
        terminal = TERMINAL_BY_MODE.get(workflow.mode)
        if terminal and node.type in TERMINAL_BY_MODE.values() and node.type != terminal:
            found.append(Finding(FindingCode.WRONG_MODE_NODE, _E,
                                 f"{node.type} nodes are not allowed in {workflow.mode} mode (use {terminal})",
                                 node.id, f"{node.pointer}/data/type"))
    return found


def _edge_findings(workflow: DifyWorkflow) -> list[Finding]:
    found: list[Finding] = []
    types = {n.id: n.type for n in workflow.nodes}
    for edge in workflow.edges:
        missing = [end for end in (edge.source, edge.target) if end not in types]
        if missing:
            found.append(Finding(FindingCode.DANGLING_EDGE, _E,
                                 f"edge {edge.id} points to missing node(s) {', '.join(missing)}", None, edge.pointer))
            continue
        declared = (edge.source_type, edge.target_type)
        actual = (types[edge.source], types[edge.target])
        if declared != actual:
            found.append(Finding(FindingCode.EDGE_TYPE_MISMATCH, _W,
                                 f"edge {edge.id} declares {declared[0]}->{declared[1]}, nodes are "
                                 f"{actual[0]}->{actual[1]}", None, f"{edge.pointer}/data"))
    return found


def _reachability_findings(workflow: DifyWorkflow, graph: Graph) -> list[Finding]:
    top = [n for n in workflow.nodes if n.parent_id is None]
    starts = [n for n in top if n.type == NodeType.START.value]
    entries = [n.id for n in top if n.type in ENTRY_TYPES]
    found: list[Finding] = []
    if not entries:
        found.append(Finding(FindingCode.NO_START, _E, "the graph has no start node", pointer="/workflow/graph/nodes"))
    for extra in starts[1:]:
        found.append(Finding(FindingCode.MULTIPLE_START, _E, "more than one start node", extra.id, extra.pointer))
    seen = reachable(graph, entries)
    terminal = TERMINAL_BY_MODE.get(workflow.mode, NodeType.END.value)
    terminals = [n.id for n in top if n.type == terminal]
    if entries and not seen.intersection(terminals):
        found.append(Finding(FindingCode.NO_REACHABLE_TERMINAL, _E, f"no {terminal} node is reachable from the start",
                             pointer="/workflow/graph/nodes"))
    useful = reaches(graph, terminals)
    for node in workflow.nodes:
        if entries and node.id not in seen:
            found.append(Finding(FindingCode.UNREACHABLE_NODE, _W, f"{node.type} node {node.title!r} is unreachable",
                                 node.id, node.pointer))
        elif (node.parent_id is None and node.id in seen and node.id not in useful
              and node.type not in TERMINAL_BY_MODE.values() and not graph.out_edges.get(node.id)):
            # INFO, not WARNING: a branch ending in an assigner is an ordinary chatflow pattern.
            found.append(Finding(FindingCode.DEAD_END, _I, f"{node.type} node {node.title!r} leads to no {terminal}",
                                 node.id, node.pointer))
    return found


def _cycle_findings(workflow: DifyWorkflow, graph: Graph) -> list[Finding]:
    found: list[Finding] = []
    by_id = {n.id: n for n in workflow.nodes}
    for component in strongly_connected(graph):
        parents = {by_id[n].parent_id for n in component}
        parent = by_id.get(next(iter(parents)) or "") if len(parents) == 1 else None
        if parent is not None and parent.type in CONTAINER_TYPES:
            continue
        first = by_id[component[0]]
        found.append(Finding(FindingCode.CYCLE, _E, f"cycle outside a loop/iteration: {' -> '.join(component)}",
                             first.id, first.pointer))
    return found


def analyze(workflow: DifyWorkflow) -> Analysis:
    """Every finding for a parsed workflow, in a deterministic order."""
    found = _header_findings(workflow)
    if workflow.has_graph:
        if not workflow.nodes:
            found.append(Finding(FindingCode.EMPTY_GRAPH, _E, "the graph has no nodes", pointer="/workflow/graph"))
        else:
            graph = build_graph(workflow)
            found += _node_findings(workflow) + _edge_findings(workflow)
            found += _reachability_findings(workflow, graph) + _cycle_findings(workflow, graph)
            found += reference_findings(workflow, graph)
    return Analysis(sort_findings(found))


def analyze_document(doc: Mapping[str, Any]) -> Analysis:
    """Read a normalised DSL mapping and analyze it.

    Raises:
        WorkflowInvalidError: the document's structure cannot be read (see its pointer).
    """
    return analyze(read_dsl(doc))
