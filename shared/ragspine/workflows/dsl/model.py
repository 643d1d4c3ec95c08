"""A typed, read-only view of a Dify DSL document, tolerant of versions 0.1.0 to 0.7.x.

Reading checks only the shape the rest of the engine relies on (ids, types, edge ends) and
reports a JSON pointer when something has the wrong type. Everything else stays in ``data``
untouched, so unknown or newer fields survive a round trip.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragspine.workflows.errors import WorkflowInvalidError

# Dify's import rule: a document without ``version`` is treated as 0.1.0.
VERSION_WHEN_MISSING = "0.1.0"
NOTE_WRAPPERS = frozenset({"custom-note"})


class AppMode(enum.StrEnum):
    """Dify application modes; only the first two carry a workflow graph."""

    WORKFLOW = "workflow"
    ADVANCED_CHAT = "advanced-chat"
    CHAT = "chat"
    AGENT_CHAT = "agent-chat"
    COMPLETION = "completion"
    AGENT = "agent"


GRAPH_MODES = frozenset({AppMode.WORKFLOW.value, AppMode.ADVANCED_CHAT.value})


class NodeType(enum.StrEnum):
    """Node ``data.type`` values Dify knows (0.1.x to 0.7.x, including RAG-pipeline and trigger nodes)."""

    START = "start"
    END = "end"
    ANSWER = "answer"
    LLM = "llm"
    KNOWLEDGE_RETRIEVAL = "knowledge-retrieval"
    KNOWLEDGE_INDEX = "knowledge-index"
    IF_ELSE = "if-else"
    CODE = "code"
    TEMPLATE_TRANSFORM = "template-transform"
    QUESTION_CLASSIFIER = "question-classifier"
    HTTP_REQUEST = "http-request"
    TOOL = "tool"
    DATASOURCE = "datasource"
    VARIABLE_AGGREGATOR = "variable-aggregator"
    VARIABLE_ASSIGNER = "variable-assigner"
    ASSIGNER = "assigner"
    LOOP = "loop"
    LOOP_START = "loop-start"
    LOOP_END = "loop-end"
    ITERATION = "iteration"
    ITERATION_START = "iteration-start"
    PARAMETER_EXTRACTOR = "parameter-extractor"
    DOCUMENT_EXTRACTOR = "document-extractor"
    LIST_OPERATOR = "list-operator"
    AGENT = "agent"
    HUMAN_INPUT = "human-input"
    TRIGGER_WEBHOOK = "trigger-webhook"
    TRIGGER_SCHEDULE = "trigger-schedule"
    TRIGGER_PLUGIN = "trigger-plugin"


KNOWN_NODE_TYPES = frozenset(t.value for t in NodeType)
CONTAINER_TYPES = frozenset({NodeType.ITERATION.value, NodeType.LOOP.value})


@dataclass(frozen=True, slots=True)
class DifyNode:
    """One graph node: its id, ``data.type``, title, the raw ``data`` and its container, if any."""

    id: str
    type: str
    title: str
    data: Mapping[str, Any]
    parent_id: str | None
    index: int
    position: tuple[float, float] = (0.0, 0.0)

    @property
    def pointer(self) -> str:
        """JSON pointer of this node in the document."""
        return f"/workflow/graph/nodes/{self.index}"


@dataclass(frozen=True, slots=True)
class DifyEdge:
    """One edge; ``source_type``/``target_type`` are what the edge declares, not the nodes' types."""

    id: str
    source: str
    target: str
    source_handle: str
    target_handle: str
    source_type: str | None
    target_type: str | None
    in_container: bool
    index: int

    @property
    def pointer(self) -> str:
        """JSON pointer of this edge in the document."""
        return f"/workflow/graph/edges/{self.index}"


@dataclass(frozen=True, slots=True)
class DifyWorkflow:
    """A parsed Dify app: metadata, graph (empty for chat/completion modes) and the raw mapping."""

    name: str
    description: str
    mode: str
    version: str
    version_raw: Any
    nodes: tuple[DifyNode, ...]
    edges: tuple[DifyEdge, ...]
    notes: int
    environment_variables: tuple[Mapping[str, Any], ...]
    conversation_variables: tuple[Mapping[str, Any], ...]
    dependencies: tuple[Mapping[str, Any], ...]
    raw: Mapping[str, Any]

    @property
    def has_graph(self) -> bool:
        """True for workflow and advanced-chat apps."""
        return self.mode in GRAPH_MODES

    def node(self, node_id: str) -> DifyNode | None:
        """The node with this id, if any."""
        return next((n for n in self.nodes if n.id == node_id), None)


def _mapping(value: Any, pointer: str, *, required: bool = True) -> Mapping[str, Any]:
    if value is None and not required:
        return {}
    if not isinstance(value, Mapping):
        raise WorkflowInvalidError(f"expected an object, got {type(value).__name__}", pointer=pointer)
    return value


