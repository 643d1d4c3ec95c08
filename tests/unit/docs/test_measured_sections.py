"""A command's ``--record`` rewrites only its own marked section of a docs page, and refuses a page without it."""

from __future__ import annotations

import re
import subprocess
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tools.measurements import (
    BENCHMARKS,
    EVALUATION,
    MeasuredSectionError,
    closing,
    head_commit,
    opening,
    record,
    replace_section,
)

PAGE = """# Evaluation

Prose the author wrote.

<!-- measured:faq -->
Recorded at `0000000` on 2026-01-01 by `old command`.

| old | table |
<!-- /measured:faq -->

More prose.

<!-- measured:screening -->
| screening | stays |
<!-- /measured:screening -->
"""
TABLE = ["| part | hits |", "| --- | --- |", "| held-out | 20/26 |"]
# Prose around a section: any text that does not itself hold a measured marker.
PROSE = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200).filter(
    lambda s: "measured:" not in s)


def test_record_rewrites_the_named_section_with_a_stamp_and_keeps_the_rest(tmp_path: Path) -> None:
    # GIVEN a page with two measured sections and prose around them
    page = tmp_path / "evaluation.md"
    page.write_text(PAGE, encoding="utf-8")
    # WHEN the FAQ command records its table
    record("faq", TABLE, command="python -m tests.eval.faq_eval --record", page=page,
           commit="1a2b3c4", day=date(2026, 12, 5))
    # THEN the FAQ section holds the stamp and the new table, and every other byte is as it was
    text = page.read_text(encoding="utf-8")
    assert "Recorded at `1a2b3c4` on 2026-12-05 by `python -m tests.eval.faq_eval --record`." in text
    assert "| held-out | 20/26 |" in text
    assert "| old | table |" not in text and "0000000" not in text
    before, after = PAGE.split(opening("faq"))[0], PAGE.split(closing("faq"))[1]
    assert text.startswith(before + opening("faq")) and text.endswith(closing("faq") + after)
    assert "| screening | stays |" in text


def test_recording_twice_gives_the_same_page(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    page.write_text(PAGE, encoding="utf-8")
    record("faq", TABLE, command="c", page=page, commit="1a2b3c4", day=date(2026, 12, 5))
    once = page.read_text(encoding="utf-8")
    record("faq", TABLE, command="c", page=page, commit="1a2b3c4", day=date(2026, 12, 5))
    assert page.read_text(encoding="utf-8") == once


@pytest.mark.parametrize(("page", "problem"), [
    (PAGE.replace(opening("faq"), ""), "missing"),
    (PAGE.replace(closing("faq"), ""), "missing"),
    (PAGE + opening("faq") + "\n", "2 times"),
    (PAGE.replace(opening("faq"), "@@").replace(closing("faq"), opening("faq")).replace("@@", closing("faq")),
     "comes before"),
])
def test_a_page_without_one_well_formed_pair_of_markers_is_refused_and_left_alone(
        tmp_path: Path, page: str, problem: str) -> None:
    # GIVEN a page whose FAQ markers are missing, repeated or reversed
    path = tmp_path / "evaluation.md"
    path.write_text(page, encoding="utf-8")
    # WHEN a command records into it THEN it fails saying why, and the page is unchanged
    with pytest.raises(MeasuredSectionError, match=problem):
        record("faq", TABLE, command="c", page=path, commit="1a2b3c4", day=date(2026, 12, 5))
    assert path.read_text(encoding="utf-8") == page


def test_a_section_name_that_is_not_a_plain_slug_is_refused() -> None:
    with pytest.raises(MeasuredSectionError, match="lower-case"):
        replace_section(PAGE, "FAQ -->", "x")


@given(before=PROSE, inside=PROSE, after=PROSE, body=PROSE)
def test_only_the_text_between_the_markers_changes(before: str, inside: str, after: str, body: str) -> None:
    text = f"{before}{opening('x')}{inside}{closing('x')}{after}"
    result = replace_section(text, "x", body)
    assert result.startswith(before + opening("x") + "\n")
    assert result.endswith("\n" + closing("x") + after)
    assert replace_section(result, "x", body) == result


def test_the_stamp_names_the_checked_out_commit() -> None:
    # The real repository: the short hash git reports, with a note when tracked files differ from it.
    short = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=EVALUATION.parent, check=True,
                           capture_output=True, text=True).stdout.strip()
    assert re.fullmatch(rf"{short}( with uncommitted changes)?", head_commit())


@pytest.mark.parametrize(("page", "names"), [
    (EVALUATION, ("screening", "screening-grounded", "faq", "provenance", "ingestion-corpus-documents",
                  "retrieval-acme", "retrieval-cmrc2018", "retrieval-tatqa", "retrieval-jfinqa", "documents-financebench", "documents-jsquad",
                  "tatqa-tables", "tatqa-tables-listed", "tatqa-arithmetic", "jfinqa-tables", "jfinqa-derived", "financebench-metrics",
                  "financebench-statements")),
    (BENCHMARKS, ("structured-ask", "ingestion")),
])
def test_every_section_a_command_records_into_is_on_its_page(page: Path, names: tuple[str, ...]) -> None:
    text = page.read_text(encoding="utf-8")
    for name in names:
        assert replace_section(text, name, "@@probe@@").count("@@probe@@") == 1


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def test_the_stamp_marks_uncommitted_code_but_not_a_recorded_page(tmp_path: Path) -> None:
    # GIVEN a repository with a committed module and docs page
    _git(tmp_path, "init", "-q")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "evaluation.md").write_text(PAGE, encoding="utf-8")
    (tmp_path / "engine.py").write_text("X = 1\n", encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start")
    short = _git(tmp_path, "rev-parse", "--short", "HEAD")
    # WHEN a command has recorded into the page THEN the next run is still stamped with the commit alone
    record("faq", TABLE, command="c", page=tmp_path / "docs" / "evaluation.md", commit=head_commit(tmp_path))
    (tmp_path / "CHANGELOG.md").write_text("- a change\n", encoding="utf-8")
    _git(tmp_path, "add", "CHANGELOG.md")
    assert head_commit(tmp_path) == short
    # WHEN the code differs from the commit THEN the stamp says so
    (tmp_path / "engine.py").write_text("X = 2\n", encoding="utf-8")
    assert head_commit(tmp_path) == f"{short} with uncommitted changes"
