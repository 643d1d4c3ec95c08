"""JSON codecs for what pipeline steps stage: parsed documents, extractions, chunks with vectors.

Staged outputs cross process boundaries (a worker Lambda runs each step separately), so they
are plain JSON. They are decoded in steps (``json_in_steps``): a large document's chunks are
decoded in the service's process while it answers asks. Numbers keep their form: ``1320``
stays an int and ``36.0`` a float.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, fields
from typing import Any

from ragspine.facts.glossary import Period
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import ExtractionResult
from ragspine.ingestion.json_in_steps import SteppedArrays, loads_in_steps
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.retrieval.model import Chunk
from ragspine.sensitivity import Sensitivity


def _dumps(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def dump_document(doc: ParsedDocument) -> bytes:
    """A parsed document as JSON bytes."""
    return _dumps({"doc_id": doc.doc_id, "title": doc.title, "media_type": doc.media_type,
                   "metadata": dict(doc.metadata), "blocks": [asdict(block) for block in doc.blocks]})


def load_document(data: bytes) -> ParsedDocument:
    """The parsed document ``dump_document`` wrote."""
    body = loads_in_steps(data)
    blocks = tuple(Block(kind=BlockKind(b["kind"]), text=b["text"], locator=b["locator"],
                         heading_path=tuple(b["heading_path"]), rows=tuple(tuple(r) for r in b["rows"]),
                         cell_refs=tuple(tuple(r) for r in b["cell_refs"]), caption=b["caption"],
                         cell_check=b.get("cell_check", ""))
                   for b in body["blocks"])
    return ParsedDocument(body["doc_id"], body["title"], body["media_type"], blocks, body["metadata"])


def _fact_dict(fact: Fact) -> dict[str, Any]:
    body = {f.name: getattr(fact, f.name) for f in fields(Fact)}
    body["sensitivity"] = int(fact.sensitivity)
    return body


def dump_extraction(result: ExtractionResult) -> bytes:
    """An extraction result (facts, warnings, reporting period) as JSON bytes."""
    period = result.reporting_period
    return _dumps({"doc_id": result.doc_id, "facts": [_fact_dict(f) for f in result.facts],
                   "warnings": list(result.warnings),
                   "reporting_period": [period.period_type, period.period] if period else None})


def load_extraction(data: bytes | str) -> ExtractionResult:
    """The extraction result ``dump_extraction`` wrote."""
    body = loads_in_steps(data)
    facts = tuple(Fact(**{**f, "sensitivity": Sensitivity(f["sensitivity"])}) for f in body["facts"])
    period = body["reporting_period"]
    return ExtractionResult(body["doc_id"], facts, tuple(body["warnings"]), Period(*period) if period else None)


def dump_chunks(children: Sequence[Chunk], parents: Sequence[Chunk],
                vectors: Sequence[Sequence[float]] | None) -> bytes:
    """The chunks of one version and the children's vectors (or null) as JSON bytes."""
    def row(chunk: Chunk) -> dict[str, Any]:
        return {**asdict(chunk), "sensitivity": int(chunk.sensitivity)}

    return _dumps({"children": [row(c) for c in children], "parents": [row(c) for c in parents],
                   "vectors": [list(v) for v in vectors] if vectors is not None else None})


def _chunk(row: dict[str, Any]) -> Chunk:
    return Chunk(**{**row, "sensitivity": Sensitivity(row["sensitivity"]),
                    "heading_path": tuple(row["heading_path"]), "tags": tuple(row["tags"])})


def load_chunks(data: bytes) -> tuple[list[Chunk], list[Chunk], list[list[float]] | None]:
    """(children, parents, vectors) as ``dump_chunks`` wrote them."""
    body = loads_in_steps(data)
    return [_chunk(r) for r in body["children"]], [_chunk(r) for r in body["parents"]], body["vectors"]


class StagedChunks:
    """What ``dump_chunks`` wrote, read a batch at a time: a large document's chunks are never all in memory.

    Its ~60,000 chunks decoded at once took about 260 MB besides their 70 MB of JSON; a batch of
    2,000 takes a thirtieth of that. The counts are known without decoding a chunk.
    """

    def __init__(self, data: bytes) -> None:
        """Find the staged chunks (each is decoded once to find where it ends, then dropped).

        Raises:
            json.JSONDecodeError, ValueError: the staged bytes are not ``dump_chunks``'s JSON.
        """
        self._body = SteppedArrays(data)
        if "children" not in self._body or "parents" not in self._body:
            raise ValueError("the staged chunks lack their children or parents")
        self.children = self._body.length("children")
        self.parents = self._body.length("parents")
        # How many vectors were staged; None when null (embedded later, or nothing to embed).
        self.vectors = self._body.length("vectors") if self._body.is_array("vectors") else None

    def child_batches(self, size: int) -> Iterator[tuple[int, list[Chunk], list[list[float]] | None]]:
        """(position of the first, children, their vectors or None), ``size`` children at a time, in order."""
        for start in range(0, self.children, size):
            vectors = self._body.items("vectors", start, start + size) if self.vectors is not None else None
            yield start, [_chunk(r) for r in self._body.items("children", start, start + size)], vectors

    def parent_batches(self, size: int) -> Iterator[list[Chunk]]:
        """The parents, ``size`` at a time, in order."""
        for start in range(0, self.parents, size):
            yield [_chunk(r) for r in self._body.items("parents", start, start + size)]
