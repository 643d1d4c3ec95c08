"""A question naming only a year reaches the passage that answers it, not that year's cover page.

Through ``ragspine search`` over a fresh data folder (BM25, the embedder off): an English question
about the Chinese MD&A shares only its year with the answer. The year is in every passage's
document context and title; before, a thin cover page (the title, the context, one short line)
scored it highest because BM25 normalised it by the passage's length, so the cover ranked first
and the answering passage below it. Now the title and context are one document field scored the
same on every passage of the document, and the passage that says the year itself ranks above.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import Settings

runner = CliRunner()

DECK = ("# ACME Group FY2024 Review\n\nAll amounts are millions of US dollars.\n\n## Highlights\n\n"
        "Group revenue and net profit grew year on year.\n\nMainland China remained the largest contributor "
        "to group revenue.\n")
NEXT_DECK = ("# ACME Group FY2025 Review\n\nAll amounts are millions of US dollars.\n\n## Highlights\n\n"
             "Gross margin improved in every operating entity.\n")
MDA = ("# ACME集团 2024财年管理层讨论与分析\n\n## 香港\n\n2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱，"
       "以及位于广东道的三家门店关闭。\n\n## 日本\n\n2024财年，日本毛利率下降2个百分点，原因是日元走弱推高了进口商品的采购成本。\n")
QUESTION = "Why did Hong Kong sales shrink during 2024?"


def _ingest(tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    for name, text in (("ACME_FY2024_Review.md", DECK), ("ACME_FY2025_Review.md", NEXT_DECK),
                       ("ACME_FY2024_MDA.md", MDA)):
        (folder / name).write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(folder)])
    assert result.exit_code == 0, result.output


def _hits(query: str) -> list[tuple[str, str]]:
    result = runner.invoke(app, ["search", query, "--json", "--top-k", "5"])
    assert result.exit_code == 0, result.output
    return [(hit["doc"], hit["locator"]) for hit in json.loads(result.output)["hits"]]


def test_the_answering_passage_ranks_above_the_same_years_cover_page(settings: Settings, tmp_path: Path) -> None:
    _ingest(tmp_path)
    hits = _hits(QUESTION)
    answer = ("ACME_FY2024_MDA.md", "heading=香港,para=1")
    cover = ("ACME_FY2024_Review.md", "heading=ACME Group FY2024 Review,para=1")
    assert answer in hits and cover in hits, hits
    assert hits.index(answer) < hits.index(cover), hits
    # the year still tells the documents apart: nothing of the FY2025 deck is found
    assert not any(doc == "ACME_FY2025_Review.md" for doc, _ in hits), hits


def test_a_word_the_passage_says_still_beats_the_document_field(settings: Settings, tmp_path: Path) -> None:
    _ingest(tmp_path)
    # "largest contributor" is said by one highlight only; the year by the whole deck
    assert _hits("Which market was the largest contributor in FY2024?")[0] == (
        "ACME_FY2024_Review.md", "heading=Highlights,para=2")
