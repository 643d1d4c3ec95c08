"""Pin each citation of an answer to the document version it cited (the file hash of the active version).

Facts carry their file hash already; passage citations get the active version's hash at answer
time, so a page that keeps the answer can show the cited version later even after a replace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.api.schemas import AskResponse
    from ragspine.evidence.library import EvidenceLibrary


def pin_versions(response: AskResponse, library: EvidenceLibrary) -> AskResponse:
    """``response`` with every part source that has no version given its document's active version."""
    missing = {s.doc for p in response.parts for s in p.sources if s.version is None}
    if not missing:
        return response
    pinned = library.active_versions(missing)
    for part in response.parts:
        for source in part.sources:
            if source.version is None:
                source.version = pinned.get(source.doc)
    return response