def _list(value: Any, pointer: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise WorkflowInvalidError(f"expected an array, got {type(value).__name__}", pointer=pointer)
    return value


def _ident(value: Any, pointer: str) -> str:
    # Unquoted numeric ids come back from YAML as integers; Dify means the same string.
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str) or not value:
        raise WorkflowInvalidError("expected a non-empty string id", pointer=pointer)
    return value


def _text(value: Any, pointer: str, default: str = "") -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise WorkflowInvalidError(f"expected a string, got {type(value).__name__}", pointer=pointer)
    return value


def _read_node(raw: Any, index: int) -> DifyNode | None:
    pointer = f"/workflow/graph/nodes/{index}"
    node = _mapping(raw, pointer)
    data = _mapping(node.get("data"), f"{pointer}/data")
    node_type = _text(data.get("type"), f"{pointer}/data/type")
    if node.get("type") in NOTE_WRAPPERS or not node_type:
        return None
    parent = node.get("parentId") or data.get("iteration_id") or data.get("loop_id")
    return DifyNode(id=_ident(node.get("id"), f"{pointer}/id"), type=node_type,
                    title=_text(data.get("title"), f"{pointer}/data/title", node_type), data=data,
                    parent_id=_ident(parent, f"{pointer}/parentId") if parent else None, index=index,
                    position=_position(node.get("position")))


def _position(raw: Any) -> tuple[float, float]:
    if not isinstance(raw, Mapping):
        return (0.0, 0.0)
    x, y = raw.get("x"), raw.get("y")
    if isinstance(x, int | float) and isinstance(y, int | float) and not isinstance(x, bool) | isinstance(y, bool):
        return (float(x), float(y))
    return (0.0, 0.0)


def _read_edge(raw: Any, index: int) -> DifyEdge:
    pointer = f"/workflow/graph/edges/{index}"
    edge = _mapping(raw, pointer)
    data = _mapping(edge.get("data"), f"{pointer}/data", required=False)
    source = _ident(edge.get("source"), f"{pointer}/source")
    target = _ident(edge.get("target"), f"{pointer}/target")
    handle = edge.get("sourceHandle", "source")
    return DifyEdge(
        id=_text(edge.get("id"), f"{pointer}/id", f"{source}-{handle}-{target}-target"),
        source=source, target=target,
        source_handle=_ident(handle, f"{pointer}/sourceHandle") if handle is not None else "source",
        target_handle=_text(edge.get("targetHandle"), f"{pointer}/targetHandle", "target"),
        source_type=data.get("sourceType") if isinstance(data.get("sourceType"), str) else None,
        target_type=data.get("targetType") if isinstance(data.get("targetType"), str) else None,
        in_container=bool(data.get("isInIteration") or data.get("isInLoop")), index=index)


def _records(value: Any, pointer: str) -> tuple[Mapping[str, Any], ...]:
    return tuple(_mapping(item, f"{pointer}/{i}") for i, item in enumerate(_list(value, pointer)))


def read_dsl(doc: Mapping[str, Any]) -> DifyWorkflow:
    """Read a normalised Dify DSL mapping into a :class:`DifyWorkflow`.

    Raises:
        WorkflowInvalidError: a structural field has the wrong type (the pointer names it).
    """
    app = _mapping(doc.get("app"), "/app")
    mode = _text(app.get("mode"), "/app/mode", AppMode.WORKFLOW.value)
    version_raw = doc.get("version")
    version = VERSION_WHEN_MISSING if version_raw is None else str(version_raw)
    nodes: list[DifyNode] = []
    edges: list[DifyEdge] = []
    notes = 0
    workflow = _mapping(doc.get("workflow"), "/workflow", required=mode in GRAPH_MODES)
    if mode in GRAPH_MODES:
        graph = _mapping(workflow.get("graph"), "/workflow/graph")
        for i, raw in enumerate(_list(graph.get("nodes"), "/workflow/graph/nodes")):
            node = _read_node(raw, i)
            notes += node is None
            if node is not None:
                nodes.append(node)
        edges = [_read_edge(raw, i) for i, raw in enumerate(_list(graph.get("edges"), "/workflow/graph/edges"))]
    return DifyWorkflow(
        name=_text(app.get("name"), "/app/name", "workflow"),
        description=_text(app.get("description"), "/app/description"),
        mode=mode, version=version, version_raw=version_raw, nodes=tuple(nodes), edges=tuple(edges), notes=notes,
        environment_variables=_records(workflow.get("environment_variables"), "/workflow/environment_variables"),
        conversation_variables=_records(workflow.get("conversation_variables"), "/workflow/conversation_variables"),
        dependencies=_records(doc.get("dependencies"), "/dependencies"), raw=doc)
