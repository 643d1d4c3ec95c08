"""A workflow's knowledge-retrieval node uses our own retriever, with citations and no RESTRICTED text."""

from __future__ import annotations

from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.settings import Settings


def test_the_wired_knowledge_retriever_returns_cited_passages(settings: Settings) -> None:
    assert CliRunner().invoke(app, ["load-samples"]).exit_code == 0
    retriever = get_services().workflows.retriever
    assert retriever is not None
    results = retriever.retrieve("Project Falcon 香港 门店", top_k=5)
    assert results and all({"content", "metadata"} <= set(r) for r in results)
    assert all(r["metadata"]["document_name"] != "ACME_Board_Minutes_2025Q4.docx" for r in results)
    assert all(r["metadata"]["source_locator"] for r in results)
