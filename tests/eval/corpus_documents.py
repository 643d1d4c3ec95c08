"""What the handout's third-party documents yield through ``ragspine ingest`` (BM25 only): one row per file.

    .venv/bin/python -m tests.eval.corpus_documents            # prints the table
    .venv/bin/python -m tests.eval.corpus_documents --record   # and writes docs/evaluation.md's section

Each file of ``../shared/corpus/docs/`` is ingested into a fresh data folder under the shipped
demo domain (ACME's glossary), as ``ragspine ingest`` does, and reported with its operation's
status, facts, chunks and warnings: what a user who drops these files in gets.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from rich.console import Console
from tools.measurements import EVALUATION, record, record_note

from ragspine.bootstrap import build_ingest_context, build_services
from ragspine.cli_ingest import Ingested, ingest_files
from ragspine.ingestion.submission import document_meta
from ragspine.settings import EmbedderName, Settings
from tests.eval.documents import CORPUS

DOCS = CORPUS / "docs"
SECTION = "ingestion-corpus-documents"
COMMAND = "python -m tests.eval.corpus_documents"


def corpus_files(folder: Path = DOCS) -> list[Path]:
    """The documents of the folder (its manifest left out), by name."""
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() != ".tsv")


def ingest_each(files: list[Path], data_dir: Path) -> list[Ingested]:
    """Every file through the ingestion pipeline into ``data_dir``, the embedder off."""
    services = build_services(Settings(data_dir=data_dir, embedder=EmbedderName("none"), faq_enabled=False))
    return ingest_files(files, context=build_ingest_context(services), console=Console(quiet=True),
                        meta=lambda path: document_meta(path))


def table(done: list[Ingested]) -> list[str]:
    """One Markdown row per file: status, facts, chunks and its first warning."""
    lines = ["| file | status | facts | chunks | warnings (first) |", "| --- | --- | --- | --- | --- |"]
    for item in done:
        op = item.operation
        if op is None:
            lines.append(f"| {item.path.name} | not submitted | | | |")
            continue
        first = op.warnings[0].replace("|", "/") if op.warnings else ""
        shown = f"{len(op.warnings)}: {first[:140]}" if op.warnings else "0"
        lines.append(f"| {item.path.name} | {op.status.value} | {op.facts_count} | {op.chunks_count} | {shown} |")
    return lines


def main(argv: list[str]) -> int:
    """Ingest, print the table and, with ``--record``, write it into docs/evaluation.md."""
    files = corpus_files() if DOCS.is_dir() else []
    if not files:
        print(f"{DOCS} is absent (the handout's corpus)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="ragspine-corpus-docs-") as tmp:
        lines = table(ingest_each(files, Path(tmp)))
    print("\n".join(lines))
    if "--record" in argv:
        record(SECTION, lines, command=f"{COMMAND} --record")
        print(record_note(EVALUATION, SECTION), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
