"""convert: Dify DSL <-> n8n workflow JSON for a defined node subset, with a report.

The subset and the node-by-node mapping are documented in :mod:`ragspine.workflows.convert.node_types`.
Every node outside it (and every connection that touched one) is listed in the
:class:`ConversionReport`; lossy details (credentials never copied, JavaScript kept as text)
are its warnings. Credentials are never read or written in either direction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ragspine.workflows.convert.from_n8n import n8n_to_dify
from ragspine.workflows.convert.report import Conversion, ConversionReport, SkippedNode
from ragspine.workflows.convert.to_n8n import dify_to_n8n
from ragspine.workflows.dsl import DEFAULT_DSL_VERSION, DocumentKind, detect_kind
from ragspine.workflows.errors import WorkflowInvalidError

__all__ = ["Conversion", "ConversionReport", "SkippedNode", "convert", "dify_to_n8n", "n8n_to_dify"]


def convert(doc: Mapping[str, Any], *, dsl_version: str = DEFAULT_DSL_VERSION) -> Conversion:
    """Convert whichever way applies: n8n -> Dify, or Dify -> n8n.

    Raises:
        WorkflowInvalidError: the mapping is neither format, or its structure is wrong.
        WorkflowNodeUnsupportedError: no node at all could be converted.
    """
    kind = detect_kind(doc)
    if kind is DocumentKind.N8N:
        return n8n_to_dify(doc, dsl_version=dsl_version)
    if kind is DocumentKind.DESCRIPTION:
        raise WorkflowInvalidError("a description is not a workflow; scaffold it first", pointer="")
    return dify_to_n8n(doc)
