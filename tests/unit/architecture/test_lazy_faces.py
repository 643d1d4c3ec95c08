"""Each lazy face stands for the module the type checker is shown under the same name.

A module that must wait is named once at the top of its user::

    if TYPE_CHECKING:
        from ragspine.aws import dynamo_facts
    else:
        dynamo_facts = LazyModule("ragspine.aws.dynamo_facts")

The type checker reads the first branch, the interpreter the second, so the two must name the
same module under the same name, or the code is checked against one module and runs another.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "shared" / "ragspine"


def _type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def _bound_modules(body: list[ast.stmt]) -> dict[str, str]:
    """name -> module of every ``import a.b as n`` / ``from a import b [as n]`` in ``body``."""
    found = {}
    for stmt in body:
        if isinstance(stmt, ast.Import):
            found.update({alias.asname or alias.name: alias.name for alias in stmt.names})
        elif isinstance(stmt, ast.ImportFrom) and stmt.module:
            found.update({alias.asname or alias.name: f"{stmt.module}.{alias.name}" for alias in stmt.names})
    return found


def _faces(body: list[ast.stmt]) -> dict[str, str]:
    """name -> module of every ``name = LazyModule("module")`` in ``body``."""
    return {stmt.targets[0].id: str(stmt.value.args[0].value) for stmt in body
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
            and stmt.value.func.id == "LazyModule" and isinstance(stmt.value.args[0], ast.Constant)}


def mismatched_faces(source: str) -> list[str]:
    """Faces whose module is not the one the ``TYPE_CHECKING`` branch binds to that name, and faces outside it."""
    tree = ast.parse(source)
    paired = [node for node in tree.body if isinstance(node, ast.If) and _type_checking(node.test)]
    wrong = []
    for block in paired:
        typed = _bound_modules(block.body)
        wrong += [f"{name} = LazyModule({module!r}) but the type checker reads {typed.get(name)!r}"
                  for name, module in _faces(block.orelse).items() if typed.get(name) != module]
    everywhere = sum(1 for node in ast.walk(tree) if isinstance(node, ast.Call)
                     and isinstance(node.func, ast.Name) and node.func.id == "LazyModule")
    if everywhere != sum(len(_faces(block.orelse)) for block in paired):
        wrong.append("a LazyModule outside the else branch of a module-level `if TYPE_CHECKING:`")
    return wrong


def test_every_face_in_the_engine_names_the_module_the_type_checker_reads() -> None:
    wrong = {path.relative_to(ENGINE).as_posix(): found for path in sorted(ENGINE.rglob("*.py"))
             if path.name != "lazy.py" and (found := mismatched_faces(path.read_text(encoding="utf-8")))}
    assert wrong == {}


def test_a_face_naming_another_module_is_reported() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ragspine.aws import dynamo_facts\n"
              "else:\n    dynamo_facts = LazyModule('ragspine.aws.dynamo_runs')\n")
    assert mismatched_faces(source) == [
        "dynamo_facts = LazyModule('ragspine.aws.dynamo_runs') but the type checker reads 'ragspine.aws.dynamo_facts'"]
    assert mismatched_faces(source.replace("dynamo_runs", "dynamo_facts")) == []
