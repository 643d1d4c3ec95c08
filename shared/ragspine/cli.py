"""The ``ragspine`` command line: ask, serve, and manage the sample data."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ragspine.errors import RagspineError

if TYPE_CHECKING:
    from ragspine.bootstrap import Services

app = typer.Typer(help="RAGSpine: answers numbers from a fact table, each with its source.",
                  no_args_is_help=True, add_completion=False)


def _services() -> Services:
    from ragspine.bootstrap import get_services

    return get_services()


def _fail(exc: RagspineError) -> typer.Exit:
    typer.secho(f"error [{exc.code}]: {exc.message}", err=True, fg=typer.colors.RED)
    return typer.Exit(code=2)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, e.g. 2024年日本的毛利率是多少")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON.")] = False,
) -> None:
    """Answer one question against the configured data (RAGSPINE_DATA_DIR)."""
    from ragspine.api.schemas import AskResponse
    from ragspine.qa.answer import answer_question

    try:
        services = _services()
        result = answer_question(question, qa=services.qa)
    except RagspineError as exc:
        raise _fail(exc) from exc
    if as_json:
        typer.echo(json.dumps(AskResponse.from_result(result).model_dump(mode="json"), ensure_ascii=False, indent=2))
        return
    typer.echo(result.answer)
    for source in result.sources:
        typer.echo(f"  source: {source['doc']} · {source['locator']}")
    options = result.clarification.options if result.clarification else result.refinements
    for option in options:
        typer.echo(f"  option: {option.label} → ragspine ask \"{option.question}\"")


@app.command("load-samples")
def load_samples() -> None:
    """Load the ACME sample facts (with lineage) into the configured fact store."""
    from ragspine.demo import load_sample_facts

    try:
        count = load_sample_facts(_services().facts)
    except RagspineError as exc:
        raise _fail(exc) from exc
    typer.echo(f"loaded {count} sample facts")


@app.command("build-samples")
def build_samples(
    out: Annotated[Path | None, typer.Option(help="Folder to write; default: the package's samples.")] = None,
) -> None:
    """Rebuild the ACME sample documents and facts file (deterministic)."""
    from ragspine.demo import sample_dir
    from ragspine.samples.build_acme import build_corpus

    for path in build_corpus(out or sample_dir()):
        typer.echo(f"wrote {path}")


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address (default RAGSPINE_HOST, 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default RAGSPINE_PORT, 8000).")] = None,
    samples: Annotated[bool, typer.Option("--samples/--no-samples", help="Load the ACME sample data first.")] = False,
) -> None:
    """Start the local service (every router) on the embedded default."""
    import uvicorn

    from ragspine.api.app import create_local_app
    from ragspine.demo import SAMPLE_QUESTION, load_sample_facts
    from ragspine.qa.answer import answer_question

    try:
        services = _services()
        if samples:
            typer.echo(f"sample data: {load_sample_facts(services.facts)} facts in {services.settings.data_dir}")
            result = answer_question(SAMPLE_QUESTION, qa=services.qa)
            typer.echo(f"sample question: {SAMPLE_QUESTION}\nanswer: {result.answer}")
            for source in result.sources:
                typer.echo(f"  source: {source['doc']} · {source['locator']}")
    except RagspineError as exc:
        raise _fail(exc) from exc
    settings = services.settings
    bind_host, bind_port = host or settings.host, port or settings.port
    typer.echo(f"serving on http://{bind_host}:{bind_port}  (API docs: http://{bind_host}:{bind_port}/docs)")
    sys.stdout.flush()
    uvicorn.run(create_local_app(settings), host=bind_host, port=bind_port, log_level="warning")
