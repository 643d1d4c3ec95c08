"""Open vocabulary through ``ragspine ingest`` and ``ragspine ask`` (and ``POST /v1/ask``), on both fact stores.

A domain folder fresh from ``ragspine domain init`` names none of these statements' line items
nor their companies: a 10-K style cash-flow table (``Purchases of property, plant and
equipment``) and two Japanese companies' ``項目 | 金額(百万円)`` tables, each with its company
and period in the sentence before it. Each row still becomes a fact under the document's own
label and company, a question naming the label and the company is answered from that company's
table with its cell, and never from the other company's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.settings import Settings, get_settings
from tests.conftest import REGION
from tests.support.ask import asker
from tests.support.cfn import dynamodb_create_table_kwargs
from tests.support.process_caches import close_services

runner = CliRunner()

KIRIN = """\
# 有価証券報告書

キリンホールディングス株式会社の2024年3月期の連結損益計算書の主要項目は次のとおりです。

| 項目 | 金額(百万円) |
| --- | --- |
| 売上収益 | 2,134,393 |
| 売上原価 | 1,196,003 |
| 営業利益 | 163,890 |
"""

ASAHI = """\
# 有価証券報告書

アサヒグループホールディングス株式会社の2024年3月期の連結損益計算書の主要項目は次のとおりです。

| 項目 | 金額(百万円) |
| --- | --- |
| 売上収益 | 2,769,082 |
| 売上原価 | 1,754,020 |
"""

CASH_FLOWS = """\
# Consolidated Statements of Cash Flows

(in millions)

| | 2019 | 2018 |
| --- | --- | --- |
| Net income | 4,582 | 5,363 |
| Purchases of property, plant and equipment | (1,699) | (1,577) |
| Proceeds from sale of PP&E | 123 | 262 |
"""


@pytest.fixture(params=["embedded", "aws"])
def backend(request: pytest.FixtureRequest, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The embedded default (SQLite facts) or the AWS adapters (DynamoDB facts, ingest table, staging bucket)."""
    if request.param == "aws":
        import boto3

        aws: Any = request.getfixturevalue("aws_settings") and request.getfixturevalue("aws")
        aws.create_table(**dynamodb_create_table_kwargs("IngestTable", "ragspine-ingest-open"))
        boto3.client("s3", region_name=REGION).create_bucket(Bucket="ragspine-staging-open")
        monkeypatch.setenv("RAGSPINE_INGEST_TABLE", "ragspine-ingest-open")
        monkeypatch.setenv("RAGSPINE_STAGING_BUCKET", "ragspine-staging-open")
    get_settings.cache_clear()
    close_services()
    yield request.param
    get_settings.cache_clear()
    close_services()


def _domain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, include: str = "") -> Path:
    folder = tmp_path / "fresh"
    assert runner.invoke(app, ["domain", "init", str(folder)]).exit_code == 0
    if include:
        domain = folder / "domain.yaml"
        domain.write_text(domain.read_text(encoding="utf-8") + f"\ninclude: [{include}]\n", encoding="utf-8")
    checked = runner.invoke(app, ["domain", "check", str(folder)])
    assert checked.exit_code == 0, checked.output
    monkeypatch.setenv("RAGSPINE_DOMAIN_DIR", str(folder))
    get_settings.cache_clear()
    close_services()
    return folder


def _ingest(tmp_path: Path) -> str:
    paths = []
    for name, text in (("kirin_2024.md", KIRIN), ("asahi_2024.md", ASAHI), ("cash_flows.md", CASH_FLOWS)):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    result = runner.invoke(app, ["ingest", *paths], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    close_services()
    return result.output


def _ask(question: str) -> str:
    result = runner.invoke(app, ["ask", question], env={"COLUMNS": "240"})
    return result.output


def test_a_row_label_the_glossary_does_not_name_is_answered_by_its_label(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _domain(tmp_path, monkeypatch)
    _ingest(tmp_path)

    answer = _ask("Purchases of property, plant and equipment in 2018")
    assert "-1577" in answer, answer
    assert "cash_flows.md · table=1,row=Purchases of property plant and equipment,col=2018" in answer
    assert "-1699" in _ask("What were purchases of property plant and equipment in 2019?")
    proceeds = _ask("What were the proceeds from sale of PP&E in 2018?")
    assert "262" in proceeds and "-1577" not in proceeds, proceeds


def test_a_company_named_in_the_text_is_answered_from_its_own_table_only(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _domain(tmp_path, monkeypatch)
    summary = _ingest(tmp_path)
    assert "company:キリンホールディングス" in summary.replace("\n", "").replace("│", "").replace(" ", "")

    kirin = _ask("キリンホールディングスの2024年3月期の売上原価は")
    assert "1196003" in kirin and "kirin_2024.md · table=1,row=売上原価" in kirin, kirin
    asahi = _ask("アサヒグループホールディングス株式会社の2024年3月期の売上原価は")
    assert "1754020" in asahi and "asahi_2024.md" in asahi and "1196003" not in asahi, asahi
    # Asahi's table has no operating income: not found, never Kirin's figure.
    missing = _ask("アサヒグループホールディングスの2024年3月期の営業利益は")
    assert "163890" not in missing and "kirin_2024.md" not in missing, missing
    # a company no document states stays unknown rather than borrowing another's figures
    other = _ask("トヨタ自動車の2024年3月期の売上原価は")
    assert "1196003" not in other and "1754020" not in other, other


def test_over_post_v1_ask_the_label_and_company_answer_with_their_cells(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _domain(tmp_path, monkeypatch)
    _ingest(tmp_path)
    ask = asker("/v1/ask", get_services())

    body = ask("2024年3月期のキリンホールディングスの売上原価は")
    assert "1196003" in body["answer"], body
    assert [(s["doc"], s["locator"]) for s in body["sources"]] == [
        ("kirin_2024.md", "table=1,row=売上原価,col=金額(百万円)")]
    body = ask("Purchases of property, plant and equipment in 2018")
    assert [(s["doc"], s["locator"]) for s in body["sources"]] == [
        ("cash_flows.md", "table=1,row=Purchases of property plant and equipment,col=2018")]


def test_a_statement_label_matching_a_finance_pack_item_maps_onto_that_item(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _domain(tmp_path, monkeypatch, include="finance")
    _ingest(tmp_path)

    answer = _ask("What was capex in 2018?")  # the pack's word for "purchases of property, plant and equipment"
    assert "-1577" in answer and "CAPEX" in answer, answer
    cost = _ask("キリンホールディングスの2024年3月期の売上原価は")
    assert "1196003" in cost and "COST_OF_SALES" in cost, cost


def test_a_running_service_learns_the_companies_and_labels_ingested_after_it_started(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from ragspine.api.app import create_local_app

    _domain(tmp_path, monkeypatch)
    client = TestClient(create_local_app())
    question = {"question": "キリンホールディングスの2024年3月期の売上原価は"}
    before = client.post("/v1/ask", json=question).json()
    assert "1196003" not in before["answer"]
    path = tmp_path / "kirin_2024.md"
    path.write_text(KIRIN, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path)], env={"COLUMNS": "240"})  # in this process, no restart
    assert result.exit_code == 0, result.output
    after = client.post("/v1/ask", json=question).json()
    assert "1196003" in after["answer"], after
    assert [(s["doc"], s["locator"]) for s in after["sources"]] == [
        ("kirin_2024.md", "table=1,row=売上原価,col=金額(百万円)")]
