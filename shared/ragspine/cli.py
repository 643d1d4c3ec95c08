"""The ``ragspine`` command line: ask, serve, and manage the sample data."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
import uvicorn
from rich.console import Console

from ragspine.api.app import create_local_app
from ragspine.api.schemas import AskResponse
from ragspine.bootstrap import (
    build_background_embedder,
    build_ingest_context,
    domain_dir,
    get_services,
    start_pending_backfill,
)
from ragspine.cli_domain import domain_app
from ragspine.cli_eval import eval_app
from ragspine.cli_facts import facts_app
from ragspine.cli_feedback import feedback_app
from ragspine.cli_ingest import finish_dense_vectors, ingest_files, ingest_samples, report, samples_summary
from ragspine.cli_knowledge import knowledge_app
from ragspine.cli_operations import operations_app
from ragspine.demo import sample_dir, sample_question
from ragspine.errors import RagspineError
from ragspine.ingestion.submission import collect_files, document_meta
from ragspine.llm.static_distil import distil
from ragspine.llm.static_embedder import static_table_path
from ragspine.qa.answer import answer_question
from ragspine.retrieval.search import run_search
from ragspine.samples import build_for
from ragspine.sensitivity import Sensitivity
from ragspine.settings import get_settings
from ragspine.workflows.dsl import DocumentKind, OutputFormat, normalize
from ragspine.workflows.file_ops import EXIT_BAD_INPUT, Action, run_file
from ragspine.workflows.scaffold import ScaffoldOptions
from ragspine.workflows.scaffold.catalog import Lang, default_catalog, hit_dict
from ragspine.workflows.surfaces import create_app_key, create_n8n_key

if TYPE_CHECKING:

    from ragspine.bootstrap import Services

app = typer.Typer(help="RAGSpine: answers numbers from a fact table, each with its source.",
                  no_args_is_help=True, add_completion=False)


def _services() -> Services:
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
    try:
        services = _services()
        result = answer_question(question, qa=services.qa)
    except RagspineError as exc:
        raise _fail(exc) from exc
    if as_json:
        body = AskResponse.from_result(result, question=question).model_dump(mode="json")
        typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
        return
    typer.echo(result.answer)
    for source in result.sources:
        typer.echo(f"  source: {source['doc']} · {source['locator']}")
    detail = result.narrative_detail
    if detail is not None:
        typer.echo(f"  narrative: {result.narrative_status} ({detail.kind})"
                   + (f" unsupported: {', '.join(detail.unsupported)}" if detail.unsupported else "")
                   + (f" [{detail.reason}]" if detail.reason else "")
                   + (" language: not the question's" if detail.language_kept is False else ""))
        if detail.hint:
            typer.echo(f"  hint: {detail.hint}")
    options = result.clarification.options if result.clarification else result.refinements
    for option in options:
        typer.echo(f"  option: {option.label} → ragspine ask \"{option.question}\"")


@app.command("load-samples")
def load_samples() -> None:
    """Ingest the domain's sample documents (facts from their tables, versioned passages); exit 1 if any failed.

    Re-running is cheap: a document whose bytes were already ingested is found, not redone.
    """
    try:
        services = _services()
        console = Console()
        done = ingest_samples(services, console)
    except RagspineError as exc:
        raise _fail(exc) from exc
    failed = report(console, done)
    typer.echo(samples_summary(services, done))
    raise typer.Exit(code=1 if failed else 0)


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for, in Chinese, English or Japanese.")],
    library: Annotated[list[str] | None, typer.Option("--library", "-l", help="Only these libraries.")] = None,
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=20, help="How many hits.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hits as JSON.")] = False,
) -> None:
    """Search the narrative index (RAGSPINE_DATA_DIR): document, locator, library and score per hit."""
    try:
        result = run_search(_services(), query, libraries=tuple(library or ()), top_k=top_k)
    except RagspineError as exc:
        raise _fail(exc) from exc
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    if not result.hits:
        typer.echo("no passages found")
    for number, hit in enumerate(result.hits, start=1):
        typer.echo(f"{number}. {hit.doc} · {hit.locator}  [{hit.library}]  score {hit.score:.4f}")
        typer.echo(f"   {hit.text[:160]}")


@app.command("static-table")
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
        raise _fail(exc) from exc
    typer.echo(f"wrote {out}: {table.vectors.shape[0]} tokens x {table.dimension} dimensions")


@app.command("build-samples")
def build_samples(
    out: Annotated[Path | None, typer.Option(help="Folder to write; default: the package's samples.")] = None,
) -> None:
    """Rebuild the domain's shipped sample documents (deterministic)."""
    try:
        folder = sample_dir(domain_dir())
    except RagspineError as exc:
        raise _fail(exc) from exc
    for path in build_for(folder, out=out):
        typer.echo(f"wrote {path}")


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address (default RAGSPINE_HOST, 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default RAGSPINE_PORT, 8000).")] = None,
    samples: Annotated[bool, typer.Option("--samples/--no-samples", help="Ingest the domain's sample documents first.")
                       ] = False,
) -> None:
    """Start the local service (every router) on the embedded default."""

    try:
        services = _services()
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
        raise _fail(exc) from exc

    start_pending_backfill(services)
    settings = services.settings
    bind_host, bind_port = host or settings.host, port or settings.port
    typer.echo(f"serving on http://{bind_host}:{bind_port}  (ask page: http://{bind_host}:{bind_port}/, "
               f"API docs: http://{bind_host}:{bind_port}/docs)")
    sys.stdout.flush()
    uvicorn.run(create_local_app(settings), host=bind_host, port=bind_port, log_level="warning")


