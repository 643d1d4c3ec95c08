"""Chunks of the ACME sample corpus's narrative documents, read with python-docx and plain text.

A deliberately simple reader (one chunk per paragraph) so the RESTRICTED tests depend only on
the documents and their manifest sensitivity, not on the chunker under test elsewhere.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ragspine.demo import sample_dir
from ragspine.retrieval.model import Chunk
from ragspine.sensitivity import Sensitivity

NARRATIVE_DOCS = ("ACME_FY2024_MDA.docx", "ACME_FY2025_MDA.docx", "ACME_JP_2025_Report.md",
                  "ACME_Product_Policy.md", "ACME_Board_Minutes_2025Q4.docx")


def _paragraphs(path: Path) -> list[str]:
    if path.suffix == ".docx":
        import docx

        return [p.text.strip() for p in docx.Document(str(path)).paragraphs if p.text.strip()]
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return [b.strip() for b in blocks if b.strip() and not b.lstrip().startswith("#")]


def corpus_chunks() -> list[Chunk]:
    """Every paragraph of the narrative documents, with the manifest's sensitivity and library."""
    folder = sample_dir()
    manifest = {d["file"]: d for d in yaml.safe_load((folder / "manifest.yaml").read_text())["documents"]}
    chunks = []
    for name in NARRATIVE_DOCS:
        meta = manifest[name]
        for number, text in enumerate(_paragraphs(folder / name), start=1):
            chunks.append(Chunk(chunk_id=f"{name}#{number}", doc_id=name, source_locator=f"para={number}", text=text,
                                title=meta["title"], sensitivity=Sensitivity.parse(meta["sensitivity"]),
                                library=meta["library"]))
    return chunks
