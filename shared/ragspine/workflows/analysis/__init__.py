"""Analysis of a Dify DSL: structural and reference findings, and the reuse safety check."""

from __future__ import annotations

from ragspine.workflows.analysis.analyze import analyze, analyze_document
from ragspine.workflows.analysis.findings import Analysis, Finding, FindingCode, Severity
from ragspine.workflows.analysis.safety import SafetyReport, assess_reuse

__all__ = [
    "Analysis", "Finding", "FindingCode", "SafetyReport", "Severity", "analyze", "analyze_document", "assess_reuse",
]