@app.command()
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
        services = _services()
        context = build_ingest_context(services)
    except RagspineError as exc:
        raise _fail(exc) from exc
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


# --- workflows and catalog -------------------------------------------------------------------

workflow_app = typer.Typer(help="Workflows: compile, analyze, convert and preview Dify DSL / n8n files; API keys.",
                           no_args_is_help=True)
keys_app = typer.Typer(help="API keys: Dify app keys (one stored workflow each) and n8n API keys.",
                       no_args_is_help=True)
catalog_app = typer.Typer(help="The workflow catalog: 7 curated templates and 993 descriptors.", no_args_is_help=True)
app.add_typer(workflow_app, name="workflow")
workflow_app.add_typer(keys_app, name="keys")
app.add_typer(catalog_app, name="catalog")
app.add_typer(operations_app, name="operations")
app.add_typer(domain_app, name="domain")
app.add_typer(knowledge_app, name="knowledge")
app.add_typer(facts_app, name="facts")
app.add_typer(feedback_app, name="feedback")
app.add_typer(eval_app, name="eval")

WorkflowFile = Annotated[Path, typer.Argument(help="A Dify DSL, n8n workflow or description (.yml/.json/.toml/.txt).")]
FormatOption = Annotated[str, typer.Option("--format", help="Output format: yaml or json.")]
PreviewFormatOption = Annotated[str, typer.Option("--format", help="yaml, json or mermaid (a flowchart).")]
OutOption = Annotated[Path | None, typer.Option("--out", help="Write the result to this file instead of stdout.")]


