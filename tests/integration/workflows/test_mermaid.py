"""The preview's Mermaid flowchart: on every corpus export, through the CLI and the HTTP route, checked by Mermaid itself.

Mermaid's own parser (the npm package, run by Node in jsdom; ``make test`` installs it into
``tests/mermaid/``) reads every diagram; those checks skip with a reason when Node or the
package is missing. The structural checks below need neither.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import Settings
from ragspine.workflows.actions import preview_source, to_dify
from ragspine.workflows.dsl import normalize, read_dsl
from ragspine.workflows.dsl.mermaid import label, mermaid_flowchart, node_id
from ragspine.workflows.file_ops import EXIT_BAD_INPUT, EXIT_OK, Action, run_file

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT.parent / "shared" / "corpus"
FILES = sorted([*CORPUS.glob("dify/*.yml"), *CORPUS.glob("n8n/*.json")]) if CORPUS.is_dir() else []
MERMAID = ROOT / "tests" / "mermaid"
NODE = shutil.which("node")
_ID = re.compile(r"^n[A-Za-z0-9_]*$")
_DEFINITION = re.compile(r'^\s+(n[A-Za-z0-9_]+)(\(\["|\{"|\["| \[")')
_EDGE = re.compile(r'^    (n[A-Za-z0-9_]+) -->(?:\|"([^"]*)"\|)? (n[A-Za-z0-9_]+)$')
corpus = pytest.mark.skipif(not FILES, reason=f"third-party corpus not found at {CORPUS}")
runner = CliRunner()


def mermaid_parse(texts: list[str]) -> list[dict[str, Any]]:
    """Mermaid's parser over each text: ``{type, error}`` per text (one Node process for all)."""
    if NODE is None:
        pytest.skip("node is not installed (apt-get install nodejs npm), so Mermaid's parser cannot run")
    if not (MERMAID / "node_modules" / "mermaid").is_dir():
        pytest.skip("the mermaid npm package is not installed: run `make test` (npm ci in tests/mermaid)")
    done = subprocess.run([NODE, str(MERMAID / "parse.mjs")], input=json.dumps(texts), capture_output=True,
                          text=True, cwd=MERMAID, timeout=120, check=True)
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return results


def _diagram(path: Path) -> tuple[int, str]:
    result = run_file(Action.PREVIEW, path.read_bytes(), filename=path.name, diagram=True)
    return result.exit_code, result.text


def _previewable() -> list[tuple[Path, str]]:
    found = []
    for path in FILES:
        code, text = _diagram(path)
        if code == EXIT_OK:
            found.append((path, text))
    return found


@corpus
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name[:40]}")
def test_every_corpus_file_gives_the_same_diagram_of_its_nodes_and_edges_twice(path: Path) -> None:
    # GIVEN a real Dify or n8n export WHEN it is previewed as Mermaid twice
    code, text = _diagram(path)
    if code == EXIT_BAD_INPUT:  # the two exports no preview accepts (see test_corpus.py) give no diagram
        assert text == ""
        return
    assert (code, text) == _diagram(path)
    # THEN every node of the previewed DSL is defined once under its escaped id, with its title and type
    source = to_dify(normalize(path.read_bytes(), filename=path.name))
    workflow = read_dsl(source.document)
    lines = text.splitlines()
    assert lines[0] == "flowchart TD"
    defined = [m.group(1) for line in lines if (m := _DEFINITION.match(line)) or (
        m := re.match(r"^\s+subgraph (n[A-Za-z0-9_]+) \[", line))]
    assert sorted(defined) == sorted(node_id(n.id) for n in workflow.nodes)
    for node in workflow.nodes:
        assert label(node.title.strip() or node.id)[:-1] + "<br/>" in text
    # AND every edge is drawn, with a quoted label when its handle names a branch
    edges = [m.groups() for line in lines if (m := _EDGE.match(line))]
    assert [(s, t) for s, _, t in edges] == [(node_id(e.source), node_id(e.target)) for e in workflow.edges]
    assert all(_ID.match(s) and _ID.match(t) for s, _, t in edges)


@corpus
def test_mermaid_itself_parses_the_diagram_of_every_corpus_file() -> None:
    found = _previewable()
    assert len(found) >= 20
    results = mermaid_parse([text for _, text in found])
    failures = {path.name: r["error"] for (path, _), r in zip(found, results, strict=True) if r["error"]}
    assert failures == {}
    assert {r["type"] for r in results} == {"flowchart-v2"}


