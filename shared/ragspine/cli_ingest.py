"""What ``ragspine ingest``, ``load-samples`` and ``serve --samples`` share: run files in-process, report them."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ragspine.bootstrap import build_background_embedder, build_ingest_context, get_services
from ragspine.cli_exit import error_exit
from ragspine.demo import clear_unversioned_chunks, sample_dir, sample_documents
from ragspine.errors import RagspineError
from ragspine.ingestion.operations import OperationStatus
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import Step
from ragspine.ingestion.submission import collect_files, document_meta, submit
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Backend

if TYPE_CHECKING:
    from ragspine.bootstrap import Services
    from ragspine.ingestion.operations import Operation
    from ragspine.ingestion.steps import StepContext, StepResult
    from ragspine.ingestion.submission import DocumentMeta
    from ragspine.retrieval.dense_backfill import BackgroundEmbedder


@dataclass(frozen=True, slots=True)
class Ingested:
    """One file's outcome: its operation (None: it could not be submitted), whether it was already done, time taken."""

    path: Path
    operation: Operation | None
    reused: bool = False
    seconds: float = 0.0

    @property
    def succeeded(self) -> bool:
        return self.operation is not None and self.operation.status is OperationStatus.SUCCEEDED


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


class _Progress:
    """Per-file progress as it goes: a live bar on a terminal, and one plain line per event anywhere.

    The lines are what a log or a pipe receives (no cursor tricks): after ``parse`` the file's
    pages, at the end its status, pages, chunks, facts and seconds.
    """

    def __init__(self, console: Console, total: int, *, lines: bool, deferred: bool) -> None:
        self._console = console
        self._lines = lines
        self._deferred = deferred
        self._total = total
        self._number = 0
        self._name = ""
        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=console, transient=True,
                             disable=not console.is_terminal)
        self._task = self._bar.add_task("ingesting", total=total)

    def __enter__(self) -> _Progress:
        self._bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._bar.__exit__(None, None, None)

    def start(self, path: Path) -> None:
        self._number += 1
        self._name = path.name
        self._bar.update(self._task, description=f"{self._name}: reading")

    def step(self, operation: Operation, result: StepResult) -> None:
        if result.step is Step.PARSE:
            self._line(f"parsed {_plural(result.pages, 'page')}")
            self._bar.update(self._task, description=f"{self._name}: {_plural(result.pages, 'page')}, chunking")
        elif result.step is Step.CHUNK_AND_EMBED:
            self._bar.update(self._task, description=f"{self._name}: {_plural(result.chunks, 'chunk')}, indexing")

    def done(self, item: Ingested) -> None:
        op = item.operation
        if op is None:
            self._line("FAILED (could not submit)")
        elif item.reused:
            self._line(f"unchanged since its last ingestion ({_plural(op.pages_count, 'page')}, "
                       f"{_plural(op.chunks_count, 'chunk')})")
        else:
            stage = "; searchable now (BM25), dense vectors follow in the background" if (
                self._deferred and item.succeeded and op.chunks_count) else ""
            self._line(f"{op.status.value}, {_plural(op.pages_count, 'page')}, {_plural(op.chunks_count, 'chunk')}, "
                       f"{_plural(op.facts_count, 'fact')} in {item.seconds:.2f} s{stage}")
        self._bar.advance(self._task)

    def _line(self, text: str) -> None:
        if not self._lines:
            return
        self._console.print(f"[{self._number}/{self._total}] {self._name}: {text}", highlight=False, markup=False,
                            soft_wrap=True)


def ingest_files(files: list[Path], *, context: StepContext, meta: Callable[[Path], DocumentMeta],
                 console: Console, lines: bool = True, after_each: Callable[[], None] | None = None) -> list[Ingested]:
    """Submit and run each file in this process, showing its progress; errors become FAILED rows.

    ``lines`` prints a line per file as it goes (``ragspine ingest``); without it only a
    terminal shows the live bar (the sample data, summarised in one line). ``after_each`` runs
    after every file (it wakes the background embedder).

    A file whose (document, hash) already has an operation gets that operation back; a
    SUCCEEDED one is returned as it is (``reused``), so nothing is parsed or embedded twice.
    """
    done: list[Ingested] = []
    with _Progress(console, len(files), lines=lines, deferred=context.defer_embedding) as progress:
        runner = InProcessRunner(on_step=progress.step)
        for path in files:
            progress.start(path)
            began = time.perf_counter()
            try:
                operation, _ = submit(path, operations=context.operations, meta=meta(path))
                reused = operation.status is OperationStatus.SUCCEEDED
                item = Ingested(path, runner.run(operation.id, context=context), reused,
                                time.perf_counter() - began)
            except RagspineError as exc:
                typer.secho(f"{path}: [{exc.code}] {exc.message}", err=True, fg=typer.colors.RED)
                item = Ingested(path, None, seconds=time.perf_counter() - began)
            done.append(item)
            progress.done(item)
            if after_each is not None:
                after_each()
    return done


def _say(console: Console, text: str) -> None:
    console.print(text, highlight=False, markup=False, soft_wrap=True)


