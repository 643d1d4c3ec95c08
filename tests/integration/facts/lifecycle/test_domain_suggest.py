"""`ragspine domain suggest`: the row labels the glossary does not name, and a fragment that, merged, makes them facts."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.domain.files import shipped_domains_dir
from ragspine.facts.model import FactKey
from ragspine.samples.build_acme import SAMPLES_DIR
from ragspine.settings import Settings
from tests.support.domain_env import reread_domain, serving_domain

runner = CliRunner()
REPORT = """# ACME Japan FY2024 Review

## ACME Japan key figures (USD millions)

| Metric | FY2023 | FY2024 |
|---|---|---|
| Revenue | 640 | 655 |
| Net turnover from stores | 590 | 601 |
| 営業利益※1 | 41 | 44 |
| 販売管理費※2 | 120 | 118 |

## Store list

| Store | City | Opened |
|---|---|---|
| Umeda | Osaka | 2024-04-01 |
"""
SEGMENTS = """# ACME segments FY2024

| Segment | Metric | FY2024 |
|---|---|---|
| Japan | Net turnover from stores | 601 |
| Japan | Revenue | 655 |
"""


@pytest.fixture
def domain(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "acme"
    shutil.copytree(shipped_domains_dir() / "acme", folder)
    profile = folder / "domain.yaml"  # the copy's samples are the shipped ones
    profile.write_text(profile.read_text(encoding="utf-8").replace(
        "samples: ../../samples/acme", f"samples: {SAMPLES_DIR}"), encoding="utf-8")
    yield from serving_domain(monkeypatch, folder)


def _ingest(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path)])
    assert result.exit_code == 0, result.output


def test_unnamed_labels_are_listed_with_counts_and_a_sample_locator(domain: Path, tmp_path: Path) -> None:
    _ingest(tmp_path, "JP_Review.md", REPORT)
    _ingest(tmp_path, "Segments.md", SEGMENTS)
    result = runner.invoke(app, ["domain", "suggest", str(domain)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "    2  Net turnover from stores  (2 document(s); e.g. JP_Review.md · table=1,row=3)"
    assert "    1  販売管理費  (1 document(s); e.g. JP_Review.md · table=1,row=5)" in lines  # footnote mark dropped
    listed = " ".join(lines)
    # Named by the glossary (metric, entity, 営業利益 once its ※1 is dropped); a row without a figure labels none.
    assert "Revenue" not in listed and "Japan " not in listed and "営業利益" not in listed
    assert "Umeda" not in listed
    assert "fragment written to " in lines[-1]
    fragment = yaml.safe_load((domain / "glossary.suggested.yaml").read_text(encoding="utf-8"))
    assert fragment["metrics"]["NET_TURNOVER_FROM_STORES"] == {
        "unit": "USD_M", "names": {"en": "Net turnover from stores"}, "aliases": ["Net turnover from stores"]}
    assert list(fragment["metrics"]["METRIC_2"]["names"].values()) == ["販売管理費"]  # kanji only: zh or ja


def test_the_merged_fragment_passes_check_and_reextraction_makes_the_facts(domain: Path, tmp_path: Path) -> None:
    _ingest(tmp_path, "JP_Review.md", REPORT)
    out = tmp_path / "fragment.yaml"
    assert runner.invoke(app, ["domain", "suggest", str(domain), "--out", str(out)]).exit_code == 0
    fragment = yaml.safe_load(out.read_text(encoding="utf-8"))["metrics"]
    kept = {"NET_TURNOVER_FROM_STORES": fragment["NET_TURNOVER_FROM_STORES"]}  # the user keeps the metric only
    glossary_path = domain / "glossary.yaml"
    glossary = yaml.safe_load(glossary_path.read_text(encoding="utf-8"))
    glossary["metrics"].update(kept)
    glossary["version"] = "glossary-2"
    glossary_path.write_text(yaml.safe_dump(glossary, allow_unicode=True, sort_keys=False), encoding="utf-8")
    reread_domain()
    checked = runner.invoke(app, ["domain", "check", str(domain)])
    assert checked.exit_code == 0, checked.output
    result = runner.invoke(app, ["facts", "reextract"])
    assert result.exit_code == 0, result.output
    assert "(2 added, " in result.output  # FY2023 and FY2024 of the newly named metric
    fact = get_services().facts.get(FactKey("NET_TURNOVER_FROM_STORES", "ACME_JP", "TOTAL", "FY", "2024"))
    assert fact is not None and fact.value == 601 and fact.mapping_version == "glossary-2"
    again = runner.invoke(app, ["domain", "suggest", str(domain), "--out", str(out)])
    assert "Net turnover from stores" not in again.output


KEY_FIGURES = """# ACME key figures FY2024

| (USD millions) | FY2023 | FY2024 |
|---|---|---|
| Revenue | 640 | 655 |
| ROE (%) | 9.3 | 10.3 |
| Profit attributable to the owners of the parent | 30 | 33 |
| Share of online orders (%) | 41.5 | 46.0 |
"""


def test_rows_already_read_are_not_proposed_and_near_aliases_become_aliases(domain: Path, tmp_path: Path) -> None:
    # GIVEN the domain with the finance pack, and a table whose rows are read as ROE, a near-alias and a new label
    profile = domain / "domain.yaml"
    profile.write_text(profile.read_text(encoding="utf-8") + "include: [finance]\n", encoding="utf-8")
    reread_domain()
    _ingest(tmp_path, "Key_Figures.md", KEY_FIGURES)
    result = runner.invoke(app, ["domain", "suggest", str(domain)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    listed = result.output
    # THEN "ROE (%)" (read as ROE) is not listed
    assert "ROE" not in listed
    assert "Profit attributable to the owners of the parent  (1 document(s)" in listed
    fragment = yaml.safe_load((domain / "glossary.suggested.yaml").read_text(encoding="utf-8"))["metrics"]
    # ... the near-alias is proposed as an alias of the pack's metric, not as a new code
    assert fragment["NET_INCOME_OWNERS"]["aliases"] == ["Profit attributable to the owners of the parent"]
    assert fragment["NET_INCOME_OWNERS"]["unit"] == "USD_M"
    assert not any(code.startswith(("PROFIT", "ROE")) for code in fragment)
    # ... and a new label's unit is the one its own words state
    assert fragment["SHARE_OF_ONLINE_ORDERS"]["unit"] == "PCT"
