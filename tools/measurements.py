"""Writes a command's measured table into its marked section of a docs page, stamped with the commit and date.

A measured section of ``docs/evaluation.md`` or ``docs/benchmarks.md`` sits between two markers::

    <!-- measured:NAME -->
    Recorded at `1a2b3c4` on 2026-12-05 by `python -m tests.eval.faq_eval`.

    | table | the command printed |
    <!-- /measured:NAME -->

The evaluation commands and ``make bench`` call :func:`record` when run with ``--record``; the
page's prose around the markers is never touched, so the figures cannot drift from the command
that produced them and the surrounding explanation stays the author's.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EVALUATION = REPO / "docs" / "evaluation.md"
BENCHMARKS = REPO / "docs" / "benchmarks.md"
NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
NOT_CODE = (":(exclude)docs", ":(exclude)*.md")  # git pathspecs of the pages a run may have just written


class MeasuredSectionError(ValueError):
    """A page lacks the markers of a section, holds them more than once or out of order, or the name is malformed."""


def opening(name: str) -> str:
    """The marker that opens section ``name``."""
    return f"<!-- measured:{name} -->"


def closing(name: str) -> str:
    """The marker that closes section ``name``."""
    return f"<!-- /measured:{name} -->"


def stamp(commit: str, day: date, command: str) -> str:
    """The line that says where the figures below it came from."""
    return f"Recorded at `{commit}` on {day.isoformat()} by `{command}`."


def replace_section(text: str, name: str, body: str) -> str:
    """``text`` with the content between the markers of ``name`` replaced by ``body``; everything else unchanged.

    Raises:
        MeasuredSectionError: the name is not lower-case words joined by hyphens, or either
            marker is missing, repeated or the closing one comes first.
    """
    if not NAME.fullmatch(name):
        raise MeasuredSectionError(f"section name {name!r} must be lower-case letters, digits and hyphens")
    start_marker, end_marker = opening(name), closing(name)
    for marker in (start_marker, end_marker):
        count = text.count(marker)
        if count != 1:
            problem = "is missing" if count == 0 else f"appears {count} times"
            raise MeasuredSectionError(f"the marker {marker} {problem}; add one pair around the section")
    start = text.index(start_marker) + len(start_marker)
    end = text.index(end_marker)
    if end < start:
        raise MeasuredSectionError(f"{end_marker} comes before {start_marker}")
    return text[:start] + "\n" + body.strip("\n") + "\n" + text[end:]


def head_commit(repo: Path = REPO) -> str:
    """``git rev-parse --short HEAD``, marked when tracked files other than pages have uncommitted changes.

    A run over uncommitted code measured what no commit holds; the stamp says so. Pages
    (``docs/``, ``*.md``) are left out: recording one section must not mark the next command's run.
    """
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repo, check=True,
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", *NOT_CODE], cwd=repo,
                           check=True, capture_output=True, text=True).stdout.strip()
    return f"{commit} with uncommitted changes" if dirty else commit


def record(name: str, table: Sequence[str] | str, *, command: str, page: Path = EVALUATION,
           commit: str | None = None, day: date | None = None) -> None:
    """Rewrite section ``name`` of ``page`` with ``table`` (Markdown lines) under a commit, date and command stamp.

    Raises:
        MeasuredSectionError: as :func:`replace_section`; the page is left as it was.
    """
    lines = [table] if isinstance(table, str) else list(table)
    body = "\n".join([stamp(commit or head_commit(), day or datetime.now(UTC).date(), command), "", *lines])
    text = page.read_text(encoding="utf-8")
    page.write_text(replace_section(text, name, body), encoding="utf-8")


def record_note(page: Path, name: str) -> str:
    """What a command prints after recording, so the run's log says which page changed."""
    try:
        shown = page.relative_to(REPO)
    except ValueError:
        shown = page
    return f"recorded section {name!r} in {shown}"
