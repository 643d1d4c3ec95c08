"""``ragspine workflow …`` and ``ragspine catalog search`` through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.settings import Settings
from ragspine.workflows.dsl.emit import emit_yaml
from ragspine.workflows.surfaces.keys import verify_key
from ragspine.workflows.surfaces.records import KeyKind
from tests.support.workflow_api import echo_n8n, summarise_dsl

runner = CliRunner()


@pytest.fixture
def files(settings: Settings, tmp_path: Path) -> dict[str, Path]:
    broken_dsl = summarise_dsl()
    broken_dsl["workflow"]["graph"]["edges"].pop()
    contents = {"dify.yml": emit_yaml(summarise_dsl()), "broken.yml": "app:\n  name: [x\n",
                "findings.yml": emit_yaml(broken_dsl), "n8n.json": json.dumps(echo_n8n()),
                "idea.txt": "把会议记录整理成纪要：{{notes}}"}
    for name, text in contents.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {name: tmp_path / name for name in contents}


class TestWorkflowFiles:
    def test_compile_prints_the_ordered_steps(self, files: dict[str, Path]) -> None:
        result = runner.invoke(app, ["workflow", "compile", str(files["dify.yml"])])
        assert result.exit_code == 0, result.output
        assert [s["node_type"] for s in yaml.safe_load(result.stdout)["steps"]] == ["start", "llm", "end"]

    def test_analyze_json_of_a_clean_file_exits_0(self, files: dict[str, Path]) -> None:
        result = runner.invoke(app, ["workflow", "analyze", str(files["dify.yml"]), "--format", "json"])
        assert result.exit_code == 0 and json.loads(result.stdout)["ok"] is True

    def test_analyze_exits_1_when_it_finds_errors(self, files: dict[str, Path]) -> None:
        result = runner.invoke(app, ["workflow", "analyze", str(files["findings.yml"])])
        assert result.exit_code == 1 and "no_reachable_terminal" in result.stdout

    @pytest.mark.parametrize("command", ["compile", "analyze", "convert", "preview"])
    def test_bad_input_exits_2_with_its_location(self, files: dict[str, Path], command: str) -> None:
        result = runner.invoke(app, ["workflow", command, str(files["broken.yml"])])
        assert result.exit_code == 2
        assert "WORKFLOW_PARSE_ERROR" in result.stderr and "(at 3:1)" in result.stderr

    def test_a_missing_file_or_format_exits_2(self, files: dict[str, Path], tmp_path: Path) -> None:
        assert runner.invoke(app, ["workflow", "preview", str(tmp_path / "none.yml")]).exit_code == 2
        assert runner.invoke(app, ["workflow", "preview", str(files["dify.yml"]), "--format", "xml"]).exit_code == 2

    def test_convert_writes_the_dsl_to_out_and_is_deterministic(self, files: dict[str, Path], tmp_path: Path) -> None:
        outputs = []
        for i in range(2):
            out = tmp_path / f"out{i}.yml"
            result = runner.invoke(app, ["workflow", "convert", str(files["n8n.json"]), "--out", str(out)])
            assert result.exit_code == 0 and result.stdout == ""
            outputs.append(out.read_bytes())
        assert outputs[0] == outputs[1] and outputs[0].startswith(b"version: '0.6.0'\nkind: app\n")

    def test_preview_of_a_description(self, files: dict[str, Path]) -> None:
        result = runner.invoke(app, ["workflow", "preview", str(files["idea.txt"]), "--format", "json"])
        preview = json.loads(result.stdout)
        assert preview["origin"] == "generated" and preview["content_hash"].startswith("sha256:")


class TestKeys:
    def test_an_n8n_key_is_printed_once_and_verifies(self, settings: Settings) -> None:
        result = runner.invoke(app, ["workflow", "keys", "create", "--n8n"])
        key = result.stdout.strip().rsplit(" ", 1)[-1]
        assert result.exit_code == 0 and key.startswith("n8n_api_")
        assert verify_key(key, KeyKind.N8N, store=get_services().workflows.store).kind is KeyKind.N8N

    def test_an_app_key_for_a_dsl_file_stores_the_workflow(self, files: dict[str, Path]) -> None:
        result = runner.invoke(app, ["workflow", "keys", "create", "--app", "--file", str(files["dify.yml"])])
        lines = result.stdout.splitlines()
        workflow_id, key = lines[0].split()[1], lines[1].rsplit(" ", 1)[-1]
        store = get_services().workflows.store
        assert verify_key(key, KeyKind.APP, store=store).workflow_id == workflow_id
        assert store.get(workflow_id) is not None

    def test_an_app_key_for_an_existing_workflow(self, files: dict[str, Path]) -> None:
        first = runner.invoke(app, ["workflow", "keys", "create", "--app", "--file", str(files["dify.yml"])])
        workflow_id = first.stdout.split()[1]
        second = runner.invoke(app, ["workflow", "keys", "create", "--app", "--workflow", workflow_id])
        assert second.exit_code == 0 and second.stdout.startswith(f"workflow: {workflow_id}")

    @pytest.mark.parametrize("args", [[], ["--app"], ["--app", "--n8n"], ["--app", "--workflow", "nope"],
                                      ["--app", "--file", "n8n.json"]])
    def test_wrong_combinations_exit_2(self, files: dict[str, Path], args: list[str]) -> None:
        args = [str(files[a]) if a in files else a for a in args]
        assert runner.invoke(app, ["workflow", "keys", "create", *args]).exit_code == 2


class TestCatalogSearch:
    def test_search_prints_scored_titles(self, settings: Settings) -> None:
        result = runner.invoke(app, ["catalog", "search", "翻訳", "--lang", "ja", "--limit", "2"])
        lines = result.stdout.splitlines()
        assert result.exit_code == 0 and len(lines) == 2 and "tpl-translation" in lines[0]

    def test_json_lists_the_hits(self, settings: Settings) -> None:
        hits = json.loads(runner.invoke(app, ["catalog", "search", "meeting minutes", "--json"]).stdout)
        assert hits[0]["id"] == "tpl-meeting-minutes" and {"score", "matched", "titles"} <= set(hits[0])

    def test_a_bad_query_exits_2(self, settings: Settings) -> None:
        assert runner.invoke(app, ["catalog", "search", "x", "--limit", "0"]).exit_code == 2
