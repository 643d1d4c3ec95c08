"""Every Mermaid diagram of the README and docs/ is one Mermaid's own parser accepts (GitHub and the site draw them)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.integration.workflows.test_mermaid import mermaid_parse

ROOT = Path(__file__).resolve().parents[3]
FENCE = re.compile(r"^```mermaid\n(.*?)^```", re.DOTALL | re.MULTILINE)


def _diagrams() -> list[tuple[str, str]]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [(page.name, text) for page in pages for text in FENCE.findall(page.read_text(encoding="utf-8"))]


def test_the_readme_and_the_architecture_page_draw_a_diagram() -> None:
    names = {name for name, _ in _diagrams()}
    assert {"README.md", "architecture.md"} <= names


def test_mermaid_parses_every_diagram_as_a_flowchart() -> None:
    diagrams = _diagrams()
    results = mermaid_parse([text for _, text in diagrams])
    failed = [(name, result["error"]) for (name, _), result in zip(diagrams, results, strict=True) if result["error"]]
    assert not failed, failed
    assert {result["type"] for result in results} <= {"flowchart-v2", "flowchart"}
