"""``ragspine ingest``: files and folders, a summary table, exit 0 only when every file succeeded."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import Settings

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
TABLE = "# ACME Japan FY2024 Review\n\nA zebra year.\n\n| Metric | FY2024 |\n|---|---|\n| Revenue | 999 |\n"


def test_a_folder_of_good_files_exits_0_with_a_summary(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "jp.md").write_text(TABLE, encoding="utf-8")
    (folder / "sub" / "notes.txt").write_text("Plain notes about the zebra.", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(folder), "--recursive", "--library", "finance"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "jp.md" in result.output and "notes.txt" in result.output
    assert "2 succeeded, 0 failed" in result.output


def test_bad_files_are_reported_and_the_rest_still_ingested(settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "jp.md").write_text(TABLE, encoding="utf-8")
    (tmp_path / "empty.md").write_text("", encoding="utf-8")
    (tmp_path / "tool.exe").write_bytes(b"MZ")
    result = runner.invoke(app, ["ingest", str(tmp_path / "empty.md"), str(tmp_path / "tool.exe"),
                                 str(tmp_path / "jp.md")], env=WIDE)
    assert result.exit_code == 1, result.output
    assert "INGEST_EMPTY" in result.output and "INGEST_UNSUPPORTED_TYPE" in result.output
    assert "1 succeeded, 2 failed" in result.output
    asked = runner.invoke(app, ["ask", "2024年日本的收入是多少"])
    assert "999" in asked.output, asked.output


def test_an_unknown_sensitivity_is_refused(settings: Settings, tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(tmp_path), "--sensitivity", "SECRET"])
    assert result.exit_code == 2


def test_ingesting_the_same_files_again_redoes_nothing(settings: Settings, tmp_path: Path) -> None:
    from ragspine.bootstrap import build_ingest_context, get_services

    (tmp_path / "jp.md").write_text(TABLE, encoding="utf-8")
    first = runner.invoke(app, ["ingest", str(tmp_path)], env=WIDE)
    operations = build_ingest_context(get_services()).operations.list_operations()
    second = runner.invoke(app, ["ingest", str(tmp_path)], env=WIDE)
    assert (first.exit_code, second.exit_code) == (0, 0), second.output
    assert "1 succeeded, 0 failed" in second.output
    # the SUCCEEDED operation is found by (document, hash) and returned untouched
    assert build_ingest_context(get_services()).operations.list_operations() == operations
