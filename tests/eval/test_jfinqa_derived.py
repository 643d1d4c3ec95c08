"""The jfinqa derived-figures evaluation: its scoring, and a slice of the facts run (no wrong figure)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eval import jfinqa_derived, public_qa

PRESENT = (public_qa.QA_ROOT / public_qa.JFINQA_FILE).is_file()


@pytest.mark.skipif(not PRESENT, reason=f"third-party QA corpus absent at {public_qa.QA_ROOT}")
def test_a_slice_of_each_subtask_is_answered_without_a_wrong_figure(tmp_path: Path) -> None:
    items = public_qa._read(public_qa.JFINQA_FILE, None)
    picked = [i for task in ("numerical_reasoning", "consistency_checking", "temporal_reasoning")
              for i in [x for x in items if x["subtask"] == task][:4]]
    report = jfinqa_derived.summary(jfinqa_derived.run_facts(picked, tmp_path))
    assert report["all"]["wrong"] == 0, report["wrong"]
    assert report["all"]["correct"] >= 10


@pytest.mark.skipif(not PRESENT, reason=f"third-party QA corpus absent at {public_qa.QA_ROOT}")
def test_the_readme_path_meets_the_targets_on_all_150_questions(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's path (one Markdown file per item, ``ragspine ingest``, a fresh domain with the finance pack):
    at least 0.90 correct and at most 1 % wrong, on each half of the set as well."""
    from ragspine.bootstrap import get_services
    from ragspine.settings import get_settings

    for key in ("RAGSPINE_DOMAIN_DIR", "RAGSPINE_DATA_DIR", "RAGSPINE_EMBEDDER", "RAGSPINE_TODAY"):
        monkeypatch.setenv(key, "")  # the run sets them; put back after the test
    items = public_qa._read(public_qa.JFINQA_FILE, None)
    try:
        report = jfinqa_derived.summary(jfinqa_derived.run_readme(items, tmp_path))
    finally:
        get_settings.cache_clear()
        get_services.cache_clear()
    assert report["all"]["correct_rate"] >= 0.90, report["all"]
    assert report["all"]["wrong_rate"] <= 0.01, report["wrong"]
    for half in report["halves"].values():
        assert half["correct_rate"] >= 0.90 and half["wrong_rate"] <= 0.01, report["halves"]


def test_a_markdown_document_holds_the_items_text_and_table() -> None:
    item = {"company_name": "例示社", "pre_text": ["以下は例示社の2024年3月期の抜粋である。"], "post_text": ["以上。"],
            "table": {"headers": ["", "2024年3月期"], "rows": [["売上高", "1,000"]]}}
    assert jfinqa_derived.document(item) == ("# 例示社\n\n以下は例示社の2024年3月期の抜粋である。\n\n| 項目 | 2024年3月期 |\n"
                                             "|---|---|\n| 売上高 | 1,000 |\n\n以上。\n")
