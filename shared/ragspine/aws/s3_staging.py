"""``S3StagingArea``: step outputs in S3, active versions in the DynamoDB ingest table.

A worker Lambda runs one step per invocation, so what a step produced must outlive it: the
outputs go to ``s3://<bucket>/<staging prefix><operation id>/<name>`` (no size limit; the
template expires the prefix after a week, so a failed run's leftovers go away on their own).
The active version of each document is an item ``pk = "ACTIVE"``, ``sk = <doc id>``; its facts
extraction is stored inline, compressed, when it fits in an item, else under the active prefix
in S3 (activation merges every active document's extraction, so the common case is one Query).
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from ragspine.aws.boto3_client import LazyClient
from ragspine.errors import ProviderUnavailableError
from ragspine.ingestion.operations import ActiveVersion

if TYPE_CHECKING:
    from ragspine.aws.dynamo_table import DynamoTable

ACTIVE_PK = "ACTIVE"
INLINE_LIMIT = 300 * 1024  # DynamoDB caps an item at 400 KB; leave room for the other attributes


class S3StagingArea:
    """The AWS ``StagingArea``: the same contract as the SQLite one, shared by every worker invocation."""

    def __init__(self, table: DynamoTable, bucket: str, *, staging_prefix: str = "staging/",
                 active_prefix: str = "active/", client: Any | None = None, region: str | None = None) -> None:
        self._table = table
        self._bucket = bucket
        self._staging = staging_prefix
        self._active = active_prefix
        self._client: LazyClient[Any] = LazyClient("s3", client=client, region=region)

    @property
    def s3(self) -> Any:
        """The boto3 S3 client, created on first use."""
        return self._client.get()

    def put(self, operation_id: str, name: str, data: bytes) -> None:
        """Store (or replace) one named output of an operation."""
        self._s3("put_object", Bucket=self._bucket, Key=self._staged_key(operation_id, name), Body=data)

    def get(self, operation_id: str, name: str) -> bytes | None:
        """One named output of an operation, or None when that step has not run."""
        return self._read(self._staged_key(operation_id, name))

    def clear(self, operation_id: str) -> None:
        """Drop every staged output of an operation."""
        prefix = f"{self._staging}{operation_id}/"
        pages = self.s3.get_paginator("list_objects_v2").paginate(Bucket=self._bucket, Prefix=prefix)
        try:
            keys = [{"Key": obj["Key"]} for page in pages for obj in page.get("Contents", [])]
        except (BotoCoreError, ClientError) as exc:
            raise _unavailable("list_objects_v2", exc) from exc
        for start in range(0, len(keys), 1000):  # DeleteObjects takes at most 1,000 keys
            self._s3("delete_objects", Bucket=self._bucket, Delete={"Objects": keys[start:start + 1000],
                                                                    "Quiet": True})

    def active(self, doc_id: str | None = None) -> list[ActiveVersion]:
        """The active version of one document (zero or one), or of every document sorted by id."""
        if doc_id is not None:
            found = self._table.call("get_item", TableName=self._table.name, ConsistentRead=True,
                                     Key={"pk": {"S": ACTIVE_PK}, "sk": {"S": doc_id}}).get("Item")
            return [self._version(found)] if found else []
        items = self._table.paginate("query", TableName=self._table.name, ConsistentRead=True,
                                     KeyConditionExpression="pk = :p",
                                     ExpressionAttributeValues={":p": {"S": ACTIVE_PK}})
        return [self._version(item) for item in items]  # a Query returns items in sort-key (doc id) order

    def activate(self, version: ActiveVersion) -> None:
        """Make ``version`` the active version of its document."""
        item: dict[str, Any] = {"pk": {"S": ACTIVE_PK}, "sk": {"S": version.doc_id},
                                "version_id": {"S": version.version_id},
                                "operation_id": {"S": version.operation_id}}
        packed = zlib.compress(version.extraction.encode("utf-8"))
        if len(packed) <= INLINE_LIMIT:
            item["extraction"] = {"B": packed}
        else:
            key = f"{self._active}{version.operation_id}/extraction.json.z"
            self._s3("put_object", Bucket=self._bucket, Key=key, Body=packed)
            item["extraction_key"] = {"S": key}
        self._table.call("put_item", TableName=self._table.name, Item=item)

    def _version(self, item: dict[str, Any]) -> ActiveVersion:
        if "extraction" in item:
            packed = bytes(item["extraction"]["B"])
        else:
            stored = self._read(item["extraction_key"]["S"])
            if stored is None:
                raise ProviderUnavailableError(f"the active extraction of {item['sk']['S']} is missing from S3")
            packed = stored
        return ActiveVersion(item["sk"]["S"], item["version_id"]["S"], item["operation_id"]["S"],
                             zlib.decompress(packed).decode("utf-8"))

    def _staged_key(self, operation_id: str, name: str) -> str:
        return f"{self._staging}{operation_id}/{name}"

    def _read(self, key: str) -> bytes | None:
        try:
            return bytes(self.s3.get_object(Bucket=self._bucket, Key=key)["Body"].read())
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
                return None
            raise _unavailable("get_object", exc) from exc
        except BotoCoreError as exc:
            raise _unavailable("get_object", exc) from exc

    def _s3(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        try:
            return getattr(self.s3, operation)(**kwargs)  # type: ignore[no-any-return]
        except (BotoCoreError, ClientError) as exc:  # transient for the step: the ASL retries it
            raise _unavailable(operation, exc) from exc


def _unavailable(operation: str, exc: Exception) -> ProviderUnavailableError:
    code = getattr(exc, "response", {}).get("Error", {}).get("Code", type(exc).__name__)
    return ProviderUnavailableError(f"S3 {operation} on the staging bucket failed ({code})")
