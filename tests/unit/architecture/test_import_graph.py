"""The engine's import graph: no cycle anywhere, packages in one order, workflow subpackages met through their faces.

Every import counts, including those inside functions (they run on first call and can close
a cycle as surely as a top-level one); only those under ``if TYPE_CHECKING:`` do not, since
they never run. ``from package import name`` counts as importing the submodule when ``name``
is one, and as importing the package (its ``__init__``) otherwise.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared"
WORKFLOWS = "ragspine.workflows"


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the engine package."""
    found = {}
    for path in sorted((SHARED / "ragspine").rglob("*.py")):
        parts = path.relative_to(SHARED).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, at any depth, skipping ``if TYPE_CHECKING:`` bodies."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test):
                pending.extend(child.orelse)
            elif isinstance(child, ast.Import | ast.ImportFrom):
                found.append(child)
            else:
                pending.append(child)
    return found


def _bound_names(path: Path) -> set[str]:
    """Names a package's ``__init__`` binds by importing them (they shadow same-named submodules)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {alias.asname or alias.name for stmt in tree.body if isinstance(stmt, ast.ImportFrom) for alias in stmt.names}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The engine modules that module ``name`` imports."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for stmt in _statements(tree):
        if isinstance(stmt, ast.Import):
            out.update(alias.name for alias in stmt.names if alias.name in known)
            continue
        base = package[:len(package) - stmt.level + 1] if stmt.level else []
        module = ".".join([*base, stmt.module] if stmt.module else base)
        shadowed = _bound_names(known[module]) if module in known and known[module].name == "__init__.py" else set()
        for alias in stmt.names:
            if f"{module}.{alias.name}" in known and alias.name not in shadowed:
                out.add(f"{module}.{alias.name}")
            elif module in known:
                out.add(module)
    out.update(lazy_faces(tree, known))
    out.discard(name)
    return out


def lazy_faces(tree: ast.AST, known: dict[str, Path] | set[str]) -> set[str]:
    """The engine modules a module names as ``LazyModule("ragspine....")``: imports run on first use."""
    return {str(node.args[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "LazyModule"
            and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value in known}


MODULES = module_files()
GRAPH = {name: imports_of(name, path, MODULES) for name, path in MODULES.items()}


def test_the_engine_has_no_import_cycle() -> None:
    try:
        TopologicalSorter(GRAPH).prepare()
    except CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


def test_the_walk_sees_function_level_imports_and_skips_type_checking_ones(tmp_path: Path) -> None:
    # GIVEN a module with a lazy import in a function and one only for the type checker
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ragspine.errors import RagspineError\n"
        "def f():\n    from ragspine.settings import Settings\n"
    )
    tree_path = SHARED / "ragspine" / "settings.py"
    known = {"ragspine.errors": tree_path, "ragspine.settings": tree_path, "ragspine.probe": tree_path}
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    # WHEN its imports are walked THEN the lazy one counts and the TYPE_CHECKING one does not
    assert imports_of("ragspine.probe", probe, known) == {"ragspine.settings"}


def test_a_cycle_would_be_reported() -> None:
    graph = {**GRAPH, "ragspine.errors": GRAPH["ragspine.errors"] | {"ragspine.workflows.run.execute"}}
    with pytest.raises(CycleError):
        TopologicalSorter(graph).prepare()


def _subpackage(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["ragspine", "workflows"] else None


def test_workflow_subpackages_are_reached_only_through_their_faces() -> None:
    # A module of workflows/<pkg>/ is private to <pkg>: others import a package's __init__ (its face).
    reaching = sorted(
        f"{importer} imports {target}"
        for importer, targets in GRAPH.items()
        for target in targets
        if (pkg := _subpackage(target)) is not None and _subpackage(importer) != pkg
        and importer != f"{WORKFLOWS}.{pkg}" and MODULES[target].name != "__init__.py"
    )
    assert reaching == []


def test_the_workflow_tree_keeps_at_most_six_modules_at_its_top() -> None:
    top = sorted(p.name for p in (SHARED / "ragspine" / "workflows").glob("*.py"))
    assert len(top) <= 6, top


# The package order, lowest first: a package imports only packages of an earlier tier. Top-level
# modules count as packages of their own name; every ``cli*.py`` and ``__main__`` are "cli".
# qa sits below retrieval: it reaches passages only through its ports (``qa.ports``), which
# retrieval and ingestion implement.
TIERS: tuple[frozenset[str], ...] = tuple(frozenset(tier.split()) for tier in (
    "lazy",
    "ragspine errors sensitivity json_input text names sentence_spans abbreviations citation numbers samples background_priority"
    " freed_memory startup_heap pydantic_v1_absent parsed_yaml regex_programs frozen_records",
    "settings config_loader sqlite_local",
    "facts llm feedback",
    "domain",
    "qa",
    "retrieval",
    "ingestion",
    "knowledge workflows evidence demo",
    "aws",
    "bootstrap",
    "priming",
    "api authoring",
    "cli",
))

# Edges against the order that are known, each with why it is still there. The test fails on
# any other back-edge, and on an exception that no longer exists (remove it from here).
EXCEPTIONS: dict[tuple[str, str], str] = {
}


def package_of(module: str) -> str:
    """``ragspine.qa.answer`` -> ``qa``; ``ragspine.cli_ingest`` -> ``cli``; ``ragspine`` -> ``ragspine``."""
    parts = module.split(".")
    if len(parts) == 1:
        return parts[0]
    name = parts[1]
    return "cli" if name.startswith("cli") or name == "__main__" else name


RANK = {package: rank for rank, tier in enumerate(TIERS) for package in tier}


def back_edges(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every import of a package from one of the same or a later tier (a module's own package aside)."""
    return {(importer, target) for importer, targets in graph.items() for target in targets
            if package_of(importer) != package_of(target)
            and RANK[package_of(importer)] <= RANK[package_of(target)]}


def test_every_package_has_a_tier() -> None:
    assert sorted({package_of(m) for m in MODULES} - RANK.keys()) == []
    assert sorted(RANK.keys() - {package_of(m) for m in MODULES}) == []


def test_packages_import_only_packages_below_them() -> None:
    found = back_edges(GRAPH)
    new = sorted(f"{a} imports {b} ({package_of(a)} is not above {package_of(b)})"
                 for a, b in found - EXCEPTIONS.keys())
    assert new == []
    assert sorted(EXCEPTIONS.keys() - found) == [], "these exceptions are gone: remove them from EXCEPTIONS"


def test_a_new_back_edge_would_be_reported() -> None:
    graph = {**GRAPH, "ragspine.qa.answer": GRAPH["ragspine.qa.answer"] | {"ragspine.retrieval.pipeline"}}
    assert back_edges(graph) - back_edges(GRAPH) == {("ragspine.qa.answer", "ragspine.retrieval.pipeline")}


def test_the_domain_readers_are_given_their_folder_never_look_it_up() -> None:
    # The composition root resolves the folder (bootstrap.domain_dir) and passes it in: no reader of a
    # domain folder imports the settings or the AWS store the published domain comes from.
    readers = [m for m in GRAPH if package_of(m) in {"domain", "facts"}]
    reaching = sorted(f"{m} imports {t}" for m in readers for t in GRAPH[m]
                      if t == "ragspine.settings" or package_of(t) == "aws")
    assert reaching == []
