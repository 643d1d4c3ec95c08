"""The ``ragspine`` command imports a subcommand's module only when that subcommand runs.

Each check runs in a fresh interpreter, so a module another test imported cannot hide an eager import.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from ragspine.cli import RagspineCommands, app

runner = CliRunner()


def _loaded_after(args: list[str]) -> tuple[int, set[str]]:
    """(exit code, engine modules imported) of ``ragspine <args>`` run in a fresh interpreter."""
    code = textwrap.dedent(f"""
        import sys
        from typer.testing import CliRunner
        from ragspine.cli import app
        result = CliRunner().invoke(app, {args!r})
        print(result.exit_code)
        print(" ".join(sorted(m for m in sys.modules if m.startswith("ragspine"))))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    exit_code, modules = out.strip().split("\n")[-2:]
    return int(exit_code), set(modules.split())


def test_the_command_alone_imports_no_subcommand() -> None:
    code = "import sys, ragspine.cli; print(sorted(m for m in sys.modules if m.startswith('ragspine.cli')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['ragspine.cli', 'ragspine.cli_lazy']"


@pytest.mark.parametrize(("command", "absent"), [
    (["ask", "--help"], ("ragspine.workflows", "ragspine.ingestion.parsers", "ragspine.cli_workflow")),
    (["workflow", "--help"], ("ragspine.qa", "ragspine.ingestion", "ragspine.cli_ask")),
    (["operations", "--help"], ("ragspine.workflows", "ragspine.qa.answer", "ragspine.cli_serve")),
])
def test_a_subcommand_imports_its_own_module_and_not_the_others(command: list[str], absent: tuple[str, ...]) -> None:
    # WHEN one subcommand runs in a fresh interpreter
    exit_code, loaded = _loaded_after(command)
    # THEN it ran, and no module of the other subcommands' engines was imported
    assert exit_code == 0
    assert sorted(m for m in loaded if m.startswith(absent)) == []


def test_help_lists_every_subcommand_of_the_table_in_its_order() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    listed = re.findall(r"^│ ([a-z][a-z-]*) {2,}", result.output, flags=re.MULTILINE)
    assert listed == [*RagspineCommands.COMMANDS, *RagspineCommands.GROUPS]


def test_a_mistyped_subcommand_is_refused_with_the_nearest_names() -> None:
    result = runner.invoke(app, ["serch", "x"])
    assert result.exit_code == 2
    assert "No such command 'serch'" in result.output and "'search'" in result.output
