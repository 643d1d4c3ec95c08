"""The ``ragspine ask`` and ``ragspine search`` commands: answers and passages from the configured data."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ragspine.api.schemas import AskResponse
from ragspine.bootstrap import get_services
from ragspine.cli_exit import error_exit
from ragspine.errors import RagspineError
from ragspine.qa.answer import answer_question
from ragspine.retrieval.search import run_search

commands = typer.Typer(add_completion=False)


@commands.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, e.g. 2024年日本的毛利率是多少")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the full result as JSON.")] = False,
) -> None:
    """Answer one question against the configured data (RAGSPINE_DATA_DIR)."""
    try:
        services = get_services()
        result = answer_question(question, qa=services.qa)
    except RagspineError as exc:
        raise error_exit(exc) from exc
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


@commands.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for, in Chinese, English or Japanese.")],
    library: Annotated[list[str] | None, typer.Option("--library", "-l", help="Only these libraries.")] = None,
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=20, help="How many hits.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hits as JSON.")] = False,
) -> None:
    """Search the narrative index (RAGSPINE_DATA_DIR): document, locator, library and score per hit."""
    try:
        result = run_search(get_services(), query, libraries=tuple(library or ()), top_k=top_k)
    except RagspineError as exc:
        raise error_exit(exc) from exc
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    if not result.hits:
        typer.echo("no passages found")
    for number, hit in enumerate(result.hits, start=1):
        typer.echo(f"{number}. {hit.doc} · {hit.locator}  [{hit.library}]  score {hit.score:.4f}")
        typer.echo(f"   {hit.text[:160]}")
