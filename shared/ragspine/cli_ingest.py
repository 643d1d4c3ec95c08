"""What ``ragspine ingest``, ``load-samples`` and ``serve --samples`` share: run files in-process, report them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ragspine.errors import RagspineError

if TYPE_CHECKING:
    from rich.console import Console

    from ragspine.bootstrap import Services
    from ragspine.ingestion.operations import Operation
    from ragspine.ingestion.pipeline import DocumentMeta
    from ragspine.ingestion.steps import StepContext


@dataclass(frozen=True, slots=True)
class Ingested:
    """One file's outcome: its operation (None: it could not be submitted) and whether it was already done."""

    path: Path
    operation: Operation | None
    reused: bool = False

    @property
    def succeeded(self) -> bool:
        from ragspine.ingestion.operations import OperationStatus

        return self.operation is not None and self.operation.status is OperationStatus.SUCCEEDED


def ingest_files(files: list[Path], *, context: StepContext, meta: Callable[[Path], DocumentMeta],
                  console: Console) -> list[Ingested]:
    """Submit and run each file in this process, with a progress bar; errors become FAILED rows.

    A file whose (document, hash) already has an operation gets that operation back; a
    SUCCEEDED one is returned as it is (``reused``), so nothing is parsed or embedded twice.
    """
    from rich.progress import Progress

    from ragspine.ingestion.operations import OperationStatus
    from ragspine.ingestion.pipeline import submit
    from ragspine.ingestion.runner import InProcessRunner

    runner = InProcessRunner()
    done: list[Ingested] = []
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("ingesting", total=len(files))
        for path in files:
            progress.update(task, description=path.name)
            try:
                operation, _ = submit(path, operations=context.operations, meta=meta(path))
                reused = operation.status is OperationStatus.SUCCEEDED
                done.append(Ingested(path, runner.run(operation.id, context=context), reused))
            except RagspineError as exc:
                typer.secho(f"{path}: [{exc.code}] {exc.message}", err=True, fg=typer.colors.RED)
                done.append(Ingested(path, None))
            progress.advance(task)
    return done


def report(console: Console, done: list[Ingested]) -> int:
    """Print the table of files (status, facts, chunks, warnings) and the summary line; return the failures."""
    from rich.table import Table

    rows = Table("file", "status", "facts", "chunks")
    rows.add_column("warnings / error", overflow="fold")
    for item in done:
        op = item.operation
        if op is None:
            rows.add_row(item.path.name, "FAILED", "0", "0", "could not submit")
            continue
        note = f"{op.error.code}: {op.error.message}" if op.error else "; ".join(op.warnings)
        rows.add_row(item.path.name, op.status.value, str(op.facts_count), str(op.chunks_count), note[:200])
    console.print(rows)
    failed = sum(1 for item in done if not item.succeeded)
    console.print(f"{len(done) - failed} succeeded, {failed} failed", highlight=False)
    return failed


def ingest_samples(services: Services, console: Console) -> list[Ingested]:
    """Ingest every sample document the manifest lists, with its sensitivity and library.

    Passages an older ``load-samples`` indexed without a version are removed first (see
    ``demo.clear_unversioned_chunks``); the curated facts it loaded are replaced at activation.
    """
    from ragspine.bootstrap import build_ingest_context
    from ragspine.demo import clear_unversioned_chunks, sample_documents
    from ragspine.ingestion.pipeline import document_meta

    context = build_ingest_context(services)
    files = sample_documents()
    removed = clear_unversioned_chunks(context, [path.name for path in files])
    if removed:
        typer.echo(f"removed {removed} unversioned passages indexed by an earlier load-samples")
    return ingest_files(files, context=context, meta=document_meta, console=console)


def samples_summary(services: Services, done: list[Ingested]) -> str:
    """One line: documents ingested (now / unchanged), facts, passages and how they are searched, data folder."""
    from ragspine.settings import Backend

    ok = [item.operation for item in done if item.succeeded and item.operation is not None]
    unchanged = sum(1 for item in done if item.reused)
    retrieval = services.retrieval
    if retrieval is None:
        search = "no chunk index configured (narrative questions will say search is not connected)"
    else:
        dense = "BM25 + dense vectors" if retrieval.document_embedder else "BM25 only, no embedder"
        search = f"{sum(op.chunks_count for op in ok)} passages indexed ({dense})"
    settings = services.settings
    where = f" in {settings.data_dir}" if settings.backend is Backend.EMBEDDED else ""
    return (f"sample data: {len(ok)} of {len(done)} documents ingested ({len(ok) - unchanged} now, {unchanged} "
            f"unchanged): {sum(op.facts_count for op in ok)} facts, {search}{where}")
