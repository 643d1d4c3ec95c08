"""A Gateway run's space stamp survives the operation codec (operations.db and the DynamoDB ingest table)."""

from __future__ import annotations

import json

from ragspine.ingestion.operation_codec import dump_operation, load_operation
from ragspine.ingestion.operations import Operation, SpaceStamp


def test_the_stamp_round_trips_and_an_ordinary_operation_has_none() -> None:
    stamp = SpaceStamp(space_id="ks-1", document_id="doc-1", category="policy", tags=("a", "b"),
                       version_label="2025", product_code="P1")
    gateway_run = Operation(id="op-1", doc_id="doc-1", version_id="ver-1", file_hash="", source="/x", space=stamp)
    assert load_operation(dump_operation(gateway_run)).space == stamp
    ordinary = Operation(id="op-2", doc_id="a.md", version_id="h", file_hash="h", source="/a.md")
    assert load_operation(dump_operation(ordinary)).space is None


def test_an_operation_written_before_the_stamp_existed_still_loads() -> None:
    body = json.loads(dump_operation(Operation(id="op-3", doc_id="a.md", version_id="h", file_hash="h", source="/a")))
    body.pop("space", None)
    assert load_operation(json.dumps(body)).space is None
