"""``DynamoRunStore``: recorded workflow runs in the workflows table, beside workflows and keys.

Layout: a run is ``pk = "RUN#<owner>"``, ``sk = <seq, 16 digits>``, so one Query lists an
owner's runs newest first; ``seq`` comes from one atomic counter item (``pk = sk = "RUNSEQ"``),
so numbers are global, ascending and never reused. Pointers ``RUNID#<id>`` and
``RUNTASK#<task id>`` (``sk = "RUN"``) find a run by its Dify ids. Retention prunes the
starting run's owner partition: runs numbered ``max_runs`` or more below it, then runs older
than ``max_age_days``, at most ``PRUNE_BATCH`` per start (other owners are pruned when they run).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ragspine.aws.dynamo_table import ConditionFailedError, DynamoTable
from ragspine.workflows.surfaces import RecordedStatus, RunPage, RunRecord, RunRetention, iso_utc

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

PRUNE_BATCH = 25
_COUNTER = {"pk": {"S": "RUNSEQ"}, "sk": {"S": "RUNSEQ"}}


def _sk(seq: int) -> str:
    return f"{seq:016d}"


def _key(owner: str, seq: int) -> dict[str, Any]:
    return {"pk": {"S": f"RUN#{owner}"}, "sk": {"S": _sk(seq)}}


def _pointer(kind: str, value: str) -> dict[str, Any]:
    return {"pk": {"S": f"{kind}#{value}"}, "sk": {"S": "RUN"}}


def _item(run: RunRecord) -> dict[str, Any]:
    return {**_key(run.owner, run.seq), "id": {"S": run.id}, "task_id": {"S": run.task_id},
            "workflow_id": {"S": run.workflow_id}, "status": {"S": run.status.value},
            "created_at": {"S": iso_utc(run.created_at)}, "record": {"S": run.dumps()}}


def _run(item: dict[str, Any]) -> RunRecord:
    return RunRecord.loads(item["record"]["S"], seq=int(item["sk"]["S"]))


class DynamoRunStore:
    """Runs in the workflows table (``pk``/``sk``), scoped by owner partition."""

    def __init__(self, table_name: str, *, retention: RunRetention | None = None,
                 client: DynamoDBClient | None = None, region: str | None = None,
                 endpoint_url: str | None = None) -> None:
        self._table = table_name
        self.retention = retention or RunRetention()
        self._db = DynamoTable(table_name, label="workflow table", client=client, region=region,
                               endpoint_url=endpoint_url)

    def start(self, run: RunRecord) -> RunRecord:
        """Number the run, store it with its pointers, then prune its owner's partition."""
        counted = self._call("update_item", TableName=self._table, Key=_COUNTER, UpdateExpression="ADD n :one",
                             ExpressionAttributeValues={":one": {"N": "1"}}, ReturnValues="UPDATED_NEW")
        numbered = RunRecord.loads(run.dumps(), seq=int(counted["Attributes"]["n"]["N"]))
        where = {"owner": {"S": numbered.owner}, "seq": {"N": str(numbered.seq)}}
        puts = [{"Put": {"TableName": self._table, "Item": _item(numbered)}},
                {"Put": {"TableName": self._table, "Item": {**_pointer("RUNID", numbered.id), **where}}}]
        if numbered.task_id:
            puts.append({"Put": {"TableName": self._table, "Item": {**_pointer("RUNTASK", numbered.task_id), **where}}})
        self._call("transact_write_items", TransactItems=puts)
        self._prune(numbered)
        return numbered

    def finish(self, run: RunRecord) -> bool:
        """Write the final state unless the stored run already left ``running``."""
        try:
            self._call("put_item", TableName=self._table, Item=_item(run),
                       ConditionExpression="attribute_exists(pk) AND #s = :running",
                       ExpressionAttributeNames={"#s": "status"},
                       ExpressionAttributeValues={":running": {"S": RecordedStatus.RUNNING.value}})
        except ConditionFailedError:
            return False
        return True

    def get(self, run_id: str, *, owner: str) -> RunRecord | None:
        """The run with this id recorded for ``owner``."""
        return self._follow(_pointer("RUNID", run_id), owner)

    def get_seq(self, seq: int, *, owner: str) -> RunRecord | None:
        """The run with this number recorded for ``owner``."""
        found = self._call("get_item", TableName=self._table, ConsistentRead=True, Key=_key(owner, seq))
        return _run(found["Item"]) if "Item" in found else None

    def find_task(self, task_id: str, *, owner: str) -> RunRecord | None:
        """The run of a Dify task id."""
        return self._follow(_pointer("RUNTASK", task_id), owner) if task_id else None

    def page(self, *, owner: str, limit: int, before: int | None = None, workflow_id: str | None = None,
             statuses: tuple[RecordedStatus, ...] = ()) -> RunPage:
        """Newest first below ``before``; reads on until ``limit`` + 1 matching runs or the partition's end."""
        values: dict[str, Any] = {":pk": {"S": f"RUN#{owner}"}}
        condition = "pk = :pk"
        if before is not None:
            condition += " AND sk < :before"
            values[":before"] = {"S": _sk(before)}
        filters, names = [], {}
        if workflow_id is not None:
            filters.append("workflow_id = :wf")
            values[":wf"] = {"S": workflow_id}
        if statuses:
            names["#s"] = "status"
            filters.append(f"#s IN ({', '.join(f':s{i}' for i in range(len(statuses)))})")
            values.update({f":s{i}": {"S": s.value} for i, s in enumerate(statuses)})
        kwargs: dict[str, Any] = {"TableName": self._table, "KeyConditionExpression": condition,
                                  "ExpressionAttributeValues": values, "ScanIndexForward": False,
                                  "ConsistentRead": True}
        if filters:
            kwargs["FilterExpression"] = " AND ".join(filters)
        if names:
            kwargs["ExpressionAttributeNames"] = names
        items: list[dict[str, Any]] = []
        while len(items) <= limit:
            response = self._call("query", Limit=max(limit + 1 - len(items), 1), **kwargs)
            items.extend(response.get("Items", []))
            if "LastEvaluatedKey" not in response:
                break
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]
        found = tuple(_run(item) for item in items[:limit])
        return RunPage(items=found, before=found[-1].seq if len(items) > limit and found else None)

    def delete(self, seq: int, *, owner: str) -> RunRecord | None:
        """Remove a run of ``owner`` (and its pointers) and return it."""
        done = self._call("delete_item", TableName=self._table, Key=_key(owner, seq), ReturnValues="ALL_OLD")
        if not done.get("Attributes"):
            return None
        removed = _run(done["Attributes"])
        self._drop_pointers(removed)
        return removed

    def _follow(self, pointer: dict[str, Any], owner: str) -> RunRecord | None:
        found = self._call("get_item", TableName=self._table, ConsistentRead=True, Key=pointer).get("Item")
        if found is None or found["owner"]["S"] != owner:
            return None
        return self.get_seq(int(found["seq"]["N"]), owner=owner)

    def _drop_pointers(self, run: RunRecord) -> None:
        self._call("delete_item", TableName=self._table, Key=_pointer("RUNID", run.id))
        if run.task_id:
            self._call("delete_item", TableName=self._table, Key=_pointer("RUNTASK", run.task_id))

    def _prune(self, newest: RunRecord) -> None:
        cutoff = iso_utc(newest.created_at - timedelta(days=self.retention.max_age_days))
        oldest = self._call("query", TableName=self._table, KeyConditionExpression="pk = :pk",
                            ExpressionAttributeValues={":pk": {"S": f"RUN#{newest.owner}"}},
                            ScanIndexForward=True, Limit=PRUNE_BATCH).get("Items", [])
        for item in oldest:
            seq = int(item["sk"]["S"])
            if seq > newest.seq - self.retention.max_runs and item["created_at"]["S"] >= cutoff:
                break
            self.delete(seq, owner=newest.owner)

    def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        return self._db.call(operation, **kwargs)
