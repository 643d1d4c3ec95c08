"""``ragspine knowledge``: the Gateway's service tokens, dev assertions, grants, audit and capability manifest.

Every command works on the data folder (``RAGSPINE_DATA_DIR``) a running ``ragspine serve``
uses, and takes effect there without a restart: the service reads them on each request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

knowledge_app = typer.Typer(help="Knowledge Gateway: service tokens, user assertions, grants, audit, manifest.",
                            no_args_is_help=True)


@knowledge_app.command()
def manifest(out: Annotated[Path | None, typer.Option("--out", help="Write to this file instead of stdout.")] = None,
             ) -> None:
    """The capability manifest (tools, toolsets, approvals, concurrency) generated from the contract."""
    from ragspine.knowledge.contract import manifest_text

    text = manifest_text()
    if out is None:
        typer.echo(text, nl=False)
        return
    out.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {out}")
