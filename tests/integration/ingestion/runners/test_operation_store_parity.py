"""The operation store and staging area contract, asserted identically on SQLite and on DynamoDB + S3 (moto)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from ragspine.errors import NotFoundError
from ragspine.ingestion.operations import (
    ActiveVersion,
    Operation,
    OperationCancelledError,
    OperationError,
    OperationKey,
    OperationStatus,
    OperationStore,
    StagingArea,
    TooLateToCancelError,
)
from ragspine.sensitivity import Sensitivity
from tests.support.cfn import dynamodb_create_table_kwargs

REGION = "us-east-1"
TABLE = "ragspine-ingest-parity"
BUCKET = "ragspine-staging-parity"

Stores = tuple[OperationStore, StagingArea]


@pytest.fixture(params=["sqlite", "dynamodb_s3"])
def stores(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stores]:
    if request.param == "sqlite":
        from ragspine.ingestion.sqlite_operations import SqliteOperationStore, SqliteStagingArea

        sqlite = SqliteOperationStore(tmp_path / "operations.db")
        yield sqlite, SqliteStagingArea(sqlite)
        return
    import boto3
    from moto import mock_aws

    from ragspine.aws.dynamo_operations import DynamoOperationStore
    from ragspine.aws.s3_staging import S3StagingArea

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        dynamodb.create_table(**dynamodb_create_table_kwargs("IngestTable", TABLE))
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET)
        store = DynamoOperationStore(TABLE, client=dynamodb)
        yield store, S3StagingArea(store.table, BUCKET, client=s3)


def _draft(doc: str = "report.pptx", op_id: str | None = None) -> Operation:
    return Operation(id=op_id or f"op-{secrets.token_hex(8)}", doc_id=doc, version_id="v-1", file_hash="sha256:ab",
                     source=f"/uploads/{doc}", sensitivity=Sensitivity.RESTRICTED, library="finance")


def test_create_or_get_is_idempotent_on_the_key(stores: Stores) -> None:
    operations, _ = stores
    key = OperationKey("report.pptx", "sha256:ab")
    first, created = operations.create_or_get(key, _draft())
    again, created_again = operations.create_or_get(key, _draft())
    other, created_other = operations.create_or_get(OperationKey("report.pptx", "sha256:cd"), _draft())
    assert created and not created_again and created_other
    assert again == first and other.id != first.id
    assert first.created_at is not None and first.status is OperationStatus.PENDING


def test_save_round_trips_every_field_and_refuses_unknown_ids(stores: Stores) -> None:
    operations, _ = stores
    operation, _ = operations.create_or_get(OperationKey("a.xlsx", "1"), _draft("a.xlsx"))
    assert operations.get("op-missing") is None
    changed = replace(operation, status=OperationStatus.FAILED, retry_count=3, warnings=("no metric row",),
                      error=OperationError("INGEST_CORRUPT_FILE", "a.xlsx is truncated", False),
                      facts_count=4, chunks_count=7, started_at=operation.created_at,
                      finished_at=operation.created_at)
    saved = operations.save(changed)
    assert operations.get(operation.id) == saved
    assert saved.updated_at is not None and operation.updated_at is not None
    assert saved.updated_at >= operation.updated_at
    assert saved.sensitivity is Sensitivity.RESTRICTED and saved.library == "finance"
    with pytest.raises(NotFoundError):
        operations.save(_draft("ghost.md"))


def test_a_cancelled_operation_stays_cancelled_whatever_a_runner_writes_next(stores: Stores) -> None:
    operations, _ = stores
    operation, _ = operations.create_or_get(OperationKey("a.xlsx", "1"), _draft("a.xlsx"))
    running = operations.save(replace(operation, status=OperationStatus.RUNNING, step="parse"))
    operations.save(replace(running, status=OperationStatus.CANCELLED))
    # a runner still holding the RUNNING record it read before the cancel
    with pytest.raises(OperationCancelledError):
        operations.save(replace(running, file_hash="sha256:cd", step="extract_facts"))
    with pytest.raises(OperationCancelledError):
        operations.save(replace(running, status=OperationStatus.SUCCEEDED))
    stored = operations.get(operation.id)
    assert stored is not None and stored.status is OperationStatus.CANCELLED and stored.file_hash == "sha256:ab"
    assert operations.save(replace(stored, warnings=("noted",))).status is OperationStatus.CANCELLED


@pytest.mark.parametrize("status, step", [(OperationStatus.RUNNING, "activate"), (OperationStatus.SUCCEEDED, None),
                                          (OperationStatus.FAILED, "parse")])
def test_a_cancel_is_refused_once_the_version_is_activating_or_finished(
        stores: Stores, status: OperationStatus, step: str | None) -> None:
    operations, _ = stores
    operation, _ = operations.create_or_get(OperationKey("a.xlsx", "1"), _draft("a.xlsx"))
    read_before = operations.save(replace(operation, status=OperationStatus.RUNNING, step="index"))
    operations.save(replace(read_before, status=status, step=step))  # the runner moved on meanwhile
    with pytest.raises(TooLateToCancelError):
        operations.save(replace(read_before, status=OperationStatus.CANCELLED))
    stored = operations.get(operation.id)
    assert stored is not None and stored.status is status and stored.step == step


def test_a_cancel_lands_on_a_pending_or_running_operation(stores: Stores) -> None:
    operations, _ = stores
    pending, _ = operations.create_or_get(OperationKey("a.xlsx", "1"), _draft("a.xlsx"))
    running, _ = operations.create_or_get(OperationKey("b.xlsx", "1"), _draft("b.xlsx"))
    running = operations.save(replace(running, status=OperationStatus.RUNNING, step="index"))
    for operation in (pending, running):
        assert operations.save(replace(operation, status=OperationStatus.CANCELLED)).status is OperationStatus.CANCELLED
        stored = operations.get(operation.id)
        assert stored is not None and stored.status is OperationStatus.CANCELLED


def test_operations_are_listed_oldest_first_and_by_document(stores: Stores) -> None:
    operations, _ = stores
    made = [operations.create_or_get(OperationKey(doc, str(i)), _draft(doc))[0]
            for i, doc in enumerate(["b.md", "a.md", "b.md"])]
    assert [op.id for op in operations.list_operations()] == [op.id for op in made]
    assert [op.id for op in operations.list_operations(doc_id="b.md")] == [made[0].id, made[2].id]
    assert operations.list_operations(doc_id="none.md") == []


def test_staged_outputs_are_kept_per_operation_until_cleared(stores: Stores) -> None:
    _, staging = stores
    staging.put("op-1", "source", b"\x00bytes")
    staging.put("op-1", "source", b"replaced")
    staging.put("op-1", "document", b"{}")
    staging.put("op-2", "source", b"other")
    assert staging.get("op-1", "source") == b"replaced" and staging.get("op-1", "chunks") is None
    staging.clear("op-1")
    assert staging.get("op-1", "source") is None and staging.get("op-1", "document") is None
    assert staging.get("op-2", "source") == b"other"


def test_active_versions_replace_each_other_and_list_by_document(stores: Stores) -> None:
    _, staging = stores
    big = secrets.token_hex(400_000)  # 800 KB that barely compresses: over a DynamoDB item
    staging.activate(ActiveVersion("b.xlsx", "v-1", "op-1", '{"facts": []}'))
    staging.activate(ActiveVersion("a.pptx", "v-1", "op-2", big))
    staging.activate(ActiveVersion("b.xlsx", "v-2", "op-3", '{"facts": [1]}'))
    assert staging.active("b.xlsx") == [ActiveVersion("b.xlsx", "v-2", "op-3", '{"facts": [1]}')]
    assert [(v.doc_id, v.version_id) for v in staging.active()] == [("a.pptx", "v-1"), ("b.xlsx", "v-2")]
    assert staging.active("a.pptx")[0].extraction == big
    assert staging.active("missing") == []


def test_a_cancel_stands_against_a_runners_stale_save(stores: Stores) -> None:
    # Found by the Gateway suite on the state machine: the worker's read-modify-write at the start of a step
    # overwrote a cancel that landed between its read and its save, and the run went on to READY.
    operations, _ = stores
    operation, _ = operations.create_or_get(OperationKey("report.pptx", "v-1"), _draft())
    stale = operations.get(operation.id)
    assert stale is not None
    operations.save(replace(stale, status=OperationStatus.CANCELLED))
    with pytest.raises(OperationCancelledError):  # refused, so the runner stops where it is
        operations.save(replace(stale, status=OperationStatus.RUNNING, retry_count=1))
    stored = operations.get(operation.id)
    assert stored is not None and stored.status is OperationStatus.CANCELLED and stored.retry_count == 0
