"""``DynamoWorkflowStore``: stored workflows and hashed API keys in one DynamoDB table.

Layout: workflows are ``pk = "WORKFLOW"``, ``sk = <id>`` so one Query lists them in id order
(the n8n API's page size is at most 250, and workflow counts are small); each item carries
the whole record as JSON text (DynamoDB caps an item at 400 KB). ``active_path`` is written
only while a workflow is active, which makes the ``by_active_path`` index sparse: the webhook
lookup reads exactly the active workflows. Keys are ``pk = "KEY#<key id>"``, ``sk = "KEY"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ragspine.aws.dynamo_table import ConditionFailedError, DynamoTable
from ragspine.workflows.surfaces import (
    ApiKeyRecord,
    StoredWorkflow,
    WorkflowConflictError,
    WorkflowNotFoundError,
    WorkflowPage,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

ACTIVE_PATH_INDEX = "by_active_path"
WORKFLOW_PK = "WORKFLOW"


def _item(workflow: StoredWorkflow) -> dict[str, Any]:
    item = {"pk": {"S": WORKFLOW_PK}, "sk": {"S": workflow.id}, "version_id": {"S": workflow.version_id},
            "record": {"S": workflow.dumps()}}
    if workflow.active_path:
        item["active_path"] = {"S": workflow.active_path}
    return item


def _workflow(item: dict[str, Any]) -> StoredWorkflow:
    return StoredWorkflow.loads(item["record"]["S"])


class DynamoWorkflowStore:
    """Workflows and API keys in a DynamoDB table keyed ``pk``/``sk`` with a sparse active-path index."""

    def __init__(self, table_name: str, *, client: DynamoDBClient | None = None,
                 region: str | None = None, endpoint_url: str | None = None) -> None:
        self._table = table_name
        self._db = DynamoTable(table_name, label="workflow table", client=client, region=region,
                               endpoint_url=endpoint_url)

    @property
    def client(self) -> DynamoDBClient:
        """The boto3 client, created on first use so importing costs nothing."""
        return self._db.client

    def create(self, workflow: StoredWorkflow) -> None:
        """Insert a new workflow; an existing id is a conflict."""
        try:
            self._call("put_item", TableName=self._table, Item=_item(workflow),
                       ConditionExpression="attribute_not_exists(pk)")
        except ConditionFailedError as exc:
            raise WorkflowConflictError(f"a workflow with id {workflow.id} exists") from exc

    def replace(self, workflow: StoredWorkflow, *, expected_version: str) -> None:
        """Overwrite the workflow if its stored version is still ``expected_version``."""
        try:
            self._call("put_item", TableName=self._table, Item=_item(workflow),
                       ConditionExpression="attribute_exists(pk) AND version_id = :v",
                       ExpressionAttributeValues={":v": {"S": expected_version}})
        except ConditionFailedError as exc:
            if self.get(workflow.id) is None:
                raise WorkflowNotFoundError(f"no workflow has the id {workflow.id}") from exc
            raise WorkflowConflictError(f"workflow {workflow.id} changed since version {expected_version}") from exc

    def get(self, workflow_id: str) -> StoredWorkflow | None:
        """The workflow with this id (strongly consistent read), or None."""
        found = self._call("get_item", TableName=self._table, ConsistentRead=True,
                           Key={"pk": {"S": WORKFLOW_PK}, "sk": {"S": workflow_id}})
        return _workflow(found["Item"]) if "Item" in found else None

    def delete(self, workflow_id: str) -> StoredWorkflow | None:
        """Remove a workflow; return it, or None when it did not exist."""
        done = self._call("delete_item", TableName=self._table, ReturnValues="ALL_OLD",
                          Key={"pk": {"S": WORKFLOW_PK}, "sk": {"S": workflow_id}})
        return _workflow(done["Attributes"]) if done.get("Attributes") else None

    def page(self, *, limit: int, after: str | None = None) -> WorkflowPage:
        """Up to ``limit`` workflows by id after ``after`` (one more is read to know if more follow)."""
        kwargs: dict[str, Any] = {"TableName": self._table, "KeyConditionExpression": "pk = :pk",
                                  "ExpressionAttributeValues": {":pk": {"S": WORKFLOW_PK}}}
        if after:
            kwargs["ExclusiveStartKey"] = {"pk": {"S": WORKFLOW_PK}, "sk": {"S": after}}
        items: list[dict[str, Any]] = []
        while len(items) <= limit:
            # A page also ends at 1 MB, so keep reading until limit + 1 items or the end.
            response = self._call("query", Limit=limit + 1 - len(items), **kwargs)
            items.extend(response.get("Items", []))
            if "LastEvaluatedKey" not in response:
                break
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]
        found = tuple(_workflow(item) for item in items[:limit])
        return WorkflowPage(items=found, after=found[-1].id if len(items) > limit and found else None)

    def find_active(self, path: str) -> StoredWorkflow | None:
        """The active workflow listening on ``path`` (the first by id if several claim it)."""
        response = self._call("query", TableName=self._table, IndexName=ACTIVE_PATH_INDEX,
                              KeyConditionExpression="active_path = :p",
                              ExpressionAttributeValues={":p": {"S": path}})
        for workflow_id in sorted(item["sk"]["S"] for item in response.get("Items", [])):
            # The index is eventually consistent: confirm on the table before trusting it.
            workflow = self.get(workflow_id)
            if workflow is not None and workflow.active_path == path:
                return workflow
        return None

    def put_key(self, record: ApiKeyRecord) -> None:
        """Store a key record (insert or replace)."""
        self._call("put_item", TableName=self._table,
                   Item={"pk": {"S": f"KEY#{record.key_id}"}, "sk": {"S": "KEY"}, "record": {"S": record.dumps()}})

    def get_key(self, key_id: str) -> ApiKeyRecord | None:
        """The key record with this id, or None."""
        found = self._call("get_item", TableName=self._table, ConsistentRead=True,
                           Key={"pk": {"S": f"KEY#{key_id}"}, "sk": {"S": "KEY"}})
        return ApiKeyRecord.loads(found["Item"]["record"]["S"]) if "Item" in found else None

    def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        return self._db.call(operation, **kwargs)
