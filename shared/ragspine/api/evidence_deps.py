"""The process's evidence library: the dependency the ask route (to pin versions) and the page's evidence view share."""

from __future__ import annotations

import threading
from typing import Any

from ragspine.api.deps import ServicesDep
from ragspine.bootstrap import build_operation_stores, get_knowledge_gateway, source_readers
from ragspine.evidence.library import EvidenceLibrary
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings

# One library, for the settings it was built from: new settings (a reload, a test) close the old
# one's operation store rather than keep one open per settings ever seen.
_held: list[tuple[tuple[Settings, Sensitivity], EvidenceLibrary, Any]] = []
_lock = threading.RLock()


def _library(settings: Settings, max_sensitivity: Sensitivity) -> EvidenceLibrary:
    key = (settings, max_sensitivity)
    with _lock:
        if _held and _held[0][0] == key:
            return _held[0][1]
        close_evidence_library()  # the one built for other settings
        operations, staging = build_operation_stores(settings)
        library = EvidenceLibrary(operations, staging, max_sensitivity=max_sensitivity,
                                  gateway_status=_gateway_status, sources=source_readers())
        _held.append((key, library, operations))
        return library


def close_evidence_library() -> None:
    """Close the held library's operation store (a thread still reading opens its own again) and forget it."""
    with _lock:
        while _held:
            close = getattr(_held.pop()[2], "close", None)
            if callable(close):
                close()


def _gateway_status(document_id: str) -> str | None:
    """A Knowledge Gateway document's status: a disabled one is withheld, a deleted one is gone."""
    document = get_knowledge_gateway().store.document(document_id)
    return document.status.value if document is not None else None


def evidence_library(services: ServicesDep) -> EvidenceLibrary:
    """The process's evidence library (override with ``app.dependency_overrides`` in tests)."""
    return _library(services.settings, services.qa.max_sensitivity)
