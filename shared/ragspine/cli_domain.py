"""``ragspine domain``: start a domain folder for your company, and check one before pointing the service at it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ragspine.authoring.check import checked_domain
from ragspine.authoring.suggest import glossary_fragment, unnamed_labels
from ragspine.aws.domain_store import forget_published_domain, publish_domain
from ragspine.bootstrap import build_ingest_context, build_ingested_passages, get_services
from ragspine.domain.bundle import bundle_domain
from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.domain.marks import Problem
from ragspine.domain.seal import SEAL_FILE, folder_files, write_seal
from ragspine.domain.starter import init_domain
from ragspine.errors import ConfigurationError, RagspineError
from ragspine.ingestion import staged
from ragspine.parsed_yaml import PARSED_FILE, write_parsed
from ragspine.settings import get_settings

domain_app = typer.Typer(help="Domain folders: everything company-specific (glossary, screening, FAQ, ...).",
                         no_args_is_help=True)

Folder = Annotated[Path, typer.Argument(help="The domain folder.")]
FragmentOut = Annotated[Path | None, typer.Option(
    "--out", help="Where to write the glossary fragment (default: <folder>/glossary.suggested.yaml).")]


def _checked_files(folder: Path) -> tuple[dict[str, str] | None, list[Problem]]:
    """The domain files of ``folder`` when they pass the check and did not change during it, and the problems.

    An FAQ answer citing a document that is not a sample is checked against the data folder's
    ingested copy; one that cannot be checked at all is named in a note (no failure).
    """
    before = folder_files(folder) if folder.is_dir() else {}
    try:
        ingested = build_ingested_passages(get_settings())
    except ConfigurationError as exc:
        typer.echo(f"note: the ingested documents cannot be read ({exc.message}); FAQ answers are checked "
                   "against the sample files only")
        ingested = None
    result = checked_domain(folder, ingested=ingested)
    for note in result.notes:
        typer.echo(f"note: {folder}/{note}")
    if result.problems:
        return None, result.problems
    if folder_files(folder) != before:
        return None, [Problem(str(folder), None, "", "a file changed while the folder was checked: run it again")]
    return before, []


@domain_app.command("check")
def check(folder: Folder,
          seal: Annotated[bool, typer.Option(
              "--seal", help=f"Write the folder's seal ({SEAL_FILE}) and parsed copies ({PARSED_FILE}) when "
                             "it passes, so the service reads it without checking or parsing each file again "
                             "at start.")] = False) -> None:
    """Validate a domain folder; every problem names its file, line and field (exit 1 if any)."""
    files, problems = _checked_files(folder)
    for problem in problems:
        typer.echo(str(problem) if problem.file == str(folder) else f"{folder}/{problem}")
    if files is None:
        typer.secho(f"{len(problems)} problem(s) in {folder}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=1)
    if seal:
        typer.echo(f"sealed: {write_seal(folder, files)}")
        typer.echo(f"parsed copies: {write_parsed(folder)}")
    typer.echo(f"{folder}: ok (use it with RAGSPINE_DOMAIN_DIR={folder})")


@domain_app.command("publish")
def publish(folder: Folder,
            to: Annotated[str | None, typer.Option(
                "--to", help="s3://bucket/key: the stack's DomainLocation output (default: RAGSPINE_DOMAIN_SOURCE).",
                show_default=False)] = None) -> None:
    """Check a domain folder, then publish it to the stack's domain store; every function answers from
    it within RAGSPINE_DOMAIN_MAX_AGE_S, without a redeploy. A folder that fails the check is not published."""
    files, problems = _checked_files(folder)
    if files is None:
        for problem in problems:
            typer.echo(str(problem) if problem.file == str(folder) else f"{folder}/{problem}")
        typer.secho(f"not published: {len(problems)} problem(s) in {folder} (fix them, then publish again)",
                    err=True, fg=typer.colors.RED)
        raise typer.Exit(code=1)
    target = to
    try:
        target = to or get_settings().domain_source
        if not target:
            raise ConfigurationError("say where to publish: --to s3://bucket/key (the stack's DomainLocation output)")
        version = publish_domain(target, bundle_domain(folder, checked=files))
        forget_published_domain()  # this process reads the new domain next, not its cached copy
    except RagspineError as exc:
        typer.secho(f"error [{exc.code}]: {exc.message}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    typer.echo(f"published {folder} to {target}" + (f" (version {version})" if version else "")
               + "; the functions answer from it once their cached copy is older than RAGSPINE_DOMAIN_MAX_AGE_S")


@domain_app.command("init")
def init(folder: Folder,
         force: Annotated[bool, typer.Option("--force", help="Overwrite existing domain files.")] = False) -> None:
    """Write a commented starting domain folder (edit it, then run `ragspine domain check`)."""
    try:
        written = init_domain(folder, force=force)
    except RagspineError as exc:
        typer.secho(f"error [{exc.code}]: {exc.message}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    for path in written:
        typer.echo(f"wrote {path}")
    typer.echo(f"next: edit the files, then run `ragspine domain check {folder}`")


@domain_app.command("suggest")
def suggest(folder: Folder, out: FragmentOut = None,
            limit: Annotated[int, typer.Option("--limit", min=1, help="List at most this many labels.")] = 200) -> None:
    """List the row labels of ingested tables that the folder's glossary does not name, and write a
    glossary fragment to edit and merge (counts and a sample locator each)."""
    try:
        glossary = read_glossary(folder / GLOSSARY)
        context = build_ingest_context(get_services())
        documents, unstored = [], []
        for active in context.staging.active():
            operation = context.operations.get(active.operation_id)
            if operation is not None and operation.space is not None:
                continue  # a Gateway document's tables never become facts
            data = context.texts.get_document(active.version_id) if context.texts is not None else None
            if data is None:
                unstored.append(active.doc_id)
            else:
                documents.append(staged.load_document(data))
    except (RagspineError, ValueError) as exc:
        message = exc.message if isinstance(exc, RagspineError) else str(exc)
        typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    labels = unnamed_labels(documents, glossary)[:limit]
    for entry in labels:
        doc, locator = entry.sample
        typer.echo(f"{entry.count:>5}  {entry.label}  ({len(entry.documents)} document(s); e.g. {doc} · {locator})")
    if unstored:
        typer.echo(f"not read (ingested before their tables were kept; ingest them once more): {', '.join(unstored)}")
    target = out or folder / "glossary.suggested.yaml"
    target.write_text(glossary_fragment(labels, glossary), encoding="utf-8")
    typer.echo(f"{len(labels)} label(s) the glossary does not name, in {len(documents)} document(s); "
               f"fragment written to {target}: edit it, merge it into {folder / GLOSSARY}, then run "
               "`ragspine facts reextract`")
