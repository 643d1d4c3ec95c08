"""``ragspine domain``: start a domain folder for your company, and check one before pointing the service at it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ragspine.errors import RagspineError

domain_app = typer.Typer(help="Domain folders: everything company-specific (glossary, screening, FAQ, ...).",
                         no_args_is_help=True)

Folder = Annotated[Path, typer.Argument(help="The domain folder.")]


@domain_app.command("check")
def check(folder: Folder) -> None:
    """Validate a domain folder; every problem names its file, line and field (exit 1 if any)."""
    from ragspine.domain.check import check_domain

    problems = check_domain(folder)
    for problem in problems:
        typer.echo(str(problem) if problem.file == str(folder) else f"{folder}/{problem}")
    if problems:
        typer.secho(f"{len(problems)} problem(s) in {folder}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=1)
    typer.echo(f"{folder}: ok (use it with RAGSPINE_DOMAIN_DIR={folder})")


@domain_app.command("init")
def init(folder: Folder,
         force: Annotated[bool, typer.Option("--force", help="Overwrite existing domain files.")] = False) -> None:
    """Write a commented starting domain folder (edit it, then run `ragspine domain check`)."""
    from ragspine.domain.starter import init_domain

    try:
        written = init_domain(folder, force=force)
    except RagspineError as exc:
        typer.secho(f"error [{exc.code}]: {exc.message}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    for path in written:
        typer.echo(f"wrote {path}")
    typer.echo(f"next: edit the files, then run `ragspine domain check {folder}`")
