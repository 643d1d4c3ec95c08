"""compile: turn a Dify workflow into an executable plan of ordered steps with resolved bindings.

Steps are the top-level nodes reachable from the single start node, in topological order.
Each step lists its bindings: a name, and either a selector ``(node_id, var, ...)`` into an
upstream node's outputs (or ``sys``) or a literal (environment and conversation variables
take their declared values). Nodes inside loop/iteration containers stay with their container.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragspine.workflows.dsl import (
    CONVERSATION,
    ENVIRONMENT,
    SYSTEM,
    DifyNode,
    DifyWorkflow,
    NodeType,
    RefKind,
    build_graph,
    iter_references,
    reachable,
    strongly_connected,
    topological_order,
)
from ragspine.workflows.errors import WorkflowCycleError, WorkflowInvalidError


@dataclass(frozen=True, slots=True)
class Binding:
    """One input of a step: a selector into the variable pool, or a literal value."""

    name: str
    selector: tuple[str, ...] | None = None
    literal: Any = None


@dataclass(frozen=True, slots=True)
class Step:
    """One node to run: its bindings, raw config, and the edges that leave it (handle, target)."""

    node_id: str
    node_type: str
    title: str
    bindings: tuple[Binding, ...]
    config: Mapping[str, Any]
    next: tuple[tuple[str, str], ...]
    after: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExecutionPlan:
    """Steps in execution order; the first is the start node."""

    name: str
    mode: str
    steps: tuple[Step, ...]

    @property
    def start(self) -> Step:
        """The start step."""
        return self.steps[0]

    def step(self, node_id: str) -> Step:
        """The step for a node id."""
        return next(s for s in self.steps if s.node_id == node_id)


def _named_pointers(data: Mapping[str, Any]) -> dict[str, str]:
    named: dict[str, str] = {}
    for key in ("variables", "outputs"):
        items = data.get(key)
        if isinstance(items, list):
            for i, item in enumerate(items):
                if isinstance(item, Mapping) and isinstance(item.get("variable"), str) and "value_selector" in item:
                    named[f"/{key}/{i}/value_selector"] = item["variable"]
    return named


def _scope_literal(workflow: DifyWorkflow, scope: str, name: str, where: str) -> Any:
    pool = workflow.environment_variables if scope == ENVIRONMENT else workflow.conversation_variables
    for var in pool:
        if var.get("name") == name:
            return var.get("value")
    raise WorkflowInvalidError(f"{scope}.{name} is not declared", pointer=where)


def _bindings(workflow: DifyWorkflow, node: DifyNode, upstream: set[str], known: set[str]) -> tuple[Binding, ...]:
    named = _named_pointers(node.data)
    # A container reads its own children's outputs (an iteration's output_selector).
    inside = {n.id for n in workflow.nodes if n.parent_id == node.id}
    found: dict[tuple[str, tuple[str, ...]], Binding] = {}
    for ref in iter_references(node.data):
        where = f"{node.pointer}/data{ref.pointer}"
        if ref.kind is RefKind.MALFORMED:
            raise WorkflowInvalidError(f"malformed reference {{{{#{ref.selector[0]}#}}}}", pointer=where)
        name = named.get(ref.pointer, ".".join(ref.selector))
        if ref.node_id in (ENVIRONMENT, CONVERSATION):
            binding = Binding(name, literal=_scope_literal(workflow, ref.node_id, ref.variable, where))
        elif ref.node_id == SYSTEM or ref.variable.startswith("sys."):
            binding = Binding(name, selector=(SYSTEM, ref.variable.removeprefix("sys.")))
        elif ref.node_id not in known:
            raise WorkflowInvalidError(f"reference to missing node {ref.node_id}", pointer=where)
        elif node.parent_id is None and ref.node_id not in upstream and ref.node_id not in inside:
            raise WorkflowInvalidError(f"{ref.node_id} does not run before {node.id}", pointer=where)
        else:
            binding = Binding(name, selector=ref.selector)
        found.setdefault((name, binding.selector or ()), binding)
    return tuple(found.values())


def _start_of(workflow: DifyWorkflow) -> DifyNode:
    starts = [n for n in workflow.nodes if n.type == NodeType.START.value and n.parent_id is None]
    if len(starts) != 1:
        raise WorkflowInvalidError(f"a plan needs exactly one start node, found {len(starts)}",
                                   pointer="/workflow/graph/nodes")
    return starts[0]


def compile_plan(workflow: DifyWorkflow) -> ExecutionPlan:
    """Compile a parsed workflow.

    Raises:
        WorkflowInvalidError: no graph, not exactly one start, a dangling edge, or a reference
            to a missing or non-upstream node (the pointer says where).
        WorkflowCycleError: the reachable top-level graph has a cycle.
    """
    if not workflow.has_graph:
        raise WorkflowInvalidError(f"mode {workflow.mode} has no workflow graph to compile", pointer="/app/mode")
    known = {n.id for n in workflow.nodes}
    for edge in workflow.edges:
        if edge.source not in known or edge.target not in known:
            raise WorkflowInvalidError(f"edge {edge.id} points to a missing node", pointer=edge.pointer)
    graph, start = build_graph(workflow), _start_of(workflow)
    by_id = {n.id: n for n in workflow.nodes}
    members = [n for n in reachable(graph, [start.id]) if by_id[n].parent_id is None]
    order = topological_order(graph, members)
    if order is None:
        cycle = next(c for c in strongly_connected(graph) if set(c) <= set(members))
        raise WorkflowCycleError(f"cycle: {' -> '.join(cycle)}", pointer=by_id[cycle[0]].pointer)
    steps = []
    for node_id in order:
        node = by_id[node_id]
        steps.append(Step(node_id=node.id, node_type=node.type, title=node.title,
                          bindings=_bindings(workflow, node, graph.ancestors(node.id), known), config=node.data,
                          next=tuple((e.source_handle, e.target) for e in graph.out_edges[node.id]),
                          after=tuple(dict.fromkeys(e.source for e in graph.in_edges[node.id]))))
    return ExecutionPlan(name=workflow.name, mode=workflow.mode, steps=tuple(steps))
