"""n8n workflow JSON: a typed view and its deterministic serialisation."""

from __future__ import annotations

from ragspine.workflows.n8n.model import N8nNode, N8nWorkflow, canonical_n8n, emit_n8n, read_n8n

__all__ = ["N8nNode", "N8nWorkflow", "canonical_n8n", "emit_n8n", "read_n8n"]
