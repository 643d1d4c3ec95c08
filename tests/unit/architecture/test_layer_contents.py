"""The engine layer ships only what the product runs: no module or definition that only tests use.

The EngineLayer is ``shared/`` as ``sam build`` copies it, so its modules are the ``ragspine``
package's. Product code is what the Lambda handlers (``functions/*/app.py``) and the ``ragspine``
command reach through imports; a module reached by neither, or a function, class or method that no
product code names but a test does, is test-only code and belongs under ``tests/``.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from tests.support.cfn import REPO_ROOT

SHARED = REPO_ROOT / "shared"
PACKAGE = SHARED / "ragspine"
ROOTS = ("ragspine.cli", "ragspine.__main__")
# The maintainer's generator of the checked-in catalog descriptors (run by hand with `python -m`),
# and the vocabulary it generates from; never imported at run time.
MAINTAINER_TOOLS = frozenset({
    "ragspine.workflows.scaffold.catalog.generate",
    "ragspine.workflows.scaffold.catalog.vocabulary",
    "ragspine.workflows.scaffold.catalog.vocabulary.domains",
    "ragspine.workflows.scaffold.catalog.vocabulary.tasks",
    "ragspine.workflows.scaffold.catalog.vocabulary.terms",
    "ragspine.workflows.scaffold.catalog.vocabulary.variants",
})


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(SHARED).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imported(path: Path, name: str, known: Iterable[str]) -> set[str]:
    """The package's modules ``path`` imports, loads lazily by name, or starts by file name (a script run in a
    subprocess)."""
    known = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith(".py"):
            found.add(f"{package}.{node.value.removesuffix('.py')}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
            found.add(node.value)  # a lazy face: LazyModule("ragspine.aws.dynamo_facts")
    prefixes = {".".join(m.split(".")[:i]) for m in found for i in range(1, len(m.split(".")) + 1)}
    return prefixes & known


def _reachable(modules: dict[str, Path]) -> set[str]:
    graph = {name: _imported(path, name, modules) for name, path in modules.items()}
    pending = list(ROOTS)
    for handler in (REPO_ROOT / "functions").glob("*/app.py"):
        pending += _imported(handler, "functions.handler.app", modules)
    seen: set[str] = set()
    while pending:
        module = pending.pop()
        if module not in seen:
            seen.add(module)
            pending += graph.get(module, set())
    return seen


def _names_used(paths: Iterable[Path]) -> Counter[str]:
    """Every name a file reads, calls, imports or spells as a string (routes and commands are strings too)."""
    used: Counter[str] = Counter()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name):
                used[node.id] += 1
            elif isinstance(node, ast.Attribute):
                used[node.attr] += 1
            elif isinstance(node, ast.alias):
                used[node.name.rpartition(".")[2]] += 1
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                used[node.value] += 1
    return used


def _registered(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """Defined to be called by a framework (``@app.command()``, ``@router.get(...)``), not by name."""
    return any(isinstance(decorator, ast.Call) for decorator in node.decorator_list)


def _definitions(path: Path) -> list[tuple[str, str]]:
    """``(name, qualified name)`` of the file's top-level functions and classes and their public methods."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not _registered(node):
            found.append((node.name, node.name))
        if isinstance(node, ast.ClassDef):
            found += [(item.name, f"{node.name}.{item.name}") for item in node.body
                      if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and not item.name.startswith("__") and not _registered(item)]
    return found


def test_every_module_of_the_layer_is_reached_from_a_handler_or_the_command() -> None:
    modules = _modules()
    unreached = sorted(set(modules) - _reachable(modules) - MAINTAINER_TOOLS)
    assert unreached == [], f"modules no handler or command imports (test-only code belongs under tests/): {unreached}"


def test_no_definition_of_the_layer_is_used_by_tests_alone() -> None:
    modules = _modules()
    product = _names_used([*modules.values(), *(REPO_ROOT / "functions").glob("*/app.py")])
    tests = _names_used((REPO_ROOT / "tests").rglob("*.py"))
    test_only = [f"{name}: {qualified}" for name, path in sorted(modules.items()) if name not in MAINTAINER_TOOLS
                 for short, qualified in _definitions(path) if product[short] == 0 and tests[short] > 0]
    assert test_only == [], f"defined in the layer, used only by tests (move them under tests/): {test_only}"


def test_the_check_finds_a_definition_only_a_test_uses(tmp_path: Path) -> None:
    # the same scan over a module whose helper only a test calls names that helper
    module = tmp_path / "helpers.py"
    module.write_text("def product() -> int:\n    return 1\n\n\ndef only_for_tests() -> int:\n    return product()\n")
    test = tmp_path / "test_helpers.py"
    test.write_text("from helpers import only_for_tests\n\nassert only_for_tests() == 1\n")
    product, tests = _names_used([module]), _names_used([test])
    flagged = [qualified for short, qualified in _definitions(module) if product[short] == 0 and tests[short] > 0]
    assert flagged == ["only_for_tests"]
