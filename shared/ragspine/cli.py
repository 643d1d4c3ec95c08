"""The ``ragspine`` command line: ask, serve, ingest, and manage the data, the domain and workflows.

Each subcommand lives in its own ``cli_*`` module, imported only when that subcommand runs, so
``ragspine ask`` loads neither the workflow engine nor the document parsers.
"""

from __future__ import annotations

import typer

from ragspine.cli_lazy import LazyTyperGroup


class RagspineCommands(LazyTyperGroup):
    """The subcommands, in the order ``ragspine --help`` lists them, by the module that holds each."""

    COMMANDS = {
        "ask": ("ragspine.cli_ask", "commands"),
        "load-samples": ("ragspine.cli_serve", "commands"),
        "search": ("ragspine.cli_ask", "commands"),
        "static-table": ("ragspine.cli_serve", "commands"),
        "build-samples": ("ragspine.cli_serve", "commands"),
        "serve": ("ragspine.cli_serve", "commands"),
        "ingest": ("ragspine.cli_ingest", "ingest_commands"),
    }
    GROUPS = {
        "workflow": ("ragspine.cli_workflow", "workflow_app"),
        "catalog": ("ragspine.cli_workflow", "catalog_app"),
        "operations": ("ragspine.cli_operations", "operations_app"),
        "domain": ("ragspine.cli_domain", "domain_app"),
        "knowledge": ("ragspine.cli_knowledge", "knowledge_app"),
        "facts": ("ragspine.cli_facts", "facts_app"),
        "feedback": ("ragspine.cli_feedback", "feedback_app"),
        "eval": ("ragspine.cli_eval", "eval_app"),
    }


app = typer.Typer(cls=RagspineCommands, help="RAGSpine: answers numbers from a fact table, each with its source.",
                  no_args_is_help=True, add_completion=False)


@app.callback()
def ragspine() -> None:
    """A group needs a callback to be one when its commands are not registered on it (they are in the table)."""
