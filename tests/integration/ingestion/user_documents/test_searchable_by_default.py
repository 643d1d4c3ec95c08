"""A user's own folder, ingested without ``--library``, is found by every surface without naming a library.

Routing boosts the libraries a question points at; it never hides the others. The folder is
written here, and a few handout documents (read in place from ``../shared/corpus/docs``) are
ingested with it when they are present.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ragspine.api.app import create_local_app
from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.qa.answer import answer_question
from ragspine.settings import Settings
from tests.support.cfn import REPO_ROOT

runner = CliRunner()
HANDOUT = REPO_ROOT.parent / "shared" / "corpus" / "docs"
HANDOUT_FILES = [HANDOUT / name for name in ("unstructured_sample-presentation.pptx", "unstructured_docx-tables.docx")]

GREENHOUSE = ("# Greenhouse notes\n\nThe compost ratio at the Kyoto greenhouse is three parts green waste to one part "
              "brown waste.\n\nWatering happens every Tuesday before dawn.\n")
WENSHI = "温室的堆肥比例是三份绿色废料对一份棕色废料。浇水安排在每周二清晨。\n"
KURA = "倉庫の棚卸しは毎月第一月曜日に行い、結果は経理部に報告する。\n"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "greenhouse.md").write_text(GREENHOUSE, encoding="utf-8")
    (folder / "wenshi.txt").write_text(WENSHI, encoding="utf-8")
    (folder / "kura.txt").write_text(KURA, encoding="utf-8")
    return folder


@pytest.fixture
def ingested(settings: Settings, tmp_path: Path) -> Path:
    """A fresh data folder holding only the user's folder (no samples), ingested with no library named."""
    folder = _folder(tmp_path)
    result = runner.invoke(app, ["ingest", str(folder)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return folder


def _cli_search(query: str) -> dict[str, object]:
    result = runner.invoke(app, ["search", query, "--json"])
    assert result.exit_code == 0, result.output
    parsed: dict[str, object] = json.loads(result.output)
    return parsed


def _docs(hits: object) -> list[str]:
    assert isinstance(hits, list)
    return [str(hit["doc"]) for hit in hits]


class TestCommandLine:
    @pytest.mark.parametrize(("query", "doc"), [
        ("compost ratio at the greenhouse", "greenhouse.md"),
        ("温室的堆肥比例", "wenshi.txt"),
        ("倉庫の棚卸しはいつ", "kura.txt"),
    ])
    def test_an_unrouted_question_finds_the_users_passage(self, ingested: Path, query: str, doc: str) -> None:
        found = _cli_search(query)
        assert _docs(found["hits"])[0] == doc
        assert found["all_libraries"] is True and found["libraries"] == []

    def test_a_routed_question_still_finds_a_document_outside_the_routed_library(self, ingested: Path) -> None:
        # "policy" routes to the policies library; the user's note is in "default" and still found.
        found = _cli_search("what is the compost ratio policy at the greenhouse")
        assert found["libraries"] == ["policies"]
        assert _docs(found["hits"])[0] == "greenhouse.md"

    def test_the_text_output_names_the_document_and_its_library(self, ingested: Path) -> None:
        result = runner.invoke(app, ["search", "Watering every Tuesday", "--top-k", "1"])
        assert result.exit_code == 0, result.output
        assert "greenhouse.md · heading=Greenhouse notes,para=2  [default]" in result.output

    def test_naming_another_library_still_narrows_the_search(self, ingested: Path) -> None:
        found = _cli_search("compost ratio")
        narrowed = runner.invoke(app, ["search", "compost ratio", "--library", "policies", "--json"])
        assert _docs(found["hits"]) and json.loads(narrowed.output)["hits"] == []


class TestHttpAndAsk:
    def test_post_v1_search_without_a_library(self, ingested: Path) -> None:
        response = TestClient(create_local_app()).post("/v1/search", json={"query": "温室的堆肥比例"})
        assert response.status_code == 200, response.text
        assert _docs(response.json()["hits"])[0] == "wenshi.txt"

    def test_answer_question_cites_the_users_document(self, ingested: Path) -> None:
        # "store" keeps the question inside today's business scope (screening is the domain's).
        result = answer_question("What compost ratio does the Kyoto greenhouse store use?", qa=get_services().qa)
        assert result.sources and result.sources[0]["doc"] == "greenhouse.md", result.answer
        assert "three parts green waste" in result.answer

    def test_post_v1_ask_cites_the_users_document(self, ingested: Path) -> None:
        response = TestClient(create_local_app()).post("/v1/ask", json={"question": "公司温室的堆肥比例是多少？"})
        assert response.status_code == 200, response.text
        body = response.json()
        assert [s["doc"] for s in body["sources"]][:1] == ["wenshi.txt"], body

    def test_the_workflow_retrieval_node_finds_the_users_passage(self, ingested: Path) -> None:
        retriever = get_services().workflows.retriever
        assert retriever is not None
        results = retriever.retrieve("倉庫の棚卸し", top_k=3)
        assert results[0]["metadata"]["document_name"] == "kura.txt"
        assert results[0]["metadata"]["library"] == "default"


@pytest.mark.skipif(not all(p.is_file() for p in HANDOUT_FILES), reason=f"handout documents not present at {HANDOUT}")
def test_handout_documents_ingested_beside_the_folder_are_found(settings: Settings, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    result = runner.invoke(app, ["ingest", str(folder), *map(str, HANDOUT_FILES)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert _docs(_cli_search("a list of bulleted information with a sub-bullet")["hits"])[0] == HANDOUT_FILES[0].name
    assert HANDOUT_FILES[1].name in _docs(_cli_search("table with merged cells")["hits"])
    assert _docs(_cli_search("compost ratio at the greenhouse")["hits"])[0] == "greenhouse.md"
