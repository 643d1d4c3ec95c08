"""``tests/eval/run.py --record``: a real retrieval run's table written into its section of a copy of docs/evaluation.md."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tools.measurements import EVALUATION, closing, opening

from tests.eval.harness import main, record_report, run


def test_a_recorded_run_rewrites_only_the_sections_of_the_corpora_it_measured(tmp_path: Path) -> None:
    # GIVEN a copy of the evaluation page and a real run over the ACME corpus (BM25 legs only: no model)
    page = tmp_path / "evaluation.md"
    shutil.copyfile(EVALUATION, page)
    before = page.read_text(encoding="utf-8")
    report = run(["acme"], quick=False, dense=False, log=lambda _: None)
    # WHEN it is recorded
    written = record_report(report, "python tests/eval/run.py --corpora acme --no-dense --record", page=page)
    # THEN only ACME's section changed: the stamp, the corpus line and one row per mode the run measured
    text = page.read_text(encoding="utf-8")
    assert written == ["retrieval-acme"]
    section = text.split(opening("retrieval-acme"))[1].split(closing("retrieval-acme"))[0]
    assert "by `python tests/eval/run.py --corpora acme --no-dense --record`." in section
    assert f"{report['corpora']['acme']['chunks']} chunks, {report['corpora']['acme']['queries']} questions." in section
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith(("| mode", "| ---"))]
    assert len(rows) == len(report["corpora"]["acme"]["modes"])
    assert any(row.startswith("| BM25 alone") for row in rows)
    outside = before.split(opening("retrieval-acme"))
    assert text.startswith(outside[0]) and text.endswith(before.split(closing("retrieval-acme"))[1])


def test_a_quick_run_cannot_record() -> None:
    # The --quick subsets are not the published figures.
    with pytest.raises(SystemExit):
        main(["--quick", "--record"])
