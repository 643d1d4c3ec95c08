"""Graph algorithms over a Dify workflow: adjacency, reachability, strongly connected parts, order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ragspine.workflows.dsl.model import CONTAINER_TYPES, DifyEdge, DifyWorkflow


@dataclass(frozen=True, slots=True)
class Graph:
    """Adjacency of the nodes that exist; edges with a missing end are left out (analyze reports them)."""

    node_ids: tuple[str, ...]
    out_edges: dict[str, tuple[DifyEdge, ...]]
    in_edges: dict[str, tuple[DifyEdge, ...]]
    children: dict[str, tuple[str, ...]]

    def successors(self, node_id: str) -> tuple[str, ...]:
        """Targets of the node's outgoing edges, in edge order."""
        return tuple(e.target for e in self.out_edges.get(node_id, ()))

    def ancestors(self, node_id: str) -> set[str]:
        """Every node with a path of edges to ``node_id`` (what can run before it)."""
        seen: set[str] = set()
        stack = [e.source for e in self.in_edges.get(node_id, ())]
        while stack:
            current = stack.pop()
            if current not in seen:
                seen.add(current)
                stack.extend(e.source for e in self.in_edges.get(current, ()))
        return seen


def build_graph(workflow: DifyWorkflow) -> Graph:
    """Index edges by source and target, and container nodes by their children."""
    ids = tuple(dict.fromkeys(n.id for n in workflow.nodes))
    known = set(ids)
    outs: dict[str, list[DifyEdge]] = {i: [] for i in ids}
    ins: dict[str, list[DifyEdge]] = {i: [] for i in ids}
    for edge in workflow.edges:
        if edge.source in known and edge.target in known:
            outs[edge.source].append(edge)
            ins[edge.target].append(edge)
    children: dict[str, list[str]] = {}
    containers = {n.id for n in workflow.nodes if n.type in CONTAINER_TYPES}
    for node in workflow.nodes:
        if node.parent_id in containers:
            children.setdefault(node.parent_id or "", []).append(node.id)
    return Graph(node_ids=ids, out_edges={k: tuple(v) for k, v in outs.items()},
                 in_edges={k: tuple(v) for k, v in ins.items()},
                 children={k: tuple(v) for k, v in children.items()})


def reachable(graph: Graph, roots: Iterable[str]) -> set[str]:
    """Nodes reachable from ``roots`` along edges; a reachable container reaches its children."""
    seen: set[str] = set()
    stack = [r for r in roots if r in graph.out_edges]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(graph.successors(node))
        stack.extend(graph.children.get(node, ()))
    return seen


def reaches(graph: Graph, targets: Iterable[str]) -> set[str]:
    """Nodes from which some target is reachable (walking edges backwards)."""
    seen: set[str] = set()
    stack = [t for t in targets if t in graph.in_edges]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(e.source for e in graph.in_edges.get(node, ()))
    return seen


def _pop_component(stack: list[str], on_stack: set[str], root: str) -> list[str]:
    component: list[str] = []
    while True:
        member = stack.pop()
        on_stack.discard(member)
        component.append(member)
        if member == root:
            return component


def strongly_connected(graph: Graph) -> list[tuple[str, ...]]:
    """Cycles as strongly connected components of two or more nodes, or one node with a self edge.

    Tarjan's algorithm, written iteratively so deep graphs do not hit the recursion limit.
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[tuple[str, ...]] = []

    def visit(node: str) -> Iterator[str]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return iter(graph.successors(node))

    for root in (n for n in graph.node_ids if n not in index):
        work = [(root, visit(root))]
        while work:
            node, successors = work[-1]
            nxt = next((s for s in successors if s not in index or s in on_stack), None)
            if nxt is not None:
                if nxt in index:
                    low[node] = min(low[node], index[nxt])
                else:
                    work.append((nxt, visit(nxt)))
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = _pop_component(stack, on_stack, node)
                if len(component) > 1 or node in graph.successors(node):
                    found.append(tuple(sorted(component)))
    return found


def topological_order(graph: Graph, nodes: Iterable[str]) -> list[str] | None:
    """Kahn's order of ``nodes`` (ties kept in document order); None when they contain a cycle."""
    members = [n for n in graph.node_ids if n in set(nodes)]
    chosen = set(members)
    indegree = {n: sum(1 for e in graph.in_edges[n] if e.source in chosen) for n in members}
    ready = [n for n in members if indegree[n] == 0]
    order: list[str] = []
    while ready:
        node = ready.pop(0)
        order.append(node)
        for target in graph.successors(node):
            if target in chosen:
                indegree[target] -= 1
                if indegree[target] == 0:
                    ready.append(target)
    return order if len(order) == len(members) else None
