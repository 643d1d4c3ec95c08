"""Import direction of STYLE.md: SDKs only in ragspine/aws, frameworks only at the edge."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "shared" / "ragspine"
SDKS = {"boto3", "botocore", "opensearchpy"}
EDGE = {"fastapi", "starlette", "mangum", "aws_lambda_powertools", "uvicorn", "typer"}


def at_the_edge(path: Path) -> bool:
    """The HTTP API package and the ``ragspine`` command's modules (``cli.py``, ``cli_*.py``)."""
    top = path.relative_to(PACKAGE).parts[0]
    return top == "api" or (top.startswith("cli") and top.endswith(".py"))


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "LazyModule"
              and node.args and isinstance(node.args[0], ast.Constant)):
            roots.add(str(node.args[0].value).split(".")[0])  # a lazy face imports it on first use
    return roots


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_aws_package_imports_aws_sdks(path: Path) -> None:
    if path.relative_to(PACKAGE).parts[0] == "aws":
        return
    assert not imported_roots(path) & SDKS


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_domain_and_services_never_import_web_or_lambda_frameworks(path: Path) -> None:
    if at_the_edge(path):
        return
    # Powertools' AWS utilities (Parameters for Secrets Manager) are adapters: ragspine/aws may use them.
    allowed = {"aws_lambda_powertools"} if path.relative_to(PACKAGE).parts[0] == "aws" else set()
    assert not (imported_roots(path) & EDGE) - allowed


def test_the_walk_sees_the_adapters_so_it_can_fail() -> None:
    assert "botocore" in imported_roots(PACKAGE / "aws" / "boto3_client.py")
