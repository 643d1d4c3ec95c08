"""How a ``ragspine`` command ends on an engine error: its code and message on stderr, exit status 2."""

from __future__ import annotations

import typer

from ragspine.errors import RagspineError


def error_exit(exc: RagspineError) -> typer.Exit:
    """Print ``exc``'s code and message in red on stderr; raise the returned exit (status 2)."""
    typer.secho(f"error [{exc.code}]: {exc.message}", err=True, fg=typer.colors.RED)
    return typer.Exit(code=2)
