"""``load-samples`` with ``RAGSPINE_BACKEND=aws`` (moto): the sample facts reach the facts table by ingestion."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from ragspine.bootstrap import get_services
from ragspine.cli import app
from ragspine.samples.build_acme import SAMPLES_DIR
from ragspine.settings import Settings, get_settings
from tests.conftest import REGION
from tests.support.cfn import dynamodb_create_table_kwargs
from tests.support.process_caches import close_services
from tests.support.samples import read_facts_csv

runner = CliRunner()
INGEST_TABLE = "ragspine-ingest-samples"
BUCKET = "ragspine-staging-samples"


@pytest.fixture
def ingest_on_aws(aws_settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    """The facts table plus the ingest table and staging bucket that ingestion on AWS records operations in."""
    import boto3

    aws.create_table(**dynamodb_create_table_kwargs("IngestTable", INGEST_TABLE))
    boto3.client("s3", region_name=REGION).create_bucket(Bucket=BUCKET)
    monkeypatch.setenv("RAGSPINE_INGEST_TABLE", INGEST_TABLE)
    monkeypatch.setenv("RAGSPINE_STAGING_BUCKET", BUCKET)
    get_settings.cache_clear()
    close_services()
    yield get_settings()
    get_settings.cache_clear()
    close_services()


def test_load_samples_fills_the_facts_table_with_the_curated_facts(ingest_on_aws: Settings) -> None:
    result = runner.invoke(app, ["load-samples"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    # no OpenSearch endpoint: facts only, and the summary says so
    assert "8 of 8 documents ingested (8 now, 0 unchanged): 114 facts, no chunk index configured" in result.output
    facts = get_services().facts
    curated = read_facts_csv(SAMPLES_DIR / "facts.csv")
    assert facts.count() == 114
    assert [(f.value, f.source_locator) for f in (facts.get(c.key) for c in curated) if f] == [
        (c.value, c.source_locator) for c in curated]
    again = runner.invoke(app, ["load-samples"], env={"COLUMNS": "200"})
    assert again.exit_code == 0 and "(0 now, 8 unchanged)" in again.output, again.output
