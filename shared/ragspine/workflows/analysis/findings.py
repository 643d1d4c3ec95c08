"""Findings: what analyze and the safety check report, each with a code and a severity."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.StrEnum):
    """ERROR means Dify would refuse or the graph cannot run; WARNING is suspicious; INFO is a note."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class FindingCode(enum.StrEnum):
    """Every kind of problem analyze can report."""

    MISSING_VERSION = "missing_version"
    NON_STRING_VERSION = "non_string_version"
    INVALID_VERSION = "invalid_version"
    NEWER_VERSION = "newer_version"
    KIND_NOT_APP = "kind_not_app"
    UNKNOWN_MODE = "unknown_mode"
    NO_GRAPH = "no_graph"
    EMPTY_GRAPH = "empty_graph"
    DUPLICATE_NODE_ID = "duplicate_node_id"
    UNKNOWN_NODE_TYPE = "unknown_node_type"
    DANGLING_EDGE = "dangling_edge"
    EDGE_TYPE_MISMATCH = "edge_type_mismatch"
    NO_START = "no_start"
    MULTIPLE_START = "multiple_start"
    UNREACHABLE_NODE = "unreachable_node"
    DEAD_END = "dead_end"
    NO_REACHABLE_TERMINAL = "no_reachable_terminal"
    WRONG_MODE_NODE = "wrong_mode_node"
    CYCLE = "cycle"
    UNRESOLVED_REFERENCE = "unresolved_reference"
    UNKNOWN_VARIABLE = "unknown_variable"
    NOT_UPSTREAM = "not_upstream"
    MALFORMED_REFERENCE = "malformed_reference"


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: its code, severity, a readable message, the node concerned and a JSON pointer."""

    code: FindingCode
    severity: Severity
    message: str
    node_id: str | None = None
    pointer: str = ""

    def to_dict(self) -> dict[str, str | None]:
        """JSON-compatible form (stable key order)."""
        return {"code": self.code.value, "severity": self.severity.value, "message": self.message,
                "node_id": self.node_id, "pointer": self.pointer}


@dataclass(frozen=True, slots=True)
class Analysis:
    """All findings for one workflow, sorted by severity, then pointer."""

    findings: tuple[Finding, ...]

    @property
    def errors(self) -> tuple[Finding, ...]:
        """Findings of severity ERROR."""
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        """Findings of severity WARNING."""
        return tuple(f for f in self.findings if f.severity is Severity.WARNING)

    @property
    def ok(self) -> bool:
        """True when there is no ERROR finding."""
        return not self.errors

    def codes(self) -> set[FindingCode]:
        """The distinct finding codes (handy in tests and summaries)."""
        return {f.code for f in self.findings}

    def to_dict(self) -> dict[str, object]:
        """JSON-compatible form."""
        return {"ok": self.ok, "errors": len(self.errors), "warnings": len(self.warnings),
                "findings": [f.to_dict() for f in self.findings]}


_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def sort_findings(findings: list[Finding]) -> tuple[Finding, ...]:
    """Deterministic order: severity, pointer, code, message; exact duplicates dropped."""
    unique = dict.fromkeys(findings)
    return tuple(sorted(unique, key=lambda f: (_ORDER[f.severity], f.pointer, f.code.value, f.message)))
