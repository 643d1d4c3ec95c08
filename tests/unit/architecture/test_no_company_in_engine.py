"""No engine module names the demo company: everything company-specific lives in a domain folder.

Every string literal (docstrings aside: they may use the demo data as an example) and every
identifier of every module under ``shared/ragspine``, outside ``samples/`` (the demo corpus
builders) and ``shipped_domains/`` (the shipped domain folders), is searched for the company's name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "shared" / "ragspine"
EXEMPT = {"samples", "shipped_domains"}
COMPANY = "acme"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] not in EXEMPT)


def _docstrings(tree: ast.AST) -> set[int]:
    """Ids of the constant nodes that are docstrings (first statement of a module, class or function)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.add(id(body[0].value))
    return found


def company_mentions(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string literal and identifier naming the company, docstrings aside."""
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            text = node.name
        elif isinstance(node, ast.arg):
            text = node.arg
        elif isinstance(node, ast.alias):
            text = node.name
        elif isinstance(node, ast.ImportFrom):
            text = node.module or ""
        if text and COMPANY in text.lower():
            hits.append((getattr(node, "lineno", 0), text))
    return sorted(hits)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_engine_module_names_the_company(path: Path) -> None:
    assert company_mentions(path.read_text(encoding="utf-8")) == []


def test_the_walk_finds_literals_and_identifiers_but_not_docstrings() -> None:
    source = '"""About ACME."""\ndef f():\n    """ACME docs."""\n    return "Hello ACME"\nacme_total = 1\n'
    assert company_mentions(source) == [(4, "Hello ACME"), (5, "acme_total")]


def test_the_walk_covers_the_engine_and_skips_the_domains() -> None:
    names = {p.relative_to(PACKAGE).as_posix() for p in MODULES}
    assert {"qa/prompt.py", "qa/screening.py", "bootstrap.py", "demo.py"} <= names
    assert not any(name.startswith(("samples/", "shipped_domains/")) for name in names)
