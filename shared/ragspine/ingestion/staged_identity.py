"""What a document's staged chunks and facts say about whose they are must be what its operation says.

A parse child computes the chunks and facts and the service writes them; a child that a malicious
document took over could stamp them with another document, version, knowledge space or a lower
sensitivity, or give a chunk the id of another document's chunk so that writing it replaces that
one. Before activation writes anything, every stamp is compared with the operation's own (the
very values the chunker and the fact reader copy from it), each child chunk's id is derived
again, and no chunk id may already belong to another document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ragspine.facts.statements import statement_tags
from ragspine.ingestion.chunking import _chunk_id
from ragspine.ingestion.errors import ParserReplyInvalidError

if TYPE_CHECKING:
    from ragspine.ingestion.facts_extract import ExtractionResult
    from ragspine.ingestion.operations import Operation
    from ragspine.ingestion.staged import StagedChunks
    from ragspine.retrieval.model import Chunk
    from ragspine.retrieval.ports import ChunkIndex


def check_staged_identity(operation: Operation, chunks: StagedChunks, extraction: ExtractionResult,
                          index: ChunkIndex | None, *, batch: int) -> None:
    """Refuse chunks or facts stamped for anything but ``operation``'s document and version.

    The chunks are read ``batch`` at a time (a large document's are never all in memory), all of
    them before the caller writes any.

    Raises:
        ParserReplyInvalidError: a stamp, a child chunk's id or a chunk id taken by another document differs.
    """
    name = operation.source.rsplit("/", 1)[-1]
    space = operation.space
    version = operation.version_id or ""
    expected = {"doc_id": operation.doc_id, "version_id": operation.version_id,
                "sensitivity": operation.sensitivity, "library": operation.library,
                "space_id": space.space_id if space else None, "document_id": space.document_id if space else None,
                "category": space.category if space else None,
                "version_label": space.version_label if space else None,
                "product_code": space.product_code if space else None}
    tags = tuple(dict.fromkeys(space.tags)) if space else ()
    for first, children, _ in chunks.child_batches(batch):
        for position, chunk in enumerate(children, start=first):
            if chunk.chunk_id != _chunk_id("child", operation.doc_id, version, chunk.source_locator, position):
                raise _refused(name, f"child chunk {position} has an id not derived from this document")
        _check_stamps(name, children, expected, tags)
    for parents in chunks.parent_batches(batch):
        _check_stamps(name, parents, expected, tags)
        if index is not None:
            taken = [c for c in index.get([p.chunk_id for p in parents]) if c.doc_id != operation.doc_id]
            if taken:
                raise _refused(name, "a parent chunk has the id of another document's chunk")
    if extraction.doc_id != operation.doc_id:
        raise _refused(name, "its facts are for another document")
    for fact in extraction.facts:
        if (fact.source_doc_id != operation.doc_id or fact.sensitivity != operation.sensitivity
                or space is not None):
            raise _refused(name, "a fact is stamped for another document or sensitivity, or for a knowledge "
                                 "space (whose documents publish no facts)")


def _check_stamps(name: str, chunks: Sequence[Chunk], expected: dict[str, object], given_tags: tuple[str, ...]) -> None:
    for chunk in chunks:
        for field, value in expected.items():
            if getattr(chunk, field) != value:
                raise _refused(name, f"a chunk's {field} is not this document's")
        if chunk.tags != tuple(dict.fromkeys((*given_tags, *statement_tags(chunk.heading_path)))):
            raise _refused(name, "a chunk's tags are not this document's")


def _refused(name: str, why: str) -> ParserReplyInvalidError:
    return ParserReplyInvalidError(
        f"{name}: what was computed for it is not this document's ({why}); nothing of it was written. The file may "
        "be crafted to attack the parser: check where it came from before uploading it again.")
