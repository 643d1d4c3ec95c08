"""Both fact stores for the facts lifecycle tests: the embedded one and DynamoDB (moto) with its ingest table and bucket."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragspine.settings import get_settings
from tests.conftest import REGION
from tests.support.cfn import dynamodb_create_table_kwargs
from tests.support.process_caches import close_services


@pytest.fixture(params=["sqlite", "dynamodb"])
def backend(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The embedded store, or the DynamoDB facts table (moto) with the ingest table and staging bucket."""
    if request.param == "sqlite":
        request.getfixturevalue("settings")
        yield "sqlite"
        return
    request.getfixturevalue("aws_settings")
    aws: Any = request.getfixturevalue("aws")
    import boto3

    aws.create_table(**dynamodb_create_table_kwargs("IngestTable", "ragspine-ingest-lifecycle"))
    boto3.client("s3", region_name=REGION).create_bucket(Bucket="ragspine-staging-lifecycle")
    monkeypatch.setenv("RAGSPINE_INGEST_TABLE", "ragspine-ingest-lifecycle")
    monkeypatch.setenv("RAGSPINE_STAGING_BUCKET", "ragspine-staging-lifecycle")
    get_settings.cache_clear()
    close_services()
    yield "dynamodb"
    get_settings.cache_clear()
    close_services()
