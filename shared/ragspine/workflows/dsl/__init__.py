"""Dify DSL: read, normalise and emit documents, their graph and references, and the preview (schema v1)."""

from __future__ import annotations

from ragspine.workflows.dsl.description import (
    INPUT_KINDS,
    VARIABLE_NAME,
    Description,
    InputSpec,
    description_from_text,
    detect_language,
)
from ragspine.workflows.dsl.emit import (
    DEFAULT_DSL_VERSION,
    OutputFormat,
    canonical_dsl,
    content_hash,
    edge_id,
    emit,
    emit_json,
    emit_yaml,
    stable_id,
)
from ragspine.workflows.dsl.graph import Graph, build_graph, reachable, reaches, strongly_connected, topological_order
from ragspine.workflows.dsl.mermaid import mermaid_flowchart
from ragspine.workflows.dsl.model import (
    CONTAINER_TYPES,
    KNOWN_NODE_TYPES,
    AppMode,
    DifyNode,
    DifyWorkflow,
    NodeType,
    read_dsl,
)
from ragspine.workflows.dsl.normalize import (
    DocumentKind,
    InputFormat,
    NormalizedInput,
    detect_kind,
    escape_pointer,
    normalize,
)
from ragspine.workflows.dsl.preview import Origin, Preview, build_preview, preview_schema
from ragspine.workflows.dsl.refs import (
    CONVERSATION,
    ENVIRONMENT,
    REFERENCE,
    SYSTEM,
    Reference,
    RefKind,
    iter_references,
    render_references,
)
from ragspine.workflows.dsl.skeleton import DEFAULT_FEATURES, node_wrapper

__all__ = [
    "AppMode", "CONTAINER_TYPES", "CONVERSATION", "DEFAULT_DSL_VERSION", "DEFAULT_FEATURES", "Description",
    "DifyNode", "DifyWorkflow", "DocumentKind", "ENVIRONMENT", "Graph", "INPUT_KINDS", "InputFormat", "InputSpec",
    "KNOWN_NODE_TYPES", "NodeType", "NormalizedInput", "Origin", "OutputFormat", "Preview", "REFERENCE", "RefKind",
    "Reference", "SYSTEM", "VARIABLE_NAME", "build_graph", "build_preview", "canonical_dsl", "content_hash",
    "description_from_text", "detect_kind", "detect_language", "edge_id", "emit", "emit_json", "emit_yaml",
    "escape_pointer", "iter_references", "mermaid_flowchart", "node_wrapper", "normalize", "preview_schema",
    "reachable", "reaches", "read_dsl", "render_references", "stable_id", "strongly_connected", "topological_order",
]
