"""Preview schema v1: a small JSON summary of a Dify document, with its published JSON Schema.

The schema lives beside this module (``schemas/preview-v1.schema.json``); a breaking change
gets a new file and a new ``schema_version``, never an edit of v1. The Mermaid ``diagram`` is
therefore not part of the v1 document (v1 allows no other property): surfaces return it beside
the document.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragspine.workflows.dsl.emit import canonical_dsl, content_hash
from ragspine.workflows.dsl.mermaid import mermaid_flowchart
from ragspine.workflows.dsl.model import AppMode, DifyWorkflow, NodeType, read_dsl
from ragspine.workflows.shapes import as_list, maps

SCHEMA_VERSION = "1"
SCHEMA_ID = "urn:ragspine:workflow-preview:v1"
SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "preview-v1.schema.json"


class Origin(enum.StrEnum):
    """Where a previewed document (scaffolded, reused, from a template or converted) came from."""

    GENERATED = "generated"
    REUSED = "reused"
    TEMPLATE = "template"
    CONVERTED = "converted"


@dataclass(frozen=True, slots=True)
class Preview:
    """What a user sees before importing: shape, inputs, outputs, warnings, provenance and hash."""

    name: str
    mode: str
    dsl_version: str
    origin: Origin
    nodes: tuple[dict[str, str], ...]
    edges: tuple[dict[str, str], ...]
    inputs: tuple[dict[str, Any], ...]
    outputs: tuple[dict[str, Any], ...]
    warnings: tuple[str, ...]
    content_hash: str
    diagram: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON document that ``preview-v1.schema.json`` describes (without ``diagram``)."""
        return {"schema_version": SCHEMA_VERSION, "name": self.name, "mode": self.mode,
                "dsl_version": self.dsl_version, "origin": self.origin.value, "nodes": list(self.nodes),
                "edges": list(self.edges), "inputs": list(self.inputs), "outputs": list(self.outputs),
                "warnings": list(self.warnings), "content_hash": self.content_hash}


def _inputs(workflow: DifyWorkflow) -> tuple[dict[str, Any], ...]:
    start = next((n for n in workflow.nodes if n.type == NodeType.START.value and n.parent_id is None), None)
    variables = maps(start.data.get("variables")) if start else []
    return tuple({"variable": str(v.get("variable", "")), "label": str(v.get("label", v.get("variable", ""))),
                  "type": str(v.get("type", "text-input")), "required": bool(v.get("required", False))}
                 for v in variables)


def _outputs(workflow: DifyWorkflow) -> tuple[dict[str, Any], ...]:
    found: list[dict[str, Any]] = []
    for node in workflow.nodes:
        if node.parent_id is not None:
            continue
        if node.type == NodeType.END.value:
            for out in maps(node.data.get("outputs")):
                selector = [str(s) for s in as_list(out.get("value_selector"))]
                found.append({"node_id": node.id, "variable": str(out.get("variable", "")),
                              "value_selector": selector})
        elif node.type == NodeType.ANSWER.value and workflow.mode == AppMode.ADVANCED_CHAT.value:
            found.append({"node_id": node.id, "variable": "answer", "value_selector": [node.id, "answer"]})
    return tuple(found)


def build_preview(document: Mapping[str, Any], *, origin: Origin, warnings: Sequence[str] = ()) -> Preview:
    """Summarise a Dify document; the hash covers its canonical form, so key order never matters.

    ``diagram`` is the graph as a Mermaid flowchart (:func:`mermaid_flowchart`).

    Raises:
        WorkflowInvalidError: the document's structure cannot be read.
    """
    workflow = read_dsl(document)
    return Preview(
        name=workflow.name, mode=workflow.mode, dsl_version=workflow.version, origin=origin,
        nodes=tuple({"id": n.id, "type": n.type, "title": n.title} for n in workflow.nodes),
        edges=tuple({"source": e.source, "source_handle": e.source_handle, "target": e.target}
                    for e in workflow.edges),
        inputs=_inputs(workflow), outputs=_outputs(workflow), warnings=tuple(warnings),
        content_hash=content_hash(canonical_dsl(document)), diagram=mermaid_flowchart(workflow))


def preview_schema() -> dict[str, Any]:
    """The published JSON Schema of preview v1."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema
