"""The local service and its data: ``serve``, ``load-samples``, ``build-samples``, ``static-table``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
import uvicorn
from rich.console import Console

from ragspine.api.app import create_local_app
from ragspine.bootstrap import domain_dir, get_services, start_pending_backfill
from ragspine.cli_exit import error_exit
from ragspine.cli_ingest import ingest_samples, report, samples_summary
from ragspine.demo import sample_dir, sample_question
from ragspine.errors import RagspineError
from ragspine.llm.static_distil import distil
from ragspine.llm.static_embedder import static_table_path
from ragspine.qa.answer import answer_question
from ragspine.samples import build_for
from ragspine.settings import Settings, get_settings

commands = typer.Typer(add_completion=False)


@commands.command("load-samples")
def load_samples() -> None:
    """Ingest the domain's sample documents (facts from their tables, versioned passages); exit 1 if any failed.

    Re-running is cheap: a document whose bytes were already ingested is found, not redone.
    """
    try:
        services = get_services()
        console = Console()
        done = ingest_samples(services, console)
    except RagspineError as exc:
        raise error_exit(exc) from exc
    failed = report(console, done)
    typer.echo(samples_summary(services, done))
    raise typer.Exit(code=1 if failed else 0)


@commands.command("static-table")
def static_table(
    pieces: Annotated[int, typer.Option(min=1, help="Most probable e5 tokens to distil.")] = 60_000,
    also_from: Annotated[list[Path] | None, typer.Option(
        "--also-from", help="UTF-8 text files whose own tokens get rows too (the collection served).")] = None,
) -> None:
    """Distil the static embedder's table (RAGSPINE_EMBEDDER=static-e5-small) into the data folder."""
    out = static_table_path(get_settings().data_dir)
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in also_from or []]
    try:
        table = distil(out, pieces=pieces, texts=texts, log=lambda message: typer.echo(message, err=True))
    except RagspineError as exc:
        raise error_exit(exc) from exc
    typer.echo(f"wrote {out}: {table.vectors.shape[0]} tokens x {table.dimension} dimensions")


@commands.command("build-samples")
def build_samples(
    out: Annotated[Path | None, typer.Option(help="Folder to write; default: the package's samples.")] = None,
) -> None:
    """Rebuild the domain's shipped sample documents (deterministic)."""
    try:
        folder = sample_dir(domain_dir())
    except RagspineError as exc:
        raise error_exit(exc) from exc
    for path in build_for(folder, out=out):
        typer.echo(f"wrote {path}")


@commands.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address (default RAGSPINE_HOST, 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default RAGSPINE_PORT, 8000).")] = None,
    samples: Annotated[bool, typer.Option("--samples/--no-samples", help="Ingest the domain's sample documents first.")
                       ] = False,
) -> None:
    """Start the local service (every router) on the embedded default."""

    try:
        services = get_services()
        if samples:
            console = Console()
            done = ingest_samples(services, console)
            if any(not item.succeeded for item in done):
                report(console, done)  # which sample failed and why; the service still starts
            typer.echo(samples_summary(services, done))
            question = sample_question(services.domain)
            if question:
                result = answer_question(question, qa=services.qa)
                typer.echo(f"sample question: {question}\nanswer: {result.answer}")
                for source in result.sources:
                    typer.echo(f"  source: {source['doc']} · {source['locator']}")
    except RagspineError as exc:
        raise error_exit(exc) from exc

    start_pending_backfill(services)
    settings = services.settings
    bind_host, bind_port = host or settings.host, port or settings.port
    typer.echo(f"serving on http://{bind_host}:{bind_port}  (ask page: http://{bind_host}:{bind_port}/, "
               f"API docs: http://{bind_host}:{bind_port}/docs)")
    sys.stdout.flush()
    uvicorn.run(create_local_app(settings), host=bind_host, port=bind_port, log_level="warning",
                **proxy_options(settings))


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's proxy-header options: off unless ``trusted_proxies`` names the proxies to believe.

    uvicorn's own default believes X-Forwarded-For from 127.0.0.1 (or $FORWARDED_ALLOW_IPS), so any local
    caller could name another client address and take another client's share of the webhook body slots.
    """
    trusted = [part.strip() for part in settings.trusted_proxies.split(",") if part.strip()]
    if not trusted:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": trusted}
