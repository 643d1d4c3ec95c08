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


def test_progress_is_one_line_per_event_as_it_goes_then_a_summary_with_pages_per_second(
        settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\n" + "Zebra notes. " * 400, encoding="utf-8")  # 5,200 characters: 2 pages
    (tmp_path / "b.txt").write_text("Plain notes about the zebra.", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(tmp_path)], env=WIDE)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    expected = ["[1/2] a.md: parsed 2 pages", "[1/2] a.md: SUCCEEDED, 2 pages, ", "[2/2] b.txt: parsed 1 page",
                "[2/2] b.txt: SUCCEEDED, 1 page, 1 chunk, 0 facts in "]
    found = [next(n for n, line in enumerate(lines) if line.startswith(prefix)) for prefix in expected]
    assert found == sorted(found), result.output  # in this order, one line each, no terminal codes
    assert "\x1b" not in result.output
    summary = lines[-1]
    assert summary.startswith("2 succeeded, 0 failed; 3 pages, ") and summary.endswith(" pages/s)"), summary
    again = runner.invoke(app, ["ingest", str(tmp_path)], env=WIDE)
    assert "[1/2] a.md: unchanged since its last ingestion (2 pages, " in again.output
    assert again.output.splitlines()[-1] == "2 succeeded, 0 failed (2 unchanged)"


def test_a_files_line_is_printed_before_the_next_file_is_read(settings: Settings, tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from ragspine.bootstrap import build_ingest_context, get_services
    from ragspine.cli_ingest import ingest_files
    from ragspine.ingestion.submission import DocumentMeta

    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("First file about zebras.", encoding="utf-8")
    second.write_text("Second file about zebras.", encoding="utf-8")
    out = io.StringIO()
    seen_before_second: list[str] = []

    def meta(path: Path) -> DocumentMeta:
        if path == second:
            seen_before_second.append(out.getvalue())
        return DocumentMeta()

    ingest_files([first, second], context=build_ingest_context(get_services()), meta=meta,
                 console=Console(file=out, width=200))
    assert "[1/2] first.txt: SUCCEEDED, 1 page, 1 chunk" in seen_before_second[0]
    assert "second.txt" not in seen_before_second[0]
