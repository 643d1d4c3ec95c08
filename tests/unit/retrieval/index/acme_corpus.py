"""ACME sample documents as ``ParsedDocument``s, read simply for the chunking and index tests.

The real parsers are another module's job; this reader only needs blocks with locators:
Markdown ``#`` lines become the title and headings, blank-line paragraphs and ``- `` items
become blocks; docx paragraphs are read by their style name through python-docx.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ragspine.ingestion.chunking import ChunkedDocument, ChunkMeta, chunk_document
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.sensitivity import Sensitivity

ACME = Path(__file__).resolve().parents[4] / "shared" / "ragspine" / "samples" / "acme"
NARRATIVE = ("ACME_JP_2025_Report.md", "ACME_Product_Policy.md", "ACME_FY2024_MDA.docx", "ACME_FY2025_MDA.docx")


def read_markdown(path: Path) -> ParsedDocument:
    """Title, headings, paragraphs and list items of a Markdown file, each with a locator."""
    blocks: list[Block] = []
    heading: tuple[str, ...] = ()
    para = 0
    for chunk in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in chunk.strip().splitlines() if line.strip()]
        if not lines:
            continue
        if lines[0].startswith("#"):
            level = len(lines[0]) - len(lines[0].lstrip("#"))
            text = lines[0].lstrip("#").strip()
            if level == 1:
                blocks.append(Block(BlockKind.TITLE, text, "heading=" + text))
                continue
            heading, para = (text,), 0
            blocks.append(Block(BlockKind.HEADING, text, "heading=" + text))
            lines = lines[1:]
            if not lines:
                continue
        para += 1
        where = f"heading={heading[-1]},para={para}" if heading else f"para={para}"
        if all(line.startswith("- ") for line in lines):
            blocks.extend(Block(BlockKind.LIST_ITEM, line[2:], f"{where},item={i}", heading_path=heading)
                          for i, line in enumerate(lines, start=1))
        else:
            blocks.append(Block(BlockKind.PARAGRAPH, "\n".join(lines), where, heading_path=heading))
    title = next((b.text for b in blocks if b.kind is BlockKind.TITLE), path.stem)
    return ParsedDocument(path.name, title, "text/markdown", tuple(blocks))


def read_docx(path: Path) -> ParsedDocument:
    """Title, headings and paragraphs of a docx file (locator ``para=N``, N counting every paragraph)."""
    import docx

    blocks: list[Block] = []
    heading: tuple[str, ...] = ()
    for number, paragraph in enumerate(docx.Document(str(path)).paragraphs, start=1):
        text, style = paragraph.text.strip(), paragraph.style.name if paragraph.style else ""
        if not text:
            continue
        if style == "Title":
            blocks.append(Block(BlockKind.TITLE, text, f"para={number}"))
        elif style.startswith("Heading"):
            heading = (text,)
            blocks.append(Block(BlockKind.HEADING, text, f"para={number}"))
        else:
            blocks.append(Block(BlockKind.PARAGRAPH, text, f"para={number}", heading_path=heading))
    title = next((b.text for b in blocks if b.kind is BlockKind.TITLE), path.stem)
    mime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    return ParsedDocument(path.name, title, mime, tuple(blocks))


def acme_documents() -> list[tuple[ParsedDocument, ChunkMeta]]:
    """The narrative ACME documents with the manifest's sensitivity and library."""
    manifest = yaml.safe_load((ACME / "manifest.yaml").read_text(encoding="utf-8"))
    entries = {entry["file"]: entry for entry in manifest["documents"]}
    out = []
    for name in NARRATIVE:
        doc = read_markdown(ACME / name) if name.endswith(".md") else read_docx(ACME / name)
        entry = entries[name]
        meta = ChunkMeta(sensitivity=Sensitivity.parse(entry["sensitivity"]), library=entry["library"],
                         version_id="v1")
        out.append((doc, meta))
    return out


def acme_chunked() -> list[ChunkedDocument]:
    """Every narrative ACME document, chunked with default limits."""
    return [chunk_document(doc, meta=meta) for doc, meta in acme_documents()]
