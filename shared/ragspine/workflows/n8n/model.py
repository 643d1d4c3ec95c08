"""A typed view of n8n workflow JSON, and its deterministic serialisation.

Connections are keyed by the source node's *name*; ``main[outputIndex]`` lists the targets.
Other connection kinds (``ai_languageModel``, ``ai_tool``…) attach LangChain sub-nodes. The
public API requires ``name``, ``nodes``, ``connections`` and ``settings`` and treats ``active``
as read-only, so :func:`emit_n8n` never writes ``active``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragspine.workflows.dsl import escape_pointer
from ragspine.workflows.errors import WorkflowInvalidError
from ragspine.workflows.shapes import as_list

TOP_ORDER = ("name", "nodes", "connections", "settings", "pinData", "staticData", "meta", "tags")
NODE_ORDER = ("id", "name", "type", "typeVersion", "position", "webhookId", "parameters", "credentials", "disabled",
              "notes", "notesInFlow", "executeOnce", "alwaysOutputData", "retryOnFail", "maxTries",
              "waitBetweenTries", "onError")
READ_ONLY = frozenset({"id", "active", "createdAt", "updatedAt", "isArchived", "versionId", "triggerCount"})
NOTE_TYPE = "n8n-nodes-base.stickyNote"


@dataclass(frozen=True, slots=True)
class N8nNode:
    """One n8n node (credentials are never read, only whether some are attached)."""

    id: str
    name: str
    type: str
    type_version: float
    position: tuple[float, float]
    parameters: Mapping[str, Any]
    has_credentials: bool
    disabled: bool
    index: int

    @property
    def pointer(self) -> str:
        """JSON pointer of this node."""
        return f"/nodes/{self.index}"


@dataclass(frozen=True, slots=True)
class N8nConnection:
    """One connection: source name and output index to target name and input index, of a kind."""

    source: str
    output: int
    target: str
    input: int
    kind: str


@dataclass(frozen=True, slots=True)
class N8nWorkflow:
    """A parsed n8n workflow."""

    name: str
    nodes: tuple[N8nNode, ...]
    connections: tuple[N8nConnection, ...]
    notes: int


def _node(raw: Any, index: int) -> N8nNode:
    pointer = f"/nodes/{index}"
    if not isinstance(raw, Mapping):
        raise WorkflowInvalidError("a node must be an object", pointer=pointer)
    name, node_type = raw.get("name"), raw.get("type")
    if not isinstance(name, str) or not name:
        raise WorkflowInvalidError("node name must be a non-empty string", pointer=f"{pointer}/name")
    if not isinstance(node_type, str) or not node_type:
        raise WorkflowInvalidError("node type must be a non-empty string", pointer=f"{pointer}/type")
    parameters = raw.get("parameters") or {}
    if not isinstance(parameters, Mapping):
        raise WorkflowInvalidError("parameters must be an object", pointer=f"{pointer}/parameters")
    position = raw.get("position")
    if not (isinstance(position, list) and len(position) == 2
            and all(isinstance(p, int | float) and not isinstance(p, bool) for p in position)):
        position = [0.0, 0.0]
    version = raw.get("typeVersion", 1)
    return N8nNode(id=str(raw.get("id") or name), name=name, type=node_type,
                   type_version=float(version) if isinstance(version, int | float) else 1.0,
                   position=(float(position[0]), float(position[1])),
                   parameters=parameters, has_credentials=bool(raw.get("credentials")),
                   disabled=raw.get("disabled") is True, index=index)


def _connections(raw: Any) -> list[N8nConnection]:
    if not isinstance(raw, Mapping):
        raise WorkflowInvalidError("connections must be an object", pointer="/connections")
    found: list[N8nConnection] = []
    for source, kinds in raw.items():
        where = f"/connections/{escape_pointer(str(source))}"
        if not isinstance(kinds, Mapping):
            raise WorkflowInvalidError("a connection entry must be an object", pointer=where)
        for kind, outputs in kinds.items():
            if not isinstance(outputs, list):
                raise WorkflowInvalidError("connection outputs must be an array", pointer=f"{where}/{kind}")
            for output, targets in enumerate(outputs):
                if targets is not None and not isinstance(targets, list):
                    raise WorkflowInvalidError("an output must list its targets", pointer=f"{where}/{kind}/{output}")
                # n8n writes null for an output with no connections.
                for target in targets or []:
                    if isinstance(target, Mapping) and isinstance(target.get("node"), str):
                        index = target.get("index", 0)
                        found.append(N8nConnection(str(source), output, target["node"],
                                                   index if isinstance(index, int) else 0, str(kind)))
    return found


def read_n8n(doc: Mapping[str, Any]) -> N8nWorkflow:
    """Read a normalised n8n workflow mapping.

    Raises:
        WorkflowInvalidError: nodes or connections have the wrong shape (the pointer says where).
    """
    raw_nodes = doc.get("nodes")
    if not isinstance(raw_nodes, list):
        raise WorkflowInvalidError("nodes must be an array", pointer="/nodes")
    parsed = [_node(raw, i) for i, raw in enumerate(raw_nodes)]
    nodes = tuple(n for n in parsed if n.type != NOTE_TYPE)
    name = doc.get("name")
    return N8nWorkflow(name=name if isinstance(name, str) and name else "workflow", nodes=nodes,
                       connections=tuple(_connections(doc.get("connections", {}))),
                       notes=len(parsed) - len(nodes))


def _ordered(value: Mapping[str, Any], first: tuple[str, ...]) -> dict[str, Any]:
    keys = [k for k in first if k in value] + sorted(k for k in value if k not in first)
    return {k: value[k] for k in keys}


def canonical_n8n(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A copy with stable key order, read-only fields removed and ``settings`` present."""
    body = {k: v for k, v in doc.items() if k not in READ_ONLY}
    body.setdefault("settings", {})
    nodes = [_ordered(n, NODE_ORDER) if isinstance(n, Mapping) else n for n in as_list(body.get("nodes"))]
    return _ordered({**body, "nodes": nodes}, TOP_ORDER)


def emit_n8n(doc: Mapping[str, Any]) -> str:
    """Deterministic, indented n8n workflow JSON ending in a newline."""
    return json.dumps(canonical_n8n(doc), ensure_ascii=False, indent=2) + "\n"
