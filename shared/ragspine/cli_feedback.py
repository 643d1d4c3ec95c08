"""``ragspine feedback``: what readers said about answers and single numbers, for an administrator."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from ragspine.aws.dynamo_feedback import DynamoFeedbackStore
from ragspine.feedback.store import FeedbackStore
from ragspine.settings import Backend, get_settings

feedback_app = typer.Typer(help="Readers' feedback on answers and numbers, with the locator each is about.",
                           no_args_is_help=True)


@feedback_app.command("list")
def list_feedback(
    limit: Annotated[int, typer.Option(min=1, max=10000, help="How many, newest first.")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """List the latest feedback: reason, the number and its source, the question.

    With ``RAGSPINE_BACKEND=aws`` and ``RAGSPINE_FEEDBACK_TABLE`` (the stack's ``FeedbackTableName``
    output), the deployed page's feedback table; else the local service's ``feedback.db``.
    """
    settings = get_settings()
    if settings.backend is Backend.AWS and settings.feedback_table:
        items = DynamoFeedbackStore(settings.feedback_table, region=settings.aws_region,
                                    endpoint_url=settings.dynamodb_endpoint_url).list(limit=limit)
    else:
        items = FeedbackStore(settings.data_dir / "feedback.db").list(limit=limit)
    if as_json:
        typer.echo(json.dumps([i.as_dict() for i in items], ensure_ascii=False, indent=2))
        return
    if not items:
        typer.echo("no feedback yet")
        return
    for item in items:
        where = f"{item.doc} · {item.locator}" if item.doc else "(the whole answer)"
        figure = f" {item.value}" if item.value else ""
        typer.echo(f"{item.created_at}  {item.reason.value:<13}{figure}  {where}")
        typer.echo(f"    question: {item.question}")
        if item.comment:
            typer.echo(f"    comment: {item.comment}")
