"""The evaluation harness itself: metrics, loaders and a BM25-only smoke run of ``--quick``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.eval import public_qa
from tests.eval.harness import main
from tests.eval.metrics import first_gold_rank, not_worse, summarise

QA_PRESENT = (public_qa.QA_ROOT / public_qa.CMRC_FILE).is_file()


def test_first_gold_rank_takes_the_best_of_alternative_golds() -> None:
    ranked = [("a", "p=1"), ("b", "p=1"), ("c", "p=2")]
    assert first_gold_rank(ranked, {("c", "p=2"), ("b", "p=1")}) == 2
    assert first_gold_rank(ranked, {("z", "p=9")}) is None


def test_summarise_gives_recall_at_cutoffs_and_mrr() -> None:
    scores = summarise([1, 3, None, 7])
    assert scores == {"recall@1": 0.25, "recall@5": 0.5, "recall@10": 0.75, "mrr": round((1 + 1 / 3 + 1 / 7) / 4, 4)}
    assert not_worse(scores, scores)
    with pytest.raises(ValueError):
        summarise([])


def test_a_missing_corpus_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(public_qa.CorpusMissingError, match="absent"):
        public_qa.cmrc2018(root=tmp_path)


@pytest.mark.skipif(not QA_PRESENT, reason=f"third-party QA corpus absent at {public_qa.QA_ROOT}")
def test_quick_bm25_run_scores_every_public_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "eval.json"
    assert main(["--quick", "--no-dense", "--corpora", "cmrc2018", "tatqa", "jfinqa", "--out", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert "| mode | R@1 | R@5 | R@10 | MRR |" in capsys.readouterr().out
    for name in ("cmrc2018", "tatqa", "jfinqa"):
        modes = report["corpora"][name]["modes"]
        assert set(modes) == {"bm25", "bm25s"}
        assert modes["bm25"]["recall@10"] > 0.5  # a sanity bound, far below what is measured
