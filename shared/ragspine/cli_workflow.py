"""``ragspine workflow`` (compile, analyze, convert, preview; API keys) and ``ragspine catalog``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ragspine.bootstrap import get_services
from ragspine.cli_exit import error_exit
from ragspine.errors import RagspineError
from ragspine.settings import get_settings
from ragspine.workflows.dsl import DocumentKind, OutputFormat, normalize
from ragspine.workflows.file_ops import EXIT_BAD_INPUT, Action, run_file
from ragspine.workflows.scaffold import ScaffoldOptions
from ragspine.workflows.scaffold.catalog import Lang, default_catalog, hit_dict
from ragspine.workflows.surfaces import create_app_key, create_n8n_key

workflow_app = typer.Typer(help="Workflows: compile, analyze, convert and preview Dify DSL / n8n files; API keys.",
                           no_args_is_help=True)
keys_app = typer.Typer(help="API keys: Dify app keys (one stored workflow each) and n8n API keys.",
                       no_args_is_help=True)
catalog_app = typer.Typer(help="The workflow catalog: 7 curated templates and 993 descriptors.", no_args_is_help=True)
workflow_app.add_typer(keys_app, name="keys")

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
        components = get_services().workflows
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
        raise error_exit(exc) from exc
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
        raise error_exit(exc) from exc
    if as_json:
        typer.echo(json.dumps([hit_dict(h) for h in hits], ensure_ascii=False, indent=2))
        return
    shown = Lang(lang.lower()) if lang else Lang.EN
    for hit in hits:
        typer.echo(f"{hit.score:.3f}  {hit.entry.id}  {hit.entry.titles.get(shown)}")
    if not hits:
        typer.echo("no catalog entry matches")
