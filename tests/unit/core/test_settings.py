"""Settings come from RAGSPINE_* variables and are validated with a readable message."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ragspine.errors import ConfigurationError
from ragspine.settings import Backend, load_settings


def test_defaults_are_the_embedded_backend_in_a_local_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RAGSPINE_BACKEND", "RAGSPINE_DATA_DIR", "RAGSPINE_TODAY"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings()
    assert settings.backend is Backend.EMBEDDED
    assert settings.data_dir == Path(".ragspine")
    assert settings.facts_db_path == Path(".ragspine/facts.db")


def test_environment_variables_with_the_prefix_are_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RAGSPINE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("RAGSPINE_TODAY", "2025-03-01")
    settings = load_settings()
    assert settings.data_dir == tmp_path and settings.today == date(2025, 3, 1)


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("RAGSPINE_BACKEND", "cloud", "RAGSPINE_BACKEND"),
    ("RAGSPINE_PORT", "99999", "RAGSPINE_PORT"),
    ("RAGSPINE_MAX_QUESTION_CHARS", "abc", "RAGSPINE_MAX_QUESTION_CHARS"),
    ("RAGSPINE_TODAY", "yesterday", "RAGSPINE_TODAY"),
    ("RAGSPINE_PARSE_CACHE_SIZE", "-1", "RAGSPINE_PARSE_CACHE_SIZE"),
])
def test_invalid_values_name_the_variable(monkeypatch: pytest.MonkeyPatch, name: str, value: str,
                                          expected: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigurationError, match=expected):
        load_settings()


def test_aws_backend_requires_a_facts_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGSPINE_BACKEND", "aws")
    monkeypatch.delenv("RAGSPINE_FACTS_TABLE", raising=False)
    with pytest.raises(ConfigurationError, match="RAGSPINE_FACTS_TABLE is required"):
        load_settings()


def test_a_value_given_in_code_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGSPINE_MAX_QUESTION_CHARS", "500")
    monkeypatch.setenv("RAGSPINE_PORT", "9000")
    settings = load_settings(max_question_chars=700)
    assert (settings.max_question_chars, settings.port) == (700, 9000)


def test_variable_names_are_read_in_any_case_and_unknown_ones_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ragspine_max_question_chars", "321")
    monkeypatch.setenv("RAGSPINE_NO_SUCH_SETTING", "1")
    monkeypatch.setenv("OTHER_MAX_QUESTION_CHARS", "999")
    assert load_settings().max_question_chars == 321


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("0", False), ("Off", False), ("yes", True)])
def test_flags_read_as_written_in_the_environment(monkeypatch: pytest.MonkeyPatch, value: str,
                                                  expected: bool) -> None:
    monkeypatch.setenv("RAGSPINE_FAQ_ENABLED", value)
    assert load_settings().faq_enabled is expected
