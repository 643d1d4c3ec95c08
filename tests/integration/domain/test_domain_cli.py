"""``ragspine domain init`` / ``check`` and a folder of one's own, as docs/your-company.md walks through it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.domain.files import shipped_domains_dir
from ragspine.settings import Settings
from tests.support.domain_env import serving_domain
from tests.support.process_caches import close_services

runner = CliRunner()
REPORT = """# Example Co annual report FY2025

## Basis of preparation

All amounts are in millions of euros.

## North key figures

Unit: EUR m

| Metric | FY2024 | FY2025 |
| --- | --- | --- |
| Revenue | 120.0 | 131.5 |
| Operating margin | 9.5 | 10.2 |

North revenue grew because two new distribution centres opened.
"""


@pytest.fixture
def own_domain(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder written by ``ragspine domain init`` and the service pointed at it."""
    folder = tmp_path / "mydomain"
    result = runner.invoke(app, ["domain", "init", str(folder)])
    assert result.exit_code == 0, result.output
    assert f"next: edit the files, then run `ragspine domain check {folder}`" in result.output
    yield from serving_domain(monkeypatch, folder)


def test_init_then_check_accepts_the_folder(own_domain: Path) -> None:
    result = runner.invoke(app, ["domain", "check", str(own_domain)])
    assert result.exit_code == 0, result.output
    assert f"{own_domain}: ok" in result.output


def test_init_refuses_a_folder_that_already_holds_a_domain(own_domain: Path) -> None:
    result = runner.invoke(app, ["domain", "init", str(own_domain)])
    assert result.exit_code == 2
    assert "already holds domain.yaml" in result.output


def test_check_reports_each_problem_with_file_line_and_field(own_domain: Path) -> None:
    glossary = own_domain / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    glossary.write_text(text.replace("    unit: EUR_M\n", "    unit: eur millions\n", 1), encoding="utf-8")
    line = next(n for n, row in enumerate(glossary.read_text(encoding="utf-8").splitlines(), 1) if "eur millions" in row)
    result = runner.invoke(app, ["domain", "check", str(own_domain)])
    assert result.exit_code == 1
    assert f"{own_domain}/glossary.yaml:{line}: metrics.REVENUE.unit: String should match pattern" in result.output


@pytest.mark.parametrize("name", ["acme", "vela"])
def test_check_accepts_the_shipped_domains(name: str) -> None:
    result = runner.invoke(app, ["domain", "check", str(shipped_domains_dir() / name)])
    assert result.exit_code == 0, result.output


def test_ingest_into_ones_own_domain_and_get_sourced_answers(own_domain: Path, tmp_path: Path) -> None:
    report = tmp_path / "Example_Annual_Report.md"
    report.write_text(REPORT, encoding="utf-8")
    ingested = runner.invoke(app, ["ingest", str(report)], env={"COLUMNS": "200"})
    assert ingested.exit_code == 0, ingested.output
    close_services()

    figure = runner.invoke(app, ["ask", "What was North revenue in FY2025?"])
    assert "North (EXAMPLE_NORTH) FY2025 revenue (REVENUE): 131.5 EUR_M" in figure.output
    assert "source: Example_Annual_Report.md · table=1,row=Revenue,col=FY2025" in figure.output

    why = runner.invoke(app, ["ask", "Why did North revenue grow in FY2025?"])
    assert "two new distribution centres opened" in why.output
    assert "source: Example_Annual_Report.md · heading=North key figures" in why.output

    curated = runner.invoke(app, ["ask", "What currency are the figures in?"])
    assert "All amounts are in millions of euros." in curated.output

    rival = runner.invoke(app, ["ask", "What was Rival Corp's revenue in FY2025?"])
    assert "only answer questions about Example Co's own business" in rival.output