@corpus
def test_if_else_branches_are_labelled_in_a_corpus_export() -> None:
    text = _diagram(CORPUS / "dify" / "f05_Deep_Researcher_On_Dify.yml")[1]
    assert '-->|"if"|' in text and '-->|"else"|' in text


HOSTILE = ['say "hi"', "a # b", "<b>bold</b> & co", "`code`", "line\nbreak", "end", "subgraph", "A-->B", "x|y",
           "{braces}", "[brackets]", "(parens)", "; %% comment", "契約書の要約", "💡 idea", "graph TD", "classDef x"]


def _hostile_dsl() -> dict[str, Any]:
    """A workflow whose ids and titles are every troublesome string, with an if-else and an iteration."""
    nodes: list[dict[str, Any]] = [{"id": "end", "data": {"type": "start", "title": HOSTILE[0]}},
                                   {"id": "if-1", "data": {"type": "if-else", "title": "branch \"q\"",
                                                           "cases": [{"case_id": "c#1"}, {"case_id": "c2"}]}},
                                   {"id": "it", "data": {"type": "iteration", "title": "loop <all>"}},
                                   {"id": "it-start", "parentId": "it", "data": {"type": "iteration-start",
                                                                                "title": ""}}]
    nodes += [{"id": f"n {i} {t}", "data": {"type": "llm", "title": t}} for i, t in enumerate(HOSTILE)]
    edges = [{"source": "end", "sourceHandle": "source", "target": "if-1"},
             {"source": "if-1", "sourceHandle": "c#1", "target": "it"},
             {"source": "if-1", "sourceHandle": "c2", "target": nodes[4]["id"]},
             {"source": "if-1", "sourceHandle": "false", "target": nodes[5]["id"]},
             {"source": nodes[5]["id"], "sourceHandle": "fail-branch", "target": nodes[6]["id"]}]
    return {"version": "0.6.0", "kind": "app", "app": {"name": "hostile", "mode": "workflow"},
            "workflow": {"graph": {"nodes": nodes, "edges": edges}}}


def test_hostile_ids_and_titles_stay_inside_their_quotes_for_mermaid() -> None:
    text = mermaid_flowchart(read_dsl(_hostile_dsl()))
    assert '    nend(["say #quot;hi#quot;<br/>start"])' in text
    assert '    nif_2d_1 -->|"if"| nit' in text and '-->|"elif 1"|' in text and '-->|"else"|' in text
    assert '-->|"fail-branch"|' in text
    assert '    subgraph nit ["loop #lt;all#gt;<br/>iteration"]' in text
    [result] = mermaid_parse([text])
    assert result == {"type": "flowchart-v2", "error": None}


def test_the_parser_check_can_fail() -> None:
    [result] = mermaid_parse(["flowchart TD\n    a --> end\n"])
    assert result["error"]


@hypothesis_settings(deadline=None)  # a loaded machine must not fail a property test
@given(st.lists(st.text(max_size=12), min_size=2, max_size=6, unique=True))
def test_escaped_ids_are_distinct_and_labels_never_end_early(raw: list[str]) -> None:
    ids = [node_id(r) for r in raw]
    assert len(set(ids)) == len(ids) and all(_ID.match(i) for i in ids)
    for text in raw:
        inner = label(text)[1:-1]
        assert '"' not in inner and "\n" not in inner and "<" not in inner and "`" not in inner


@pytest.fixture
def client(settings: Settings) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from ragspine.api.app import create_local_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_local_app()) as test_client:
            yield test_client


def test_the_preview_route_returns_the_diagram_beside_the_unchanged_v1_document(client: Any) -> None:
    from jsonschema import Draft202012Validator

    from ragspine.workflows import preview_schema

    reply = client.post("/v1/workflows/preview", json={"document": _hostile_dsl()})
    assert reply.status_code == 200
    body = reply.json()
    assert body["diagram"] == mermaid_flowchart(read_dsl(_hostile_dsl()))
    assert "diagram" not in body["preview"]
    Draft202012Validator(preview_schema()).validate(body["preview"])


def test_the_cli_prints_the_diagram_and_refuses_mermaid_for_other_operations(tmp_path: Path,
                                                                              settings: Settings) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(_hostile_dsl()), encoding="utf-8")
    shown = runner.invoke(app, ["workflow", "preview", str(path), "--format", "mermaid"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == preview_source(to_dify(normalize(path.read_bytes(), filename=path.name))).diagram
    refused = runner.invoke(app, ["workflow", "compile", str(path), "--format", "mermaid"])
    assert refused.exit_code == EXIT_BAD_INPUT
    assert "--format must be yaml or json" in refused.output
