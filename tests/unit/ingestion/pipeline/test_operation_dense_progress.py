"""The dense leg's progress survives the operation codec (operations.db and the DynamoDB ingest table)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from ragspine.ingestion.operation_codec import dump_operation, load_operation
from ragspine.ingestion.operations import DenseProgress, Operation


def _operation(dense: DenseProgress | None = None) -> Operation:
    return Operation(id="op-1", doc_id="doc-1", version_id="ver-1", file_hash="", source="/x", dense=dense)


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=10**6),
       st.none() | st.floats(min_value=0.01, max_value=1e4), st.none() | st.floats(min_value=0, max_value=1e7),
       st.datetimes(timezones=st.just(UTC)))
def test_the_progress_round_trips(done: int, more: int, rate: float | None, left: float | None,
                                  at: datetime) -> None:
    dense = DenseProgress(done=done, total=done + more, per_second=rate, seconds_left=left, updated_at=at)
    assert load_operation(dump_operation(_operation(dense))).dense == dense


def test_an_operation_without_progress_and_an_older_record_load_with_none() -> None:
    assert load_operation(dump_operation(_operation())).dense is None
    body = json.loads(dump_operation(_operation()))
    body.pop("dense")
    assert load_operation(json.dumps(body)).dense is None
