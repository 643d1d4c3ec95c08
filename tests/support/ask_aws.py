"""The ask function's AWS side on loopback: moto with the template's fact table holding the ACME sample facts."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3

from ragspine.aws.dynamo_facts import DynamoFactStore
from tests.support.cfn import dynamodb_create_table_kwargs
from tests.support.moto_server import moto_server
from tests.support.samples import load_sample_facts


@contextmanager
def sample_fact_table(table: str, bucket: str) -> Iterator[str]:
    """moto's URL, serving ``table`` (the template's FactsTable) with the sample facts and an empty ``bucket``."""
    with moto_server() as url:
        options: dict[str, Any] = {"endpoint_url": url, "region_name": "us-east-1",
                                   "aws_access_key_id": "test", "aws_secret_access_key": "test"}
        client = boto3.client("dynamodb", **options)
        client.create_table(**dynamodb_create_table_kwargs("FactsTable", table))
        load_sample_facts(DynamoFactStore(table, client=client))
        boto3.client("s3", **options).create_bucket(Bucket=bucket)
        yield url
