"""Results of Dify <-> n8n conversion: the document and a report of everything not converted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class SkipNode(Exception):  # noqa: N818 - control flow inside the converters, never escapes them
    """A node cannot be expressed in the target format; the message is the reason."""


@dataclass(frozen=True, slots=True)
class SkippedNode:
    """A node left out of the converted document, and why."""

    node_id: str
    name: str
    node_type: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        """JSON-compatible form."""
        return {"node_id": self.node_id, "name": self.name, "node_type": self.node_type, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class ConversionReport:
    """Every node converted or skipped, lossy details, and connections dropped with skipped nodes."""

    source: str
    target: str
    converted: tuple[str, ...]
    skipped: tuple[SkippedNode, ...]
    warnings: tuple[str, ...]
    dropped_connections: int

    @property
    def complete(self) -> bool:
        """True when every node converted without loss."""
        return not self.skipped and not self.warnings and not self.dropped_connections

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form."""
        return {"source": self.source, "target": self.target, "complete": self.complete,
                "converted": list(self.converted), "skipped": [s.to_dict() for s in self.skipped],
                "warnings": list(self.warnings), "dropped_connections": self.dropped_connections}


@dataclass(frozen=True, slots=True)
class Conversion:
    """A converted document (Dify DSL or n8n workflow mapping) with its report."""

    document: dict[str, Any]
    report: ConversionReport
