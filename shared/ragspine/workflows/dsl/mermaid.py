"""A Dify workflow as a Mermaid flowchart: node titles and types, branch labels, containers as subgraphs.

The text is deterministic (nodes and edges in document order, nothing from a clock) and safe
to paste into any Mermaid renderer: node ids are escaped into ``n`` plus letters, digits and
``_xx_`` hex escapes (so no id can collide with another or with a keyword such as ``end``), and
every label is quoted with Mermaid's entity codes for the characters that would end or
reinterpret it (quotes, ``#``, angle brackets, ampersands, backticks).
"""

from __future__ import annotations

from collections.abc import Mapping

from ragspine.workflows.dsl.model import CONTAINER_TYPES, DifyEdge, DifyNode, DifyWorkflow, NodeType
from ragspine.workflows.shapes import as_list, maps

_ENTITIES = {ord('"'): "#quot;", ord("#"): "#35;", ord("<"): "#lt;", ord(">"): "#gt;", ord("&"): "#amp;",
             ord("`"): "#96;", ord("\n"): " ", ord("\r"): " ", ord("\t"): " "}
_ROUND = frozenset({NodeType.START.value, NodeType.END.value, NodeType.ANSWER.value})
_DECISION = frozenset({NodeType.IF_ELSE.value, NodeType.QUESTION_CLASSIFIER.value})
_PLAIN_HANDLES = frozenset({"", "source"})


def node_id(raw: str) -> str:
    """A Mermaid-safe, injective id: ``n`` + ASCII letters and digits, anything else (``_`` too) as ``_<hex>_``."""
    return "n" + "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):x}_" for c in raw)


def label(text: str) -> str:
    """``text`` as a quoted Mermaid label."""
    return '"' + text.translate(_ENTITIES) + '"'


def _node_label(node: DifyNode) -> str:
    title = node.title.strip() or node.id
    return '"' + title.translate(_ENTITIES) + "<br/>" + node.type.translate(_ENTITIES) + '"'


def _shape(node: DifyNode) -> str:
    text = _node_label(node)
    if node.type in _ROUND:
        return f"([{text}])"
    if node.type in _DECISION:
        return "{" + text + "}"
    return f"[{text}]"


def _branch_names(node: DifyNode) -> dict[str, str]:
    """Source handle -> branch label for the nodes whose handles name branches."""
    if node.type == NodeType.IF_ELSE.value:
        cases = [str(c.get("case_id", "")) for c in maps(node.data.get("cases"))]
        names = {case: ("if" if i == 0 else f"elif {i}") for i, case in enumerate(cases) if case}
        return {"true": "if", **names, "false": "else"}
    if node.type == NodeType.QUESTION_CLASSIFIER.value:
        return {str(c.get("id", "")): str(c.get("name", "")) or str(c.get("id", ""))
                for c in maps(as_list(node.data.get("classes")))}
    return {}


def _edge(edge: DifyEdge, branches: Mapping[str, Mapping[str, str]]) -> str:
    source, target = node_id(edge.source), node_id(edge.target)
    if edge.source_handle in _PLAIN_HANDLES:
        return f"    {source} --> {target}"
    name = branches.get(edge.source, {}).get(edge.source_handle) or edge.source_handle
    return f"    {source} -->|{label(name)}| {target}"


def mermaid_flowchart(workflow: DifyWorkflow) -> str:
    """The workflow's graph as a ``flowchart TD`` (an empty chart for apps without a graph)."""
    known = {n.id for n in workflow.nodes}
    children: dict[str, list[DifyNode]] = {}
    for node in workflow.nodes:
        if node.parent_id is not None and node.parent_id in known and node.parent_id != node.id:
            children.setdefault(node.parent_id, []).append(node)
    lines = ["flowchart TD"]
    drawn: set[str] = set()

    def draw(node: DifyNode, depth: int) -> None:
        if node.id in drawn:
            return
        drawn.add(node.id)
        pad = "    " * depth
        inner = children.get(node.id, [])
        if node.type in CONTAINER_TYPES and inner:
            lines.append(f"{pad}subgraph {node_id(node.id)} [{_node_label(node)}]")
            for child in inner:
                draw(child, depth + 1)
            lines.append(f"{pad}end")
        else:
            lines.append(f"{pad}{node_id(node.id)}{_shape(node)}")

    for node in workflow.nodes:
        if node.parent_id is None or node.parent_id not in known or node.parent_id == node.id:
            draw(node, 1)
    for node in workflow.nodes:  # children of a parent cycle, never reached from the top
        draw(node, 1)
    branches = {n.id: _branch_names(n) for n in workflow.nodes if n.type in _DECISION}
    lines.extend(_edge(edge, branches) for edge in workflow.edges)
    return "\n".join(lines) + "\n"
