"""JSON codecs for what pipeline steps stage: parsed documents, extractions, chunks with vectors.

Staged outputs cross process boundaries (a worker Lambda runs each step separately), so they
are plain JSON. They are decoded in steps (``json_in_steps``): a large document's chunks are
decoded in the service's process while it answers asks. Numbers keep their form: ``1320``
stays an int and ``36.0`` a float.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, fields
from typing import Any

from ragspine.facts.glossary import Period
from ragspine.facts.model import Fact
from ragspine.ingestion.facts_extract import ExtractionResult
from ragspine.ingestion.json_in_steps import loads_in_steps
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


def load_chunks(data: bytes) -> tuple[list[Chunk], list[Chunk], list[list[float]] | None]:
    """(children, parents, vectors) as ``dump_chunks`` wrote them."""
    body = loads_in_steps(data)

    def chunk(row: dict[str, Any]) -> Chunk:
        return Chunk(**{**row, "sensitivity": Sensitivity(row["sensitivity"]),
                        "heading_path": tuple(row["heading_path"]), "tags": tuple(row["tags"])})

    return [chunk(r) for r in body["children"]], [chunk(r) for r in body["parents"]], body["vectors"]
