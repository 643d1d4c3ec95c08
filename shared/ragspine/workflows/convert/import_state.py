"""State of one n8n -> Dify conversion: node ids, and n8n references resolved to Dify selectors."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ragspine.workflows.convert import node_types as t
from ragspine.workflows.convert.expr import from_n8n, parse_n8n_ref
from ragspine.workflows.dsl import VARIABLE_NAME, stable_id
from ragspine.workflows.n8n import N8nNode, N8nWorkflow

_DIFY_ID = re.compile(r"[A-Za-z0-9_]{1,50}")
_SINGLE = re.compile(r"^=\s*\{\{(.*)\}\}\s*$", re.DOTALL)
# A converted n8n node: one or more (Dify id, node data) pairs (a Set node becomes a chain).
Built = list[tuple[str, dict[str, Any]]]


def dify_data(node_type: str, title: str, **fields: Any) -> dict[str, Any]:
    """Dify node ``data`` with the keys every node has."""
    return {"type": node_type, "title": title, "desc": "", **fields}


def dify_id(n8n_id: str, taken: set[str]) -> str:
    """Keep an n8n id Dify can use (so ids survive a round trip), else derive a stable one."""
    candidate = n8n_id if _DIFY_ID.fullmatch(n8n_id) else stable_id("n8n", n8n_id)
    while candidate in taken:
        candidate = stable_id("n8n", candidate)
    taken.add(candidate)
    return candidate


@dataclass
class ImportContext:
    """Which n8n nodes became which Dify nodes, and how to read their outputs."""

    workflow: N8nWorkflow
    ids: dict[str, str] = field(default_factory=dict)
    chains: dict[str, dict[str, str]] = field(default_factory=dict)
    full_response: set[str] = field(default_factory=set)
    start: str | None = None
    start_vars: list[str] = field(default_factory=list)
    chat: bool = False
    notes: list[str] = field(default_factory=list)

    def node(self, name: str) -> N8nNode | None:
        """The n8n node with this name."""
        return next((n for n in self.workflow.nodes if n.name == name), None)

    def predecessors(self, name: str) -> list[str]:
        """Names feeding the node's main inputs, in connection order."""
        return list(dict.fromkeys(c.source for c in self.workflow.connections if c.target == name
                                  and c.kind == "main"))

    def _producer(self, name: str | None, current: str) -> N8nNode | None:
        """The node whose data an expression reads; If and NoOp pass their input through."""
        seen: set[str] = set()
        if name is None:
            preds = self.predecessors(current)
            name = preds[0] if len(preds) == 1 else None
        while name is not None and name not in seen:
            seen.add(name)
            node = self.node(name)
            if node is None or node.type not in t.PASS_THROUGH:
                return node
            preds = self.predecessors(name)
            name = preds[0] if len(preds) == 1 else None
        return None

    def _start_var(self, name: str) -> str | None:
        if not VARIABLE_NAME.fullmatch(name):
            # Dify variable names are ASCII identifiers; "Target Url" becomes "Target_Url".
            safe = re.sub(r"\W", "_", name, flags=re.ASCII)[:30]
            safe = safe if VARIABLE_NAME.fullmatch(safe) else f"v_{safe}"[:30]
            self.notes.append(f"input {name!r} is named {safe!r} in Dify")
            name = safe
        if name not in self.start_vars:
            self.start_vars.append(name)
        return name

    def resolve(self, current: str, name: str | None, path: tuple[str, ...]) -> tuple[str, ...] | None:
        """The Dify selector for an n8n reference made inside node ``current``, or None."""
        node = self._producer(name, current)
        if node is None or node.name not in self.ids or not path:
            return None
        node_id, head, rest = self.ids[node.name], path[0], path[1:]
        if node.type == t.CHAT_TRIGGER:
            if path == ("chatInput",):
                return ("sys", "query")
            var = self._start_var(head)
            return (node_id, var, *rest) if var else None
        if node.type == t.WEBHOOK:
            var = self._start_var(rest[0]) if head in ("body", "query") and rest else None
            return (node_id, var, *rest[1:]) if var else None
        if node.type == t.MANUAL_TRIGGER:
            var = self._start_var(head)
            return (node_id, var, *rest) if var else None
        if node.type == t.OPENAI:
            return (node_id, "text") if path[:2] == ("message", "content") or path == ("text",) else None
        if node.type == t.HTTP_REQUEST:
            return self._http_selector(node, node_id, path)
        if node.type == t.SET:
            chain = self.chains.get(node.name, {})
            return (chain[head], "output") if head in chain and not rest else None
        if node.type == t.CODE:
            return (node_id, head, *rest)
        return None

    def _http_selector(self, node: N8nNode, node_id: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        names = {"body": "body", "statusCode": "status_code", "headers": "headers"}
        if node.name in self.full_response:
            return (node_id, names[path[0]], *path[1:]) if path[0] in names else None
        # Without full responses n8n puts the parsed body at the top; Dify's body is its text.
        self.notes.append(f"{node.name}: n8n's parsed JSON fields are read from Dify's raw body text")
        return (node_id, "body")

    def text(self, value: object, current: str) -> str:
        """An n8n parameter as Dify template text; untranslated expressions are noted."""
        if not isinstance(value, str):
            return "" if value is None else str(value)
        converted, problems = from_n8n(value, lambda name, path: self.resolve(current, name, path))
        self.notes.extend(f"{current}: expression {p[:120]} was kept as text" for p in problems)
        return converted


def single_ref(value: Any, node: N8nNode, ctx: ImportContext) -> tuple[str, ...] | None:
    """The selector when ``value`` is exactly one plain reference (``={{ $json.x }}``)."""
    match = _SINGLE.match(value) if isinstance(value, str) else None
    ref = parse_n8n_ref(match.group(1)) if match else None
    return ctx.resolve(node.name, ref.node, ref.path) if ref else None
