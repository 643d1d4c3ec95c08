"""The process's evidence library: the dependency the ask route (to pin versions) and the page's evidence view share."""

from __future__ import annotations

import functools

from ragspine.api.deps import ServicesDep
from ragspine.evidence.library import EvidenceLibrary
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings


@functools.cache
def _library(settings: Settings, max_sensitivity: Sensitivity) -> EvidenceLibrary:
    from ragspine.bootstrap import build_operation_stores, source_readers

    operations, staging = build_operation_stores(settings)
    return EvidenceLibrary(operations, staging, max_sensitivity=max_sensitivity, gateway_status=_gateway_status,
                           sources=source_readers())


def _gateway_status(document_id: str) -> str | None:
    """A Knowledge Gateway document's status: a disabled one is withheld, a deleted one is gone."""
    from ragspine.bootstrap import get_knowledge_gateway

    document = get_knowledge_gateway().store.document(document_id)
    return document.status.value if document is not None else None


def evidence_library(services: ServicesDep) -> EvidenceLibrary:
    """The process's evidence library (override with ``app.dependency_overrides`` in tests)."""
    return _library(services.settings, services.qa.max_sensitivity)
