"""docs/configuration.md is generated from the Settings model and must say what the model says."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field
from tools import settings_doc

from ragspine.settings import Settings


def test_the_page_matches_the_settings_model() -> None:
    """Fails after a setting is added, removed or changed until the page is written again."""
    written = settings_doc.PAGE.read_text(encoding="utf-8")
    assert written == settings_doc.render(), (
        f"docs/configuration.md differs from shared/ragspine/settings.py; run `{settings_doc.REGENERATE}` "
        "from the repository root and commit the page")


def test_every_setting_is_on_the_page_with_its_description() -> None:
    page = settings_doc.render()
    descriptions = settings_doc.setting_descriptions()
    assert set(descriptions) == set(Settings.model_fields)
    for name, description in descriptions.items():
        assert description, f"RAGSPINE_{name.upper()} has no description: add a docstring under the field"
        row = next(line for line in page.splitlines() if line.startswith(f"| `RAGSPINE_{name.upper()}` |"))
        assert " ".join(description.split()).replace("|", "\\|") in row


class _Sample(BaseModel):
    choice: Literal["a", "b"] = "a"
    size: int = Field(default=64 * 1024 * 1024, ge=1024, le=1024 * 1024 * 1024)
    ratio: float | None = Field(default=None, gt=0, lt=1)
    name: str = Field(default="", pattern=r"^x$")
    flag: bool = True


@pytest.mark.parametrize(("field", "kind", "bounds", "default"), [
    ("choice", "one of `a`, `b`", "", "`a`"),
    ("size", "integer", "1,024 to 1024 MiB", "`67108864` (64 MiB)"),
    ("ratio", "number, optional", "> 0; < 1", "unset"),
    ("name", "text", "matches `^x$`", "empty"),
    ("flag", "boolean", "", "`true`"),
])
def test_types_bounds_and_defaults_read_as_written_in_the_environment(
        field: str, kind: str, bounds: str, default: str) -> None:
    info = _Sample.model_fields[field]
    assert settings_doc.type_text(info.annotation) == kind
    assert settings_doc.bounds_text(info) == bounds
    assert settings_doc.default_text(info) == default


def test_check_mode_reports_drift_with_the_command_to_fix_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    stale = tmp_path / "configuration.md"
    stale.write_text("# Configuration\n", encoding="utf-8")
    monkeypatch.setattr(settings_doc, "PAGE", stale)
    assert settings_doc.main(["--check"]) == 1
    assert settings_doc.REGENERATE in capsys.readouterr().err
    assert settings_doc.main([]) == 0
    assert settings_doc.main(["--check"]) == 0


def test_a_setting_is_listed_under_the_section_of_its_prefix() -> None:
    assert settings_doc.section_of("knowledge_ingest_workers") == "Ingestion"
    assert settings_doc.section_of("knowledge_table") == "Knowledge Gateway"
    assert settings_doc.section_of("port") == "Service"
