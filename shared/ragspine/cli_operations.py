"""``ragspine operations``: list, show, cancel and retry ingestion operations of the configured backend.

``retry`` runs a FAILED operation whose error is ``retryable`` again: in this process on the
embedded default, as a new state-machine execution on AWS. A permanent failure needs a fixed
file, which is a new version and so a new operation.
"""

from __future__ import annotations

import json
import uuid
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from rich.console import Console
from rich.table import Table

from ragspine.bootstrap import build_ingest_context, build_ingest_trigger, build_operation_store, get_services
from ragspine.errors import NotFoundError, RagspineError
from ragspine.ingestion.operation_codec import dump_operation
from ragspine.ingestion.operations import OperationStatus
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.submission import cancel as cancel_operation
from ragspine.ingestion.submission import reap_if_stale, reopen
from ragspine.retrieval.dense_backfill import supports_backfill
from ragspine.settings import Backend, get_settings

if TYPE_CHECKING:
    from ragspine.ingestion.operations import Operation, OperationStore
    from ragspine.retrieval.dense_backfill import BackfillIndex
    from ragspine.retrieval.services import Retrieval

operations_app = typer.Typer(help="Ingestion operations: status, retries, errors; cancel one that has not finished.",
                             no_args_is_help=True)

AsJson = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def _store() -> OperationStore:
    return build_operation_store(get_settings())


def _exit(exc: RagspineError) -> typer.Exit:
    typer.secho(f"error [{exc.code}]: {exc.message}", err=True, fg=typer.colors.RED)
    return typer.Exit(code=2)


def operation_json(operation: Operation) -> dict[str, Any]:
    """The operation as the JSON the commands print (times in ISO 8601)."""
    return json.loads(dump_operation(operation))  # type: ignore[no-any-return]


def operation_stage(operation: Operation) -> str:
    """Where the document stands: its status, or, once SUCCEEDED, whether its dense vectors are still pending."""
    if operation.status is not OperationStatus.SUCCEEDED:
        return operation.status.value.lower()
    retrieval = _services_retrieval()
    if retrieval is None or not operation.chunks_count:
        return "searchable"
    if not supports_backfill(retrieval.index) or retrieval.document_embedder is None:
        return "searchable (BM25 + dense)" if retrieval.document_embedder else "searchable (BM25)"
    index = cast("BackfillIndex", retrieval.index)
    pending = index.vectors_pending(doc_id=operation.doc_id, version_id=operation.version_id)
    if pending:
        return (f"searchable (BM25); dense vectors pending for {pending} of {operation.chunks_count} passages "
                "(embedded in the background by ragspine ingest or serve)")
    return "searchable (BM25 + dense)"


def dense_line(operation: Operation) -> str | None:
    """``120 of 300 passages embedded, 4.1 passages/s, about 1 min 13 s left``; None before any was embedded."""
    dense = operation.dense
    if dense is None:
        return None
    line = f"{dense.done:,} of {dense.total:,} passages embedded"
    if dense.per_second is not None:
        line += f", {dense.per_second:.1f} passages/s"
    if dense.seconds_left is not None:
        minutes, seconds = divmod(round(dense.seconds_left), 60)
        line += f", about {minutes} min {seconds} s left" if minutes else f", about {seconds} s left"
    return f"{line} (as of {dense.updated_at:%H:%M:%S} UTC)"


def _services_retrieval() -> Retrieval | None:
    return get_services().retrieval


def _get(operation_id: str) -> Operation:
    operation = _store().get(operation_id)
    if operation is None:
        raise _exit(NotFoundError(f"no ingestion operation {operation_id}; `ragspine operations list` shows them"))
    return _reaped(operation)


def _reaped(operation: Operation) -> Operation:
    """The operation, failed as retryable first when its runner's lease ran out (a killed run)."""
    return reap_if_stale(operation, operations=_store(), lease_s=get_settings().ingest_lease_s)


@operations_app.command("list")
def list_operations(doc: Annotated[str | None, typer.Option(help="Only this document's operations.")] = None,
                    as_json: AsJson = False) -> None:
    """Operations, oldest first: document, version, status, retries, counts, error code."""
    try:
        found = [_reaped(op) for op in _store().list_operations(doc_id=doc)]
    except RagspineError as exc:
        raise _exit(exc) from exc
    if as_json:
        typer.echo(json.dumps([operation_json(op) for op in found], ensure_ascii=False, indent=2))
        return
    table = Table("operation", "document", "version", "status", "retries", "facts", "chunks", "error")
    for op in found:
        table.add_row(op.id, op.doc_id, op.version_id, op.status.value, str(op.retry_count), str(op.facts_count),
                      str(op.chunks_count), op.error.code if op.error else "")
    Console().print(table)
    typer.echo(f"{len(found)} operation{'s' if len(found) != 1 else ''}")


@operations_app.command()
def show(operation_id: Annotated[str, typer.Argument(help="The operation id (op-...).")],
         as_json: AsJson = False) -> None:
    """One operation in full: its stage, times, warnings, and the error with its code and whether a retry may help."""
    operation = _get(operation_id)
    body = operation_json(operation) | {"stage": operation_stage(operation)}
    if as_json:
        typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
        return
    for name, value in body.items():
        if name == "dense":
            value = dense_line(operation)
        elif isinstance(value, dict) and "code" in value:
            value = f"{value['code']}: {value['message']} (retryable: {str(value['retryable']).lower()})"
        elif isinstance(value, dict):
            value = "; ".join(f"{k}={v}" for k, v in value.items()) or "-"
        elif isinstance(value, list):
            value = "; ".join(value) or "-"
        typer.echo(f"{name:>13}: {'-' if value is None else value}")


@operations_app.command()
def cancel(operation_id: Annotated[str, typer.Argument(help="The operation id (op-...).")]) -> None:
    """Cancel an operation that has not finished: its run stops before the next step, nothing is activated."""
    operation = _get(operation_id)
    if operation.status.finished:
        typer.secho(f"{operation_id} already ended {operation.status.value}; nothing to cancel.", err=True,
                    fg=typer.colors.YELLOW)
        raise typer.Exit(code=1)
    try:
        cancelled = cancel_operation(operation_id, operations=_store())
    except RagspineError as exc:
        raise _exit(exc) from exc
    typer.echo(f"{operation_id}: {cancelled.status.value if cancelled else 'gone'}")


@operations_app.command()
def retry(operation_id: Annotated[str, typer.Argument(help="The operation id (op-...).")]) -> None:
    """Run a FAILED operation again when its error is retryable (an unreachable index, a throttled service)."""
    settings = get_settings()
    try:
        operation = reopen(operation_id, operations=_store())
        if settings.backend is Backend.AWS:
            _, runner = build_ingest_trigger(settings)
            runner.start(operation.id, attempt=f"retry-{uuid.uuid4().hex[:8]}")
            typer.echo(f"{operation.id}: PENDING (a new execution of the ingest state machine)")
            return
        done = InProcessRunner().run(operation.id, context=build_ingest_context(get_services()))
    except RagspineError as exc:
        raise _exit(exc) from exc
    note = f" [{done.error.code}] {done.error.message}" if done.error else ""
    typer.echo(f"{done.id}: {done.status.value} (retries {done.retry_count}){note}")
    if done.status is not OperationStatus.SUCCEEDED:
        raise typer.Exit(code=1)
