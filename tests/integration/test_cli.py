"""The ``ragspine`` command line against the embedded data folder."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.settings import Settings

runner = CliRunner()


@pytest.fixture
def loaded(settings: Settings) -> Settings:
    result = runner.invoke(app, ["load-samples"])
    assert result.exit_code == 0, result.output
    assert "loaded 114 sample facts" in result.output
    return settings


def test_ask_prints_the_answer_and_its_sources(loaded: Settings) -> None:
    result = runner.invoke(app, ["ask", "2024年日本的毛利率是多少"])
    assert result.exit_code == 0
    assert "36.0 PCT" in result.output
    assert "source: ACME_FY2024_Review.pptx · slide=4,table=1,row=GROSS_MARGIN,col=FY2024" in result.output


def test_ask_json_is_the_api_response_shape(loaded: Settings) -> None:
    result = runner.invoke(app, ["ask", "--json", "中国内地FY2024的REVENUE是多少"])
    body = json.loads(result.output)
    assert set(body) == {"answer", "sources", "route", "status", "slots", "assumptions", "results", "refinements",
                         "clarification", "refusal_reason", "narrative_status"}
    assert body["results"][0]["value"] == 1320


def test_two_data_dirs_are_independent(loaded: Settings, tmp_path, monkeypatch) -> None:
    from ragspine.bootstrap import get_services
    from ragspine.settings import get_settings

    monkeypatch.setenv("RAGSPINE_DATA_DIR", str(tmp_path / "other"))
    get_settings.cache_clear()
    get_services.cache_clear()
    result = runner.invoke(app, ["ask", "2024年日本的毛利率是多少"])
    assert result.exit_code == 0
    assert "未找到" in result.output  # the fresh folder holds no facts: honest, no number
    assert (tmp_path / "other" / "facts.db").exists()


def test_empty_question_exits_2_with_a_clear_message(settings: Settings) -> None:
    result = runner.invoke(app, ["ask", "  "])
    assert result.exit_code == 2
    assert "KNOWLEDGE_INVALID_INPUT" in result.output and "empty" in result.output


def test_invalid_settings_are_refused_at_start_up(settings: Settings, monkeypatch) -> None:
    from ragspine.bootstrap import get_services
    from ragspine.settings import get_settings

    monkeypatch.setenv("RAGSPINE_BACKEND", "aws")
    monkeypatch.delenv("RAGSPINE_FACTS_TABLE", raising=False)
    get_settings.cache_clear()
    get_services.cache_clear()
    result = runner.invoke(app, ["ask", "营收"])
    assert result.exit_code == 2
    assert "RAGSPINE_FACTS_TABLE is required" in result.output
