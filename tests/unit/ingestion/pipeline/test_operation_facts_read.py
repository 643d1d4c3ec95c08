"""What the table reading found survives the operation codec (operations.db and the DynamoDB ingest table)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.model import Fact
from ragspine.ingestion.operation_codec import dump_operation, load_operation
from ragspine.ingestion.operations import FactRead, Operation
from ragspine.ingestion.prepare import facts_sample


def _operation(**kwargs: object) -> Operation:
    return Operation(id="op-1", doc_id="doc-1", version_id="ver-1", file_hash="", source="/x", **kwargs)  # type: ignore[arg-type]


def test_the_count_and_sample_round_trip() -> None:
    sample = (FactRead("label:net sales", "company:walmart", "2020", 519926, "USD_M",
                       "page=51,table=1,row=Net sales,col=2020"),
              FactRead("PCT_MARGIN", "ACME_HK", "2024", 41.2, "PCT", "table=1,row=Gross margin,col=FY2024"))
    loaded = load_operation(dump_operation(_operation(facts_read=37, facts_sample=sample)))
    assert (loaded.facts_read, loaded.facts_sample) == (37, sample)
    assert isinstance(loaded.facts_sample[0].value, int)  # 519926 stays as written, not 519926.0


def test_an_operation_before_its_tables_were_read_has_none_and_older_records_load() -> None:
    assert load_operation(dump_operation(_operation())).facts_read is None
    body = json.loads(dump_operation(_operation(facts_read=2)))
    body.pop("facts_read")
    body.pop("facts_sample")
    older = load_operation(json.dumps(body))
    assert (older.facts_read, older.facts_sample) == (None, ())


def _fact(table: int, row: int) -> Fact:
    return Fact("REVENUE", "ACME_HK", "", "TOTAL", "FY", "2024", row, "USD_M", "d.md", f"table={table},row=R{row},col=C")


@given(st.lists(st.integers(min_value=1, max_value=40), min_size=0, max_size=6), st.integers(min_value=0, max_value=25))
def test_the_sample_is_bounded_and_takes_each_table_in_turn(rows_per_table: list[int], limit: int) -> None:
    facts = [_fact(t, r) for t, rows in enumerate(rows_per_table, start=1) for r in range(rows)]
    sample = facts_sample(facts, limit)
    assert len(sample) == min(limit, len(facts))
    assert len({f.locator for f in sample}) == len(sample)  # no fact twice
    depth = {t: 0 for t in range(1, len(rows_per_table) + 1)}
    for read in sample:
        depth[int(read.locator.split(",")[0].removeprefix("table="))] += 1
    taken = [n for n in depth.values()]
    # no table gives a second fact before every table with facts left gave one
    assert max(taken, default=0) - min((n for n, rows in zip(taken, rows_per_table, strict=True) if rows > n),
                                       default=max(taken, default=0)) <= 1
