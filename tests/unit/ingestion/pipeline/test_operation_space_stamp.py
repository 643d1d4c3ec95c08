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


def test_the_file_name_the_caller_gave_survives_and_messages_use_it() -> None:
    upload = Operation(id="op-4", doc_id="doc-4", version_id="ver-4", file_hash="", source="s3://b/ks-1/fr-9.docx",
                       file_name="Travel policy 2025.docx")
    loaded = load_operation(dump_operation(upload))
    assert loaded.file_name == "Travel policy 2025.docx" and loaded.display_name == "Travel policy 2025.docx"
    body = json.loads(dump_operation(Operation(id="op-5", doc_id="a.md", version_id="h", file_hash="h",
                                               source="/data/a.md")))
    body.pop("file_name")  # written before the field existed
    assert load_operation(json.dumps(body)).display_name == "a.md"
