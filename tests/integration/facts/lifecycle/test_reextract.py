"""`ragspine facts reextract`: facts derived again from each version's stored tables, without the original file."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.domain.files import shipped_domains_dir
from ragspine.facts.model import FactKey
from ragspine.ingestion.facts_extract import EXTRACTOR_VERSION
from ragspine.qa.answer import answer_question
from ragspine.settings import get_settings
from tests.support.domain_env import reread_domain, serving_domain

runner = CliRunner()
REPORT = """# ACME Japan FY2024 Review

Japan's stores carried the year.

## ACME Japan key figures (USD millions)

| Metric | FY2024 |
|---|---|
| Revenue | 655 |
| Net turnover from stores | 601 |
"""
JP_REVENUE = FactKey("REVENUE", "ACME_JP", "TOTAL", "FY", "2024")
JP_GROSS_PROFIT = FactKey("GROSS_PROFIT", "ACME_JP", "TOTAL", "FY", "2024")


@pytest.fixture
def domain(backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the ACME domain folder the service points at (its glossary is edited by the tests)."""
    folder = tmp_path / "acme"
    shutil.copytree(shipped_domains_dir() / "acme", folder)
    yield from serving_domain(monkeypatch, folder)


def _ingest(tmp_path: Path) -> None:
    path = tmp_path / "JP_Review.md"
    path.write_text(REPORT, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path)])
    assert result.exit_code == 0, result.output
    path.unlink()  # re-extraction never reads the original file


def _edit_glossary(domain: Path, old: str, new: str) -> None:
    glossary = domain / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    assert old in text
    glossary.write_text(text.replace(old, new, 1).replace("version: glossary-1", "version: glossary-2", 1),
                        encoding="utf-8")
    reread_domain()


def test_a_glossary_change_reaches_the_facts_without_reingesting(domain: Path, tmp_path: Path) -> None:
    _ingest(tmp_path)
    services = get_services()
    assert services.facts.get(JP_GROSS_PROFIT) is None
    chunks_before = services.retrieval.index.count() if services.retrieval is not None else None
    # WHEN the glossary learns that "net turnover from stores" is gross profit (a mapping change): the
    # row's fact under its own label gives way to the glossary's metric
    _edit_glossary(domain, "aliases: [GROSS_PROFIT, 毛利,", "aliases: [GROSS_PROFIT, net turnover from stores, 毛利,")
    dry = runner.invoke(app, ["facts", "reextract", "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "JP_Review.md: 2 facts (1 added, 1 removed, 0 changed)" in dry.output
    assert "(dry run: nothing written)" in dry.output
    assert get_services().facts.get(JP_GROSS_PROFIT) is None
    result = runner.invoke(app, ["facts", "reextract"])
    assert result.exit_code == 0, result.output
    assert "JP_Review.md: 2 facts (1 added, 1 removed, 0 changed)" in result.output
    assert f"1 document(s) re-extracted with extractor {EXTRACTOR_VERSION} and glossary glossary-2: 1 added" in result.output
    facts = get_services().facts
    fact = facts.get(JP_GROSS_PROFIT)
    assert fact is not None and fact.value == 601 and fact.source_doc_id == "JP_Review.md"
    assert (fact.mapping_version, fact.extractor_version) == ("glossary-2", EXTRACTOR_VERSION)
    assert fact.source_file_hash and fact.source_file_hash.startswith("sha256:")
    revenue = facts.get(JP_REVENUE)
    assert revenue is not None and revenue.mapping_version == "glossary-2"  # restamped, not a change
    services = get_services()
    if services.retrieval is not None:  # the embedded index (AWS has no OpenSearch here): nothing re-indexed
        assert services.retrieval.index.count() == chunks_before
    answer = answer_question("What was Japan's gross profit in FY2024?", qa=services.qa)
    assert "601 USD_M（来源：JP_Review.md · " in answer.answer
    again = runner.invoke(app, ["facts", "reextract", "--json"])
    assert again.exit_code == 0, again.output
    body = json.loads(again.output)
    assert [(d["doc_id"], d["added"], d["removed"], d["changed"]) for d in body["documents"]] == [
        ("JP_Review.md", 0, 0, 0)]


def test_a_row_the_glossary_no_longer_names_returns_to_its_own_label(domain: Path, tmp_path: Path) -> None:
    _edit_glossary(domain, "aliases: [GROSS_PROFIT, 毛利,", "aliases: [GROSS_PROFIT, net turnover from stores, 毛利,")
    _ingest(tmp_path)
    assert get_services().facts.get(JP_GROSS_PROFIT) is not None
    _edit_glossary(domain, "aliases: [GROSS_PROFIT, net turnover from stores, 毛利,", "aliases: [GROSS_PROFIT, 毛利,")
    result = runner.invoke(app, ["facts", "reextract"])
    assert result.exit_code == 0, result.output
    assert "JP_Review.md: 2 facts (1 added, 1 removed, 0 changed)" in result.output
    assert get_services().facts.get(JP_GROSS_PROFIT) is None
    own = get_services().facts.get(JP_GROSS_PROFIT._replace(metric_code="label:net turnover from stores"))
    assert own is not None and own.value == 601


def test_a_version_ingested_without_its_tables_stored_is_named(domain: Path, tmp_path: Path) -> None:
    _ingest(tmp_path)
    settings = get_settings()
    # As a data folder (or bucket) written before the tables were kept:
    for document in (settings.data_dir / "texts").glob("*/document.json"):
        document.unlink()
    if settings.staging_bucket:
        import boto3

        s3 = boto3.client("s3", region_name=settings.aws_region)
        for item in s3.list_objects_v2(Bucket=settings.staging_bucket, Prefix="texts/").get("Contents", []):
            if item["Key"].endswith("/document.json"):
                s3.delete_object(Bucket=settings.staging_bucket, Key=item["Key"])
    result = runner.invoke(app, ["facts", "reextract"])
    assert result.exit_code == 1
    assert "JP_Review.md: its tables were not stored" in result.output and "ingest it once more" in result.output
    assert get_services().facts.get(JP_REVENUE) is not None  # left as they were
