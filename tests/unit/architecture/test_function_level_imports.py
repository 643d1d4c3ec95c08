"""Imports sit at module level unless they must wait, and the number that wait does not grow.

An import inside a function hides a dependency from the reader. What must wait is named once at
the top of its user as a lazy face (``ragspine.lazy.LazyModule``, the type checker reading the
real import): the composition root (``bootstrap.py``) reaches each adapter the settings may pick
that way, and the engine modules and libraries a Lambda must not load at cold start (numpy, which
no layer ships; opensearch-py; the modules behind a route) are faces too
(``tests/integration/functions/test_handler_import_weight.py``). The ``ragspine`` command loads
each subcommand's module from a table when it runs. The imports still inside functions are the
document parsers' libraries (only the worker's layer ships them, each parser loads its own),
child processes that import after their sandbox is set, and libraries one rarely taken path
needs. A new function-level import fails this test: move it to the top of its module or behind a
face, or, when it must wait where it is, say why in a comment beside it and raise the ceiling.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "shared" / "ragspine"
CEILING = 55  # function-level imports that wait on purpose (see the module docstring)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def function_level_imports(source: str) -> tuple[int, int]:
    """(all imports, imports inside a function or lambda), ``if TYPE_CHECKING:`` bodies left out."""
    counts = [0, 0]

    def walk(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                counts[0] += 1
                counts[1] += inside
            walk(child, inside or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    walk(ast.parse(source), False)
    return counts[0], counts[1]


def test_the_counter_sees_nested_imports_and_skips_type_checking_ones() -> None:
    # GIVEN a module with one top-level, one TYPE_CHECKING and two function-level imports
    source = ("import os\nfrom typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    import json\n"
              "def f():\n    import re\n    def g():\n        from pathlib import Path\n")
    # THEN the function-level ones (nested ones too) are counted and the TYPE_CHECKING one is not
    assert function_level_imports(source) == (4, 2)


def test_function_level_imports_do_not_grow() -> None:
    inside = sum(function_level_imports(p.read_text(encoding="utf-8"))[1] for p in ENGINE.rglob("*.py"))
    assert inside <= CEILING, (
        f"{inside} imports inside functions (ceiling {CEILING}): move the new ones to module level, "
        "or keep one lazy on purpose with a comment saying why and raise the ceiling")
