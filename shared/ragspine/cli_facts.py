"""``ragspine facts``: the fact table's upkeep; ``reextract`` derives facts again from what ingestion stored."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated

import typer

from ragspine.bootstrap import build_ingest_context, get_services
from ragspine.errors import RagspineError
from ragspine.ingestion.reextract import reextract_facts

facts_app = typer.Typer(help="The fact table: re-extract facts after the extractor or the glossary changed.",
                        no_args_is_help=True)


@facts_app.command("reextract")
def reextract(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Report what would change; write nothing.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Extract the facts of every ingested document version again from its stored text and tables.

    The original files are not read and nothing is re-embedded; each document's added, removed
    and changed facts are reported (exit 1 when a document's tables were not stored: ingest it once more).
    """
    try:
        report = reextract_facts(build_ingest_context(get_services()), dry_run=dry_run)
    except RagspineError as exc:
        typer.secho(f"error [{exc.code}]: {exc.message}", err=True, fg=typer.colors.RED)
        raise typer.Exit(code=2) from exc
    missing = [d for d in report.documents if not d.stored]
    if as_json:
        typer.echo(json.dumps({"extractor_version": report.extractor_version, "mapping_version": report.mapping_version,
                               "facts": report.facts, "written": report.written,
                               "documents": [asdict(d) for d in report.documents]}, ensure_ascii=False, indent=2))
        raise typer.Exit(code=1 if missing else 0)
    for doc in report.documents:
        if not doc.stored:
            typer.echo(f"{doc.doc_id}: its tables were not stored (ingested before re-extraction was possible): "
                       f"{doc.facts} facts kept as they are; ingest it once more")
            continue
        typer.echo(f"{doc.doc_id}: {doc.facts} facts ({doc.added} added, {doc.removed} removed, "
                   f"{doc.changed} changed)" + (f"; {len(doc.warnings)} warning(s)" if doc.warnings else ""))
        for warning in doc.warnings:
            typer.echo(f"  warning: {warning}")
    done = [d for d in report.documents if d.stored]
    verb = "would hold" if not report.written else "holds"
    typer.echo(f"{len(done)} document(s) re-extracted with extractor {report.extractor_version} and glossary "
               f"{report.mapping_version}: {sum(d.added for d in done)} added, {sum(d.removed for d in done)} "
               f"removed, {sum(d.changed for d in done)} changed; the fact table {verb} {report.facts} facts"
               + (" (dry run: nothing written)" if not report.written else ""))
    raise typer.Exit(code=1 if missing else 0)
