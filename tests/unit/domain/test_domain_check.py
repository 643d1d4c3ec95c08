"""``check_domain``: a folder the service can run on passes; every problem names its file, line and field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.authoring.check import check_domain
from ragspine.domain.files import read_file, shipped_domains_dir
from ragspine.domain.marks import Problem
from ragspine.domain.starter import init_domain
from ragspine.errors import ConfigurationError, ConflictError


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A fresh starting folder (``ragspine domain init``)."""
    init_domain(tmp_path / "domain")
    return tmp_path / "domain"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line(path: Path, fragment: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if fragment in line)


@pytest.mark.parametrize("name", ["acme", "vela"])
def test_the_shipped_domains_pass(name: str) -> None:
    assert check_domain(shipped_domains_dir() / name) == []


def test_the_starting_folder_passes(folder: Path) -> None:
    assert check_domain(folder) == []
    assert sorted(p.name for p in folder.iterdir()) == [
        "domain.yaml", "faq.yaml", "glossary.yaml", "intent.yaml", "libraries.yaml", "screening.yaml"]


def test_init_does_not_overwrite_a_domain(folder: Path) -> None:
    with pytest.raises(ConflictError, match="already holds domain.yaml"):
        init_domain(folder)
    assert init_domain(folder, force=True)


def test_a_misspelt_field_names_file_line_and_field(folder: Path) -> None:
    glossary = folder / "glossary.yaml"
    _edit(glossary, "    parent: EXAMPLE_GROUP\n    level: region\n    names: {en: North",
          "    parnet: EXAMPLE_GROUP\n    level: region\n    names: {en: North")
    assert check_domain(folder) == [Problem("glossary.yaml", _line(glossary, "parnet"),
                                            "entities.EXAMPLE_NORTH.parnet",
                                            "unknown field (misspelt, or not a field of this file)")]


def test_a_bad_value_points_at_its_line(folder: Path) -> None:
    glossary = folder / "glossary.yaml"
    _edit(glossary, "fiscal_year: {end_month: 12", "fiscal_year: {end_month: 13")
    (problem,) = check_domain(folder)
    assert (problem.file, problem.line, problem.field) == ("glossary.yaml", _line(glossary, "end_month: 13"),
                                                          "fiscal_year.end_month")
    assert "less than or equal to 12" in problem.message


def test_cross_references_inside_the_glossary(folder: Path) -> None:
    glossary = folder / "glossary.yaml"
    _edit(glossary, "home_entity: EXAMPLE_GROUP", "home_entity: EXAMPLE_HQ")
    _edit(glossary, "    parent: EXAMPLE_GROUP\n    level: region\n    names: {en: South",
          "    parent: EXAMPLE_WEST\n    level: region\n    names: {en: South")
    _edit(glossary, "    unit: EUR_M\n    additive: true", "    unit: USD_M\n    additive: true")
    problems = {(p.field, p.line): p.message for p in check_domain(folder)}
    assert problems == {
        ("home_entity", _line(glossary, "home_entity:")): "EXAMPLE_HQ is not one of the entities",
        ("entities.EXAMPLE_SOUTH.parent", _line(glossary, "EXAMPLE_WEST")): "EXAMPLE_WEST is not one of the entities",
        ("metrics.REVENUE.unit", _line(glossary, "unit: USD_M")): "USD_M is not one of the units",
    }


def test_a_cycle_in_the_hierarchy(folder: Path) -> None:
    glossary = folder / "glossary.yaml"
    _edit(glossary, "  EXAMPLE_GROUP:\n    level: group", "  EXAMPLE_GROUP:\n    parent: EXAMPLE_NORTH\n    level: group")
    problems = {(p.field, p.message) for p in check_domain(folder)}
    assert ("entities.EXAMPLE_GROUP.parent", "the home entity is the top of the hierarchy") in problems
    assert ("entities.EXAMPLE_NORTH.parent", "the parents of this entity form a cycle") in problems


def test_text_that_is_not_yaml_names_its_line(folder: Path) -> None:
    intent = folder / "intent.yaml"
    intent.write_text("version: x\ncausal: [why\nquantity: [how much]\n", encoding="utf-8")
    (problem,) = check_domain(folder)
    assert problem.file == "intent.yaml" and problem.line is not None and problem.message.startswith("not valid YAML")


def test_a_missing_file(folder: Path) -> None:
    (folder / "intent.yaml").unlink()
    problems = check_domain(folder)
    assert Problem("intent.yaml", None, "", f"missing: create {folder / 'intent.yaml'}") in problems


def test_a_library_without_its_keywords_list(folder: Path) -> None:
    libraries = folder / "libraries.yaml"
    libraries.write_text(libraries.read_text(encoding="utf-8") + "  archive: {keywords: archive}\n", encoding="utf-8")
    problems = check_domain(folder)
    assert [p.field for p in problems if p.file == "libraries.yaml"] == ["libraries.archive.keywords"]


def test_an_invalid_period_regex(folder: Path) -> None:
    glossary = folder / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8")
                        + "periods:\n  patterns:\n    - {type: FY, regex: 'fy(?P<year>\\d{4}'}\n", encoding="utf-8")
    (problem,) = check_domain(folder)
    assert problem.field == "periods.patterns[0].regex" and "not a valid regular expression" in problem.message
    assert problem.line == _line(glossary, "type: FY")


def test_a_competitor_that_is_also_an_entity(folder: Path) -> None:
    screening = folder / "screening.yaml"
    _edit(screening, "competitors: [Rival Corp, 竞争公司]", "competitors: [Rival Corp, North]")
    assert check_domain(folder) == [Problem("screening.yaml", _line(screening, "competitors:"), "competitors[1]",
                                            "'North' is also an alias of the entity EXAMPLE_NORTH: questions about "
                                            "it would be refused")]


def test_an_faq_entry_without_a_source(folder: Path) -> None:
    faq = folder / "faq.yaml"
    _edit(faq, "    source: {doc: Example_Annual_Report.docx, locator: 'heading=Basis of preparation,para=1'}\n", "")
    assert check_domain(folder) == [Problem("faq.yaml", _line(faq, "- id: reporting_currency"), "entries[0].source",
                                            "required field is missing")]


def test_loading_an_invalid_file_is_a_configuration_error_naming_the_line(folder: Path) -> None:
    glossary = folder / "glossary.yaml"
    _edit(glossary, "default_channel: TOTAL", "default_channel: total")
    with pytest.raises(ConfigurationError, match=r"glossary.yaml:\d+: default_channel: String should match"):
        read_file(glossary)


_STARTER = (Path(__file__).resolve().parents[3] / "shared" / "ragspine" / "domain" / "templates" / "glossary.yaml")
_KEY_LINES = [n for n, line in enumerate(_STARTER.read_text(encoding="utf-8").splitlines())
              if re.match(r"^ {4}[a-z_]+:", line)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(_KEY_LINES), st.sampled_from(["x", "_typo", "s"]))
def test_any_misspelt_key_is_reported_at_its_own_line(tmp_path: Path, index: int, suffix: str) -> None:
    lines = _STARTER.read_text(encoding="utf-8").splitlines()
    key = lines[index].split(":", 1)[0].strip()
    lines[index] = lines[index].replace(f"{key}:", f"{key}{suffix}:", 1)
    folder = tmp_path / f"d{index}{suffix}"
    init_domain(folder, force=True)  # hypothesis may replay an example into the same folder
    (folder / "glossary.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    problems = check_domain(folder)
    assert any(p.file == "glossary.yaml" and p.line == index + 1 and p.field.endswith(f"{key}{suffix}")
               for p in problems), problems
