"""Dify DSL <-> n8n conversion: one module per direction, the node tables, and the report."""

from __future__ import annotations

from ragspine.workflows.convert.dispatch import convert
from ragspine.workflows.convert.from_n8n import n8n_to_dify
from ragspine.workflows.convert.node_types import WEBHOOK
from ragspine.workflows.convert.report import Conversion, ConversionReport, SkipNode, SkippedNode
from ragspine.workflows.convert.to_n8n import dify_to_n8n

__all__ = [
    "Conversion", "ConversionReport", "SkipNode", "SkippedNode", "WEBHOOK", "convert", "dify_to_n8n", "n8n_to_dify",
]
