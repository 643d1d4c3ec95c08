"""The real-documents evaluation: page locators, FinanceBench scoring, and a pipeline smoke run on JSQuAD files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.eval import documents


def test_locators_cover_their_pages_one_based() -> None:
    assert list(documents.locator_pages("page=3,para=2")) == [3]
    assert list(documents.locator_pages("page=3-4")) == [3, 4]
    assert list(documents.locator_pages("page=12,table=1")) == [12]
    assert list(documents.locator_pages("heading=Returns,para=1")) == []


def test_a_page_hit_needs_the_gold_document_and_a_covering_locator() -> None:
    questions = [{"id": "q1", "question": "?", "doc": "A_10K.pdf", "pages": [("A_10K", 60)]},
                 {"id": "q2", "question": "?", "doc": "B_10K.pdf", "pages": [("B_10K", 5)]}]
    ranked = {0: [("B_10K.pdf", "page=60"), ("A_10K.pdf", "page=59-60")], 1: [("B_10K.pdf", "page=6")]}
    scores = documents.score_financebench(questions, ranked.__getitem__)
    assert (scores["document_top5"], scores["page_top5"], scores["page_missed"]) == (1.0, 0.5, ["q2"])


@pytest.mark.skipif(not documents.FINANCEBENCH.joinpath("questions.json").is_file(),
                    reason="../shared/corpus/financebench_dev is absent")
def test_financebench_gold_pages_are_shifted_to_one_based() -> None:
    first = documents.financebench_questions()[0]
    assert first["doc"] == "3M_2018_10K.pdf" and first["pages"] == [("3M_2018_10K", 60)]


def test_ingested_paragraph_files_are_found_through_the_pipeline(tmp_path: Path) -> None:
    files = []
    for name, text in (("p1.txt", "富士山は日本で最も高い山である。"), ("p2.txt", "琵琶湖は日本最大の湖である。")):
        path = tmp_path / "files" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        files.append(path)
    ingested = documents.ingest(files, tmp_path / "data", embedder="none", log=lambda _: None)
    assert (ingested.files, ingested.failed) == (2, 0)
    rankers = documents.rankers(ingested, tmp_path / "data", ["日本最大の湖は？"])
    assert rankers["pipeline"](0)[0][0] == "p2.txt" and rankers["bm25"](0)[0][0] == "p2.txt"
    assert documents.bigram_bm25(files, ["日本最大の湖は？"])(0)[0] == "p2.txt"
