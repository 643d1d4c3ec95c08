"""A question naming the company and the year reaches that document, not another company's or year's.

The passages here never name their company or year: that lives in the file name and on the cover
page, and reaches the index as each chunk's document context.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import Settings
from tests.support.cfn import REPO_ROOT

runner = CliRunner()
FINANCEBENCH = REPO_ROOT.parent / "shared" / "corpus" / "financebench_dev"
# The two smallest filings of the handout (about 2 MB), of two companies.
FILINGS = ("GENERALMILLS_2019_10K.pdf", "BOEING_2018_10K.pdf")
# The same statement in every filing: only the context tells them apart.
STATEMENT = ("Days payable outstanding were 41 days at the end of the fiscal year, and capital expenditures "
             "were funded from operating cash flow.\n\nInventory turnover improved slightly.\n")


def _top_docs(query: str, k: int = 5) -> list[str]:
    result = runner.invoke(app, ["search", query, "--json", "--top-k", str(k)])
    assert result.exit_code == 0, result.output
    return [hit["doc"] for hit in json.loads(result.output)["hits"]]


def test_generated_filings_are_told_apart_by_company_and_year(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "filings"
    folder.mkdir()
    for name in ("AMAZON_2017_10K.md", "AMAZON_2019_10K.md", "COSTCO_2017_10K.md", "WALMART_2017_10K.md",
                 "WALMART_2019_10K.md"):
        (folder / name).write_text(f"# Annual report\n\n{STATEMENT}", encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(folder)]).exit_code == 0
    assert _top_docs("What were Walmart's FY2019 days payable outstanding?")[0] == "WALMART_2019_10K.md"
    assert _top_docs("Costco 2017 days payable outstanding")[0] == "COSTCO_2017_10K.md"
    assert _top_docs("Amazon FY2017 capital expenditures")[0] == "AMAZON_2017_10K.md"


def test_a_manifests_company_and_period_reach_the_index(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "stated"
    folder.mkdir()
    for name in ("a.md", "b.md"):
        (folder / name).write_text(f"# Annual report\n\n{STATEMENT}", encoding="utf-8")
    (folder / "manifest.yaml").write_text(
        "documents:\n  - {file: a.md, company: Initrode Holdings, period: FY2021, doc_type: annual report}\n"
        "  - {file: b.md, company: Vandelay Industries, period: FY2021, doc_type: annual report}\n",
        encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(folder)]).exit_code == 0
    assert _top_docs("Vandelay Industries days payable outstanding")[0] == "b.md"
    assert _top_docs("Initrode days payable outstanding 2021")[0] == "a.md"


@pytest.mark.skipif(not all((FINANCEBENCH / f).is_file() for f in FILINGS),
                    reason=f"FinanceBench filings not present at {FINANCEBENCH}")
def test_financebench_questions_reach_their_filing(settings: Settings) -> None:
    result = runner.invoke(app, ["ingest", *(str(FINANCEBENCH / f) for f in FILINGS)])
    assert result.exit_code == 0, result.output
    for question, filing in [
        ("What is the FY2019 cash conversion cycle (CCC) for General Mills?", "GENERALMILLS_2019_10K.pdf"),
        ("What is Boeing's FY2018 total current assets?", "BOEING_2018_10K.pdf"),
    ]:
        # the filing is among the top 5, and no other company's filing ranks above it
        top = _top_docs(question)
        assert filing in top, (question, top)
        company = filing.split("_")[0]
        assert all(doc.startswith(company) for doc in top[:top.index(filing)]), (question, top)
