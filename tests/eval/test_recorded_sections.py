"""The table and derived-figure evaluations write their tables into docs/evaluation.md with ``--record``."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from tools.measurements import EVALUATION, closing, opening, record

from tests.eval import recorded, tatqa_arithmetic, tatqa_tables

PRESENT = tatqa_tables.TATQA.is_file()


@pytest.mark.skipif(not PRESENT, reason=f"TAT-QA dev absent at {tatqa_tables.TATQA}")
def test_a_tatqa_run_lands_in_its_own_section_only(isolated_env: None, tmp_path: Path) -> None:
    # GIVEN a copy of the evaluation page and a real run over the first contexts of TAT-QA dev
    page = tmp_path / "evaluation.md"
    shutil.copyfile(EVALUATION, page)
    before = page.read_text(encoding="utf-8")
    report = tatqa_tables.run(6, open_vocabulary=True)
    # WHEN its table is recorded
    record("tatqa-tables", recorded.tatqa_tables_table(report), command="python tests/eval/tatqa_tables.py --open --record",
           page=page, commit="1a2b3c4", day=date(2026, 12, 5))
    # THEN the section holds the stamp and the run's own counts; the rest of the page is untouched
    text = page.read_text(encoding="utf-8")
    section = text.split(opening("tatqa-tables"))[1].split(closing("tatqa-tables"))[0]
    assert "Recorded at `1a2b3c4` on 2026-12-05 by `python tests/eval/tatqa_tables.py --open --record`." in section
    n = report["table_cell_questions"]
    assert f"| all ({n}) | {report['exact']} " in section and f"{report['facts']:,} facts stored" in section
    assert text.split(opening("tatqa-tables"))[0] == before.split(opening("tatqa-tables"))[0]
    assert text.split(closing("tatqa-tables"))[1] == before.split(closing("tatqa-tables"))[1]


def test_a_partial_run_cannot_record(capsys: pytest.CaptureFixture[str]) -> None:
    # A run over part of the set is not the published figure: refused before anything runs.
    with pytest.raises(SystemExit) as exit_info:
        tatqa_arithmetic.main(["--limit", "2", "--open", "--record"])
    assert exit_info.value.code == 2 and "run the whole set" in capsys.readouterr().err
