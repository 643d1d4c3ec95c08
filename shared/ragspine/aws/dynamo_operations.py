"""``DynamoOperationStore``: ingestion operations in the DynamoDB ingest table, shared by trigger and worker.

Layout (one table, ``pk``/``sk``):

- an operation is ``pk = "OP#<id>"``, ``sk = "OP"``, its record as JSON in ``body``, plus
  ``doc_id`` and ``created_key`` (``<created_at>#<id>``) for the ``by_doc`` index;
- its idempotency key is ``pk = "KEY#<sha256 of (document, version)>"``, ``sk = "KEY"``,
  written in the same transaction as the operation, both only if absent, so two replays of
  one S3 event racing each other create exactly one operation.

Active versions live in the same table (``pk = "ACTIVE"``), written by ``S3StagingArea``.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from ragspine.aws.dynamo_table import ConditionFailedError, DynamoTable
from ragspine.errors import NotFoundError
from ragspine.ingestion.operation_codec import dump_operation, load_operation, with_times
from ragspine.ingestion.operations import Operation, OperationKey, OperationStatus, utcnow

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

DOC_INDEX = "by_doc"
_OP_SK = "OP"
_KEY_SK = "KEY"


def _op_pk(operation_id: str) -> str:
    return f"OP#{operation_id}"


def _key_pk(key: OperationKey) -> str:
    # Hashed: DynamoDB caps a partition key at 2 KB, and S3 keys alone may be 1 KB.
    return "KEY#" + hashlib.sha256(key.text().encode("utf-8")).hexdigest()


def _item(operation: Operation) -> dict[str, Any]:
    created = operation.created_at.isoformat() if operation.created_at else ""
    return {"pk": {"S": _op_pk(operation.id)}, "sk": {"S": _OP_SK}, "doc_id": {"S": operation.doc_id},
            "created_key": {"S": f"{created}#{operation.id}"}, "status": {"S": operation.status.value},
            "body": {"S": dump_operation(operation)}}


class DynamoOperationStore:
    """The AWS ``OperationStore``: every Lambda of the pipeline reads and writes the same records."""

    def __init__(self, table_name: str, *, client: DynamoDBClient | None = None,
                 region: str | None = None, endpoint_url: str | None = None) -> None:
        self.table = DynamoTable(table_name, label="ingest table", client=client, region=region,
                                 endpoint_url=endpoint_url)

    def create_or_get(self, key: OperationKey, draft: Operation) -> tuple[Operation, bool]:
        """Record ``draft`` unless ``key`` is taken; the key and the operation are written atomically."""
        now = utcnow()
        fresh = with_times(draft, created=draft.created_at or now, updated=now)
        absent = "attribute_not_exists(pk)"
        try:
            self.table.call("transact_write_items", TransactItems=[
                {"Put": {"TableName": self.table.name, "ConditionExpression": absent,
                         "Item": {"pk": {"S": _key_pk(key)}, "sk": {"S": _KEY_SK},
                                  "operation_id": {"S": fresh.id}}}},
                {"Put": {"TableName": self.table.name, "ConditionExpression": absent, "Item": _item(fresh)}},
            ])
        except ConditionFailedError:
            existing = self._by_key(key)
            if existing is None:
                raise NotFoundError(f"ingestion key for {key.doc_id} names a missing operation") from None
            return existing, False
        return fresh, True

    def _by_key(self, key: OperationKey) -> Operation | None:
        found = self.table.call("get_item", TableName=self.table.name, ConsistentRead=True,
                                Key={"pk": {"S": _key_pk(key)}, "sk": {"S": _KEY_SK}}).get("Item")
        return self.get(found["operation_id"]["S"]) if found else None

    def get(self, operation_id: str) -> Operation | None:
        """The operation with this id, or None (a strongly consistent read: the previous step just wrote it)."""
        found = self.table.call("get_item", TableName=self.table.name, ConsistentRead=True,
                                Key={"pk": {"S": _op_pk(operation_id)}, "sk": {"S": _OP_SK}}).get("Item")
        return load_operation(found["body"]["S"]) if found else None

    def save(self, operation: Operation) -> Operation:
        """Replace the stored record, stamping ``updated_at``.

        Raises:
            NotFoundError: no operation has this id (a save never creates one).
        """
        saved = with_times(operation, created=operation.created_at or utcnow(), updated=utcnow())
        condition, values = "attribute_exists(pk)", {}
        if saved.status is not OperationStatus.CANCELLED:
            # A cancel wins over a runner's concurrent read-modify-write (records before the attribute lack it).
            condition += " AND (attribute_not_exists(#status) OR #status <> :cancelled)"
            values = {"ExpressionAttributeNames": {"#status": "status"},
                      "ExpressionAttributeValues": {":cancelled": {"S": OperationStatus.CANCELLED.value}}}
        try:
            self.table.call("put_item", TableName=self.table.name, Item=_item(saved), ConditionExpression=condition,
                            **values)
        except ConditionFailedError:
            stored = self.get(operation.id)
            if stored is None:
                raise NotFoundError(f"no ingestion operation {operation.id}") from None
            return stored  # cancelled meanwhile: the cancel stands
        return saved

    def list_operations(self, *, doc_id: str | None = None) -> list[Operation]:
        """Operations oldest first; one document's through the ``by_doc`` index (eventually consistent), else a scan."""
        if doc_id is not None:
            items = self.table.paginate("query", TableName=self.table.name, IndexName=DOC_INDEX,
                                        KeyConditionExpression="doc_id = :d",
                                        ExpressionAttributeValues={":d": {"S": doc_id}})
        else:
            items = self.table.paginate("scan", TableName=self.table.name, FilterExpression="sk = :op",
                                        ExpressionAttributeValues={":op": {"S": _OP_SK}})
        found = [load_operation(item["body"]["S"]) for item in items]
        return sorted(found, key=lambda op: (op.created_at.isoformat() if op.created_at else "", op.id))
