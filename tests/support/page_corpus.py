"""The page function's stores on moto: sample files in the uploads bucket, recorded as the worker leaves them.

The ingest table, the feedback table and the bucket come from template.yaml's own definitions;
the environment names them as the stack does, so ``page_api.aws_stores`` builds the deployed stores.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from ragspine.api.page_api import aws_stores
from ragspine.aws.dynamo_operations import DynamoOperationStore
from ragspine.aws.s3_staging import S3StagingArea
from ragspine.ingestion.operations import ActiveVersion, Operation, OperationKey, OperationStatus, SpaceStamp
from ragspine.sensitivity import Sensitivity
from ragspine.settings import get_settings
from tests.support.cfn import dynamodb_create_table_kwargs

REGION = "us-east-1"
INGEST_TABLE, FEEDBACK_TABLE, BUCKET = "ragspine-ingest-page", "ragspine-feedback-page", "ragspine-uploads-page"


class Corpus:
    """Sample files uploaded to S3 and recorded as ingested versions, as the worker leaves them."""

    def __init__(self, aws: Any) -> None:
        self.s3 = boto3.client("s3", region_name=REGION)
        self.operations = DynamoOperationStore(INGEST_TABLE, client=aws)
        self.staging = S3StagingArea(self.operations.table, BUCKET, client=self.s3)

    def add(self, path: Path, *, sensitivity: Sensitivity = Sensitivity.INTERNAL, key: str | None = None,
            doc_id: str | None = None, space: SpaceStamp | None = None) -> str:
        """Upload ``path`` and record it as the active version of its document; return its hash."""
        data = path.read_bytes()
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        key = key or f"uploads/{path.name}"
        self.s3.put_object(Bucket=BUCKET, Key=key, Body=data)
        doc_id = doc_id or path.name
        draft = Operation(id=f"op-{digest[7:19]}", doc_id=doc_id, version_id=f"v-{digest[7:19]}",
                          file_hash=digest, source=f"s3://{BUCKET}/{key}", sensitivity=sensitivity, space=space)
        operation, _ = self.operations.create_or_get(OperationKey(doc_id, digest), draft)
        fields = {f: getattr(operation, f) for f in operation.__slots__}
        self.operations.save(Operation(**{**fields, "status": OperationStatus.SUCCEEDED, "pages_count": 1}))
        self.staging.activate(ActiveVersion(doc_id, operation.version_id, operation.id, "{}"))
        return digest


def deployed_corpus(aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Corpus]:
    """Create the page function's tables and bucket on moto and point the settings at them."""
    aws.create_table(**dynamodb_create_table_kwargs("IngestTable", INGEST_TABLE))
    aws.create_table(**dynamodb_create_table_kwargs("FeedbackTable", FEEDBACK_TABLE))
    boto3.client("s3", region_name=REGION).create_bucket(Bucket=BUCKET)
    for name, value in {"RAGSPINE_INGEST_TABLE": INGEST_TABLE, "RAGSPINE_STAGING_BUCKET": BUCKET,
                        "RAGSPINE_FEEDBACK_TABLE": FEEDBACK_TABLE, "RAGSPINE_AWS_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    aws_stores.cache_clear()
    yield Corpus(aws)
    aws_stores.cache_clear()
    get_settings.cache_clear()
