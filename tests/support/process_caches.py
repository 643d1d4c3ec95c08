"""Forget the process-wide services and Gateway the way a process ends: their threads stopped, their files closed.

``get_services`` and ``get_knowledge_gateway`` cache what they build; clearing a cache alone leaves
the old bundle's worker threads waiting and their SQLite connections open (one per thread), and a
test run then ends with thousands of open descriptors. Fixtures call ``reset_process_caches``.
"""

from __future__ import annotations

from ragspine.bootstrap import get_knowledge_gateway, get_services
from ragspine.settings import get_settings


def close_knowledge_gateway() -> None:
    """Close the cached Gateway, if one was built, and forget it and its idempotency records' store."""
    from ragspine.api.knowledge_deps import _idempotency_store

    if get_knowledge_gateway.cache_info().currsize:
        get_knowledge_gateway().close()
    get_knowledge_gateway.cache_clear()
    _idempotency_store.cache_clear()  # nothing else holds them: collected, their connections closed


def close_services() -> None:
    """Close the cached services, if they were built, and forget them (and the evidence library built for them)."""
    from ragspine.api.evidence_deps import close_evidence_library

    if get_services.cache_info().currsize:
        get_services().close()
    get_services.cache_clear()
    close_evidence_library()


def reset_process_caches() -> None:
    """Close and forget the Gateway and the services, and forget the settings."""
    close_knowledge_gateway()
    close_services()
    get_settings.cache_clear()
