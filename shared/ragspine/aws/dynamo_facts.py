"""``DynamoFactStore``: the fact table on DynamoDB (one item per fact).

Besides the facts the table holds the index of open codes (``facts.open_vocabulary``): one small item
per metric and entity pair coded from a document's words, under one partition, written with the
facts and removed with the last of them. A service starting reads it with one Query, not a Scan of
the whole table. A marker item says the index covers the table: the first fact write of a process
that finds none (a new table, or one written before the index existed) indexes the table's open
codes and writes it; until then readers scan, and never write (the answering functions only read).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ragspine.aws.dynamo_table import DynamoTable
from ragspine.errors import InvalidInputError, ProviderUnavailableError
from ragspine.facts.model import Fact, FactKey, format_number, parse_number, require_lineage
from ragspine.facts.open_vocabulary import ENTITY_PREFIX, METRIC_PREFIX, is_open_code
from ragspine.sensitivity import Sensitivity

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

SOURCE_INDEX = "by_source_doc"
_BATCH = 25  # DynamoDB's BatchWriteItem limit
_GET_BATCH = 100  # and its BatchGetItem limit
_MAX_UNPROCESSED_ROUNDS = 8
_STRINGS = ("metric_code", "entity", "geography", "channel", "period_type", "period", "unit",
            "source_doc_id", "source_locator")
_OPTIONAL = ("source_file_hash", "extractor_version", "mapping_version")


# The open codes' index: a pk no fact can have (a fact's pk holds exactly one '#', its codes none),
# one item per pair (sk ``metric#entity``) and a marker saying the index covers the whole table.
_OPEN_PK = "#open-codes#"
_OPEN_COMPLETE = "#complete"


def _pk(metric_code: str, entity: str) -> str:
    return f"{entity}#{metric_code}"


def _sk(period_type: str, period: str, channel: str) -> str:
    return f"{period_type}#{period}#{channel}"


# A differing figure lives beside its key's fact, under the same pk and a longer sk; the
# ``conflict`` attribute keeps it out of ``find`` and ``count``.
_CONFLICT = "#conflict#"
_NOT_CONFLICT = "attribute_not_exists(#conflict)"
_CONFLICT_NAME = {"#conflict": "conflict"}  # CONFLICT is a DynamoDB reserved word


def _conflict_sk(fact: Fact) -> str:
    return f"{_sk(fact.period_type, fact.period, fact.channel)}{_CONFLICT}{fact.source_doc_id}#{fact.source_locator}"


class DynamoFactStore:
    """Facts in a DynamoDB table keyed ``pk = entity#metric``, ``sk = period_type#period#channel``."""

    def __init__(self, table_name: str, *, client: DynamoDBClient | None = None,
                 region: str | None = None, endpoint_url: str | None = None) -> None:
        self._table = table_name
        self._index_complete = False  # known to this process: the marker was read or written
        self._db = DynamoTable(table_name, label="fact table", client=client, region=region,
                               endpoint_url=endpoint_url)

    @property
    def client(self) -> DynamoDBClient:
        """The boto3 client, created on first use so importing costs nothing."""
        return self._db.client

    def put_many(self, facts: Iterable[Fact]) -> int:
        """Write facts in batches of 25; every fact is checked for lineage before any is sent."""
        checked = [require_lineage(fact) for fact in facts]
        items = [_item(fact) for fact in checked]
        items += [_open_item(*pair) for pair in sorted({(f.metric_code, f.entity) for f in checked if _is_open(f)})]
        for start in range(0, len(items), _BATCH):
            requests = [{"PutRequest": {"Item": item}} for item in items[start:start + _BATCH]]
            self._batch_write(requests)
        if not self._index_complete:
            self._complete_open_index()
        return len(checked)

    def put_conflicts(self, facts: Iterable[Fact]) -> int:
        """Record figures that differ from their key's kept fact, one item per key, document and locator."""
        items = []
        for fact in facts:
            item = _item(require_lineage(fact))
            item["sk"] = {"S": _conflict_sk(fact)}
            item["conflict"] = {"S": "1"}
            items.append(item)
        for start in range(0, len(items), _BATCH):
            self._batch_write([{"PutRequest": {"Item": item}} for item in items[start:start + _BATCH]])
        return len(items)

    def conflicts(self, key: FactKey) -> list[Fact]:
        """The differing figures recorded for this key."""
        prefix = _sk(key.period_type, key.period, key.channel) + _CONFLICT
        items = self._query(KeyConditionExpression="pk = :pk AND begins_with(sk, :sk)",
                            ExpressionAttributeValues={":pk": {"S": _pk(key.metric_code, key.entity)},
                                                       ":sk": {"S": prefix}})
        return sorted((_fact(i) for i in items), key=lambda f: (f.source_doc_id, f.source_locator))

    def get_with_conflicts(self, key: FactKey) -> tuple[Fact | None, list[Fact]]:
        """The fact with this key and its differing figures in one Query: they share the pk, and the
        figures' sk extends the fact's (an sk of another channel that merely starts alike is skipped)."""
        sk = _sk(key.period_type, key.period, key.channel)
        differing = sk + _CONFLICT
        fact: Fact | None = None
        others: list[Fact] = []
        for item in self._query(KeyConditionExpression="pk = :pk AND begins_with(sk, :sk)",
                                ExpressionAttributeValues={":pk": {"S": _pk(key.metric_code, key.entity)},
                                                           ":sk": {"S": sk}}):
            item_sk = item["sk"]["S"]
            if item_sk == sk:
                fact = _fact(item)
            elif item_sk.startswith(differing):
                others.append(_fact(item))
        return fact, sorted(others, key=lambda f: (f.source_doc_id, f.source_locator))

    def get(self, key: FactKey) -> Fact | None:
        """The fact with this key, or None."""
        response = self._call(
            "get_item",
            TableName=self._table,
            Key={"pk": {"S": _pk(key.metric_code, key.entity)},
                 "sk": {"S": _sk(key.period_type, key.period, key.channel)}},
        )
        item = response.get("Item")
        return _fact(item) if item else None

    def find(self, *, metric_code: str, entity: str) -> list[Fact]:
        """All facts of one metric of one entity, sorted like the SQLite store."""
        items = self._query(KeyConditionExpression="pk = :pk", FilterExpression=_NOT_CONFLICT,
                            ExpressionAttributeNames=_CONFLICT_NAME,
                            ExpressionAttributeValues={":pk": {"S": _pk(metric_code, entity)}})
        return sorted((_fact(i) for i in items), key=lambda f: (f.channel, f.period_type, f.period))

    def count(self) -> int:
        """Number of facts (a paginated COUNT scan: fine for admin use, not per request)."""
        total, kwargs = 0, {"TableName": self._table, "Select": "COUNT",
                            "FilterExpression": f"attribute_exists(metric_code) AND {_NOT_CONFLICT}",
                            "ExpressionAttributeNames": _CONFLICT_NAME}
        while True:
            page = self._call("scan", **kwargs)
            total += int(page["Count"])
            if "LastEvaluatedKey" not in page:
                return total
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def open_codes(self) -> list[tuple[str, str]]:
        """The metric and entity pairs coded from documents' own words: one Query of their index (a
        table whose index is not complete yet is scanned; the first fact write completes it)."""
        found, complete = self._read_open_index()
        return sorted(found) if complete else sorted(self._scan_open_codes())

    def _read_open_index(self) -> tuple[set[tuple[str, str]], bool]:
        found: set[tuple[str, str]] = set()
        complete = False
        for item in self._query(KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": {"S": _OPEN_PK}}):
            if item["sk"]["S"] == _OPEN_COMPLETE:
                complete = True
            else:
                found.add((item["open_metric"]["S"], item["open_entity"]["S"]))
        return found, complete

    def _complete_open_index(self) -> None:
        """Index the open codes of facts written before the index existed, then write the marker (once)."""
        found, complete = self._read_open_index()
        if not complete:
            items = [_open_item(*pair) for pair in sorted(self._scan_open_codes() - found)]
            items.append({"pk": {"S": _OPEN_PK}, "sk": {"S": _OPEN_COMPLETE}})
            for start in range(0, len(items), _BATCH):
                self._batch_write([{"PutRequest": {"Item": item}} for item in items[start:start + _BATCH]])
        self._index_complete = True

    def _scan_open_codes(self) -> set[tuple[str, str]]:
        """The open pairs of the facts themselves (a paginated projected Scan of the whole table)."""
        kwargs: dict[str, Any] = {
            "TableName": self._table, "ProjectionExpression": "metric_code, entity",
            "FilterExpression": "(begins_with(metric_code, :m) OR begins_with(entity, :e)) AND " + _NOT_CONFLICT,
            "ExpressionAttributeNames": _CONFLICT_NAME,
            "ExpressionAttributeValues": {":m": {"S": METRIC_PREFIX}, ":e": {"S": ENTITY_PREFIX}}}
        found: set[tuple[str, str]] = set()
        while True:
            page = self._call("scan", **kwargs)
            found |= {(i["metric_code"]["S"], i["entity"]["S"]) for i in page.get("Items", [])}
            if "LastEvaluatedKey" not in page:
                return found
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _forget_open_codes_without_facts(self, pks: set[str]) -> None:
        """Remove the index item of each open pair whose last fact is gone (its differing figures do not count)."""
        gone = []
        for pk in sorted(pks):
            if any(True for _ in self._query(KeyConditionExpression="pk = :pk", FilterExpression=_NOT_CONFLICT,
                                             ExpressionAttributeNames=_CONFLICT_NAME, ProjectionExpression="pk",
                                             ExpressionAttributeValues={":pk": {"S": pk}})):
                continue
            entity, _, metric = pk.partition("#")
            gone.append({"DeleteRequest": {"Key": {"pk": {"S": _OPEN_PK}, "sk": {"S": _open_sk(metric, entity)}}}})
        for start in range(0, len(gone), _BATCH):  # BatchWriteItem: the writers' roles grant no DeleteItem
            self._batch_write(gone[start:start + _BATCH])

    def by_source(self, source_doc_id: str) -> list[Fact]:
        """The facts one document states: their keys from the ``by_source_doc`` index (keys only), then
        the items, 100 per BatchGetItem; sorted as the SQLite store sorts them."""
        keys = [{"pk": i["pk"], "sk": i["sk"]} for i in self._source_keys(source_doc_id)]
        facts: list[Fact] = []
        for start in range(0, len(keys), _GET_BATCH):
            facts.extend(_fact(item) for item in self._batch_get(keys[start:start + _GET_BATCH]))
        return sorted(facts, key=lambda f: (f.metric_code, f.entity, f.channel, f.period_type, f.period))

    @staticmethod
    def _source_condition(source_doc_id: str) -> dict[str, Any]:
        # The index projects keys only: a differing figure is told apart by its sort key's marker.
        return {"KeyConditionExpression": "source_doc_id = :d", "FilterExpression": "NOT contains(sk, :c)",
                "ExpressionAttributeValues": {":d": {"S": source_doc_id}, ":c": {"S": _CONFLICT}}}

    def _source_keys(self, source_doc_id: str) -> Iterator[dict[str, Any]]:
        return self._query(IndexName=SOURCE_INDEX, **self._source_condition(source_doc_id))

    def _batch_get(self, keys: list[dict[str, Any]]) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        pending: dict[str, Any] = {self._table: {"Keys": keys}}
        for attempt in range(_MAX_UNPROCESSED_ROUNDS):
            response = self._call("batch_get_item", RequestItems=pending)
            items.extend(response.get("Responses", {}).get(self._table, []))
            pending = response.get("UnprocessedKeys") or {}
            if not pending:
                return items
            time.sleep(min(0.05 * 2**attempt, 1.0))  # back off while DynamoDB throttles
        raise ProviderUnavailableError("DynamoDB kept throttling the fact read; try again later")

    def delete_by_source(self, source_doc_id: str, *, keep: Collection[FactKey] = ()) -> int:
        """Remove the facts of one document, found through the ``by_source_doc`` index, except ``keep``
        (its differing figures always go: their sk is never a kept key's)."""
        kept = {(_pk(k.metric_code, k.entity), _sk(k.period_type, k.period, k.channel)) for k in keep}
        keys = [{"pk": i["pk"], "sk": i["sk"]} for i in self._query(
            IndexName=SOURCE_INDEX, KeyConditionExpression="source_doc_id = :d",
            ExpressionAttributeValues={":d": {"S": source_doc_id}}) if (i["pk"]["S"], i["sk"]["S"]) not in kept]
        for start in range(0, len(keys), _BATCH):
            self._batch_write([{"DeleteRequest": {"Key": k}} for k in keys[start:start + _BATCH]])
        self._forget_open_codes_without_facts({k["pk"]["S"] for k in keys if _names_open_code(k["pk"]["S"])})
        return sum(1 for k in keys if _CONFLICT not in k["sk"]["S"])  # facts, as the SQLite store counts

    def _query(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        kwargs["TableName"] = self._table
        while True:
            page = self._call("query", **kwargs)
            yield from page.get("Items", [])
            if "LastEvaluatedKey" not in page:
                return
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _batch_write(self, requests: list[dict[str, Any]]) -> None:
        pending = {self._table: requests}
        for attempt in range(_MAX_UNPROCESSED_ROUNDS):
            response = self._call("batch_write_item", RequestItems=pending)
            pending = response.get("UnprocessedItems") or {}
            if not pending:
                return
            time.sleep(min(0.05 * 2**attempt, 1.0))  # back off while DynamoDB throttles
        raise ProviderUnavailableError("DynamoDB kept throttling the fact write; try again later")

    def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        return self._db.call(operation, **kwargs)


def _is_open(fact: Fact) -> bool:
    return is_open_code(fact.metric_code) or is_open_code(fact.entity)


def _names_open_code(pk: str) -> bool:
    entity, _, metric = pk.partition("#")
    return is_open_code(entity) or is_open_code(metric)


def _open_sk(metric_code: str, entity: str) -> str:
    return f"{metric_code}#{entity}"


def _open_item(metric_code: str, entity: str) -> dict[str, dict[str, str]]:
    """The index item of one open pair (its own attribute names: no fact read or count sees it)."""
    return {"pk": {"S": _OPEN_PK}, "sk": {"S": _open_sk(metric_code, entity)},
            "open_metric": {"S": metric_code}, "open_entity": {"S": entity}}


def _item(fact: Fact) -> dict[str, dict[str, str]]:
    key_parts = (fact.metric_code, fact.entity, fact.channel, fact.period_type, fact.period)
    if any("#" in part for part in key_parts):
        # '#' separates the parts of pk/sk; a code containing it could not be split back.
        raise InvalidInputError(f"fact key {key_parts} contains '#', which codes may not contain")
    item = {name: {"S": getattr(fact, name)} for name in _STRINGS}
    item["pk"] = {"S": _pk(fact.metric_code, fact.entity)}
    item["sk"] = {"S": _sk(fact.period_type, fact.period, fact.channel)}
    # DynamoDB normalises numbers (36.0 comes back as 36), so the literal travels beside it.
    literal = format_number(fact.value)
    item["value"] = {"N": str(Decimal(literal))}
    item["value_literal"] = {"S": literal}
    for name in _OPTIONAL:
        value = getattr(fact, name)
        if value is not None:
            item[name] = {"S": value}
    item["sensitivity"] = {"N": str(int(fact.sensitivity))}
    return item


def _fact(item: dict[str, Any]) -> Fact:
    def text(name: str) -> str:
        return str(item[name]["S"])

    def optional(name: str) -> str | None:
        return str(item[name]["S"]) if name in item else None

    literal = item["value_literal"]["S"] if "value_literal" in item else item["value"]["N"]
    level = Sensitivity(int(item["sensitivity"]["N"])) if "sensitivity" in item else Sensitivity.INTERNAL
    return Fact(text("metric_code"), text("entity"), text("geography"), text("channel"), text("period_type"),
                text("period"), parse_number(literal), text("unit"), text("source_doc_id"), text("source_locator"),
                source_file_hash=optional("source_file_hash"), extractor_version=optional("extractor_version"),
                mapping_version=optional("mapping_version"),
                sensitivity=level)