def _workflow_file(operation: str, file: Path, fmt: str, out: Path | None) -> None:
    """Run one file operation; exit 0 ok, 1 analyze found errors, 2 bad input (location printed)."""
    formats = ("yaml", "json", "mermaid") if operation == "preview" else ("yaml", "json")
    if fmt not in formats:
        typer.secho(f"error: --format must be {' or '.join(formats)}, not {fmt!r}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=EXIT_BAD_INPUT)
    try:
        data = file.read_bytes()
    except OSError as exc:
        typer.secho(f"error: cannot read {file}: {exc.strerror}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=EXIT_BAD_INPUT) from exc
    settings = get_settings()
    options = ScaffoldOptions(dsl_version=settings.workflow_dsl_version, http_allowlist=settings.workflow_http_hosts)
    result = run_file(Action(operation), data, filename=file.name, options=options, diagram=fmt == "mermaid",
                      fmt=OutputFormat.YAML if fmt == "mermaid" else OutputFormat(fmt))
    for note in result.notes:
        typer.secho(note, err=True, fg=typer.colors.RED if result.exit_code == EXIT_BAD_INPUT else None)
    if result.text and out is not None:
        out.write_text(result.text, encoding="utf-8")
    elif result.text:
        typer.echo(result.text, nl=False)
    raise typer.Exit(code=result.exit_code)


@workflow_app.command("compile")
def workflow_compile(file: WorkflowFile, fmt: FormatOption = "yaml", out: OutOption = None) -> None:
    """Compile to an execution plan (ordered steps with resolved bindings)."""
    _workflow_file("compile", file, fmt, out)


@workflow_app.command("analyze")
def workflow_analyze(file: WorkflowFile, fmt: FormatOption = "yaml", out: OutOption = None) -> None:
    """Analyze a workflow; exit 1 when a finding is an error."""
    _workflow_file("analyze", file, fmt, out)


@workflow_app.command("convert")
def workflow_convert(file: WorkflowFile, fmt: FormatOption = "yaml", out: OutOption = None) -> None:
    """Convert Dify DSL to n8n JSON or back; skipped nodes are listed on stderr."""
    _workflow_file("convert", file, fmt, out)


@workflow_app.command("preview")
def workflow_preview(file: WorkflowFile, fmt: PreviewFormatOption = "yaml", out: OutOption = None) -> None:
    """Preview schema v1 of a workflow, or its graph as a Mermaid flowchart (--format mermaid)."""
    _workflow_file("preview", file, fmt, out)


@keys_app.command("create")
def keys_create(
    app_key: Annotated[bool, typer.Option("--app", help="A Dify app key (needs --workflow or --file).")] = False,
    n8n_key: Annotated[bool, typer.Option("--n8n", help="An n8n API key (X-N8N-API-KEY).")] = False,
    workflow: Annotated[str | None, typer.Option(help="Id of the stored workflow the app key opens.")] = None,
    file: Annotated[Path | None, typer.Option(help="A Dify DSL to store and open with the app key.")] = None,
) -> None:
    """Create a key and print it once; only its salted hash is stored."""
    if app_key == n8n_key or (app_key and (workflow is None) == (file is None)):
        typer.secho("error: use --n8n, or --app with exactly one of --workflow ID / --file DSL", err=True,
                    fg=typer.colors.RED)
        raise typer.Exit(code=2)
    try:
        components = _services().workflows
        if n8n_key:
            created = create_n8n_key(components)
        else:
            document = None
            if file is not None:
                normalized = normalize(file.read_bytes(), filename=file.name)
                if normalized.kind is not DocumentKind.DIFY:
                    typer.secho(f"error: {file} is not a Dify DSL", err=True, fg=typer.colors.RED)
                    raise typer.Exit(code=2)
                document = normalized.mapping
            created = create_app_key(components, workflow_id=workflow, document=document)
    except RagspineError as exc:
        raise _fail(exc) from exc
    except OSError as exc:
        typer.secho(f"error: cannot read {file}: {exc.strerror}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    if created.workflow is not None:
        typer.echo(f"workflow: {created.workflow.id} ({created.workflow.name})")
    typer.echo(f"{created.kind.value} key (shown once; only its hash is stored): {created.plaintext}")


@catalog_app.command("search")
def catalog_search(
    query: Annotated[str, typer.Argument(help="Keywords in Chinese, English or Japanese.")],
    lang: Annotated[str | None, typer.Option(help="Search titles and descriptions in zh, en or ja only.")] = None,
    limit: Annotated[int, typer.Option(help="Most hits to show (1-100).")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hits as JSON.")] = False,
) -> None:
    """Search the catalog; the best hits first."""
    try:
        hits = default_catalog().search(query, lang=lang, limit=limit)
    except RagspineError as exc:
        raise _fail(exc) from exc
    if as_json:
        typer.echo(json.dumps([hit_dict(h) for h in hits], ensure_ascii=False, indent=2))
        return
    shown = Lang(lang.lower()) if lang else Lang.EN
    for hit in hits:
        typer.echo(f"{hit.score:.3f}  {hit.entry.id}  {hit.entry.titles.get(shown)}")
    if not hits:
        typer.echo("no catalog entry matches")