def finish_dense_vectors(console: Console, background: BackgroundEmbedder) -> None:
    """Wait for the background embedder, a line every few seconds; Ctrl-C leaves the rest for later.

    The passages are searchable by BM25 already; those left without a vector are embedded by
    the next ``ragspine ingest`` or by ``ragspine serve``.
    """
    pending = background.pending()
    if pending:
        _say(console, f"dense vectors: {_plural(pending, 'passage')} to embed (BM25 finds them already; "
                      "Ctrl-C leaves the rest to the next ingest or to serve)")
    last = time.monotonic()
    try:
        while not background.drain(timeout=5.0):
            if not background.running:
                why = f"[{background.error.code}] {background.error.message}" if background.error else "(see the log)"
                _say(console, f"dense vectors stopped: {why}; "
                              f"{_plural(background.pending(), 'passage')} keep BM25 only for now")
                return
            if time.monotonic() - last >= 5.0:
                last = time.monotonic()
                _say(console, dense_progress_line(background.embedded, background.pending(), background.seconds))
    except KeyboardInterrupt:
        background.stop()
        _say(console, f"interrupted: {_plural(background.pending(), 'passage')} still without a dense vector "
                      "(searchable by BM25)")
        return
    if not background.embedded:
        return
    rate = background.embedded / background.seconds if background.seconds > 0 else 0.0
    _say(console, f"dense vectors: {_plural(background.embedded, 'passage')} embedded in {background.seconds:.1f} s "
                  f"({rate:.1f} passages/s); every passage is searched by both legs")


def dense_progress_line(embedded: int, pending: int, seconds: float) -> str:
    """``dense vectors: 120 embedded, 300 to go (4.1 passages/s, about 1 min 13 s left)``."""
    line = f"dense vectors: {embedded:,} embedded, {pending:,} to go"
    if embedded <= 0 or seconds <= 0:
        return line
    rate = embedded / seconds
    left = round(pending / rate)
    minutes, secs = divmod(left, 60)
    eta = f"{minutes} min {secs} s" if minutes else f"{secs} s"
    return f"{line} ({rate:.1f} passages/s, about {eta} left)"


def summary_line(done: list[Ingested]) -> str:
    """Succeeded and failed files, and the pages, chunks and pages per second of the files ingested now."""
    failed = sum(1 for item in done if not item.succeeded)
    now = [item for item in done if item.succeeded and not item.reused and item.operation is not None]
    pages = sum(item.operation.pages_count for item in now if item.operation is not None)
    chunks = sum(item.operation.chunks_count for item in now if item.operation is not None)
    seconds = sum(item.seconds for item in done if not item.reused)
    line = f"{len(done) - failed} succeeded, {failed} failed"
    unchanged = sum(1 for item in done if item.reused)
    if unchanged:
        line += f" ({unchanged} unchanged)"
    if now:
        rate = pages / seconds if seconds > 0 else float("inf")
        line += f"; {_plural(pages, 'page')}, {_plural(chunks, 'chunk')} in {seconds:.1f} s ({rate:,.1f} pages/s)"
    return line


def report(console: Console, done: list[Ingested]) -> int:
    """Print the table of files (status, pages, facts, chunks, warnings) and the summary line; return the failures."""
    rows = Table("file", "status", "pages", "facts", "chunks")
    rows.add_column("warnings / error", overflow="fold")
    for item in done:
        op = item.operation
        if op is None:
            rows.add_row(item.path.name, "FAILED", "0", "0", "0", "could not submit")
            continue
        note = f"{op.error.code}: {op.error.message}" if op.error else "; ".join(op.warnings)
        rows.add_row(item.path.name, op.status.value, str(op.pages_count), str(op.facts_count),
                     str(op.chunks_count), note[:200])
    console.print(rows)
    console.print(summary_line(done), highlight=False)
    return sum(1 for item in done if not item.succeeded)


def ingest_samples(services: Services, console: Console) -> list[Ingested]:
    """Ingest every sample document the manifest lists, with its sensitivity and library.

    Passages an older ``load-samples`` indexed without a version are removed first (see
    ``demo.clear_unversioned_chunks``); the curated facts it loaded are replaced at activation.
    """
    # The 50 sample passages embed in about two seconds: inline, so a served sample answer has both legs.
    context = replace(build_ingest_context(services), defer_embedding=False)
    files = sample_documents(sample_dir(services.domain))
    removed = clear_unversioned_chunks(context, [path.name for path in files])
    if removed:
        typer.echo(f"removed {removed} unversioned passages indexed by an earlier load-samples")
    return ingest_files(files, context=context, meta=document_meta, console=console, lines=False)


def samples_summary(services: Services, done: list[Ingested]) -> str:
    """One line: documents ingested (now / unchanged), facts, passages and how they are searched, data folder."""
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


ingest_commands = typer.Typer(add_completion=False)


@ingest_commands.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders to ingest.")],
    library: Annotated[str | None, typer.Option(help="Library of every file (default: the manifest's).")] = None,
    sensitivity: Annotated[str | None, typer.Option(help="PUBLIC, INTERNAL, CONFIDENTIAL or RESTRICTED.")] = None,
    recursive: Annotated[bool, typer.Option("--recursive", "-r", help="Descend into sub-folders.")] = False,
) -> None:
    """Ingest documents: facts from their tables, searchable chunks from their text; exit 1 if any failed."""

    try:
        level = Sensitivity.parse(sensitivity) if sensitivity else None
    except ValueError as exc:
        typer.secho(f"error: {exc}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    try:
        services = get_services()
        context = build_ingest_context(services)
    except RagspineError as exc:
        raise error_exit(exc) from exc
    # Deferred embedding: each document is searchable (BM25) once activated; its vectors are
    # computed in a thread beside the next files' parsing, and waited for at the end.
    background = build_background_embedder(services) if context.defer_embedding else None
    if background is not None:
        background.start()
    console = Console()
    done = ingest_files(collect_files(paths, recursive=recursive), context=context, console=console,
                        meta=lambda path: document_meta(path, sensitivity=level, library=library),
                        after_each=background.wake if background is not None else None)
    failed = report(console, done)
    if background is not None:
        finish_dense_vectors(console, background)
        background.stop()
    raise typer.Exit(code=1 if failed else 0)
