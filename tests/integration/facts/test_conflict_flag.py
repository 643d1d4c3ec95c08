"""The SQLite fact file reads a fact's differing figures only where its row says it may have some: the
fact and its figures come out as ``get`` and ``conflicts`` read them, whatever was written before and how."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.facts.model import Fact, FactKey
from ragspine.facts.sqlite_store import SqliteFactStore

_PERIODS = ("2023", "2024")
_DOCS = ("a.md", "b.md", "c.md")


def _fact(period: str, value: int, doc: str, locator: str = "table=1,row=2,col=2") -> Fact:
    return Fact("REVENUE", "ACME_JP", "JP", "TOTAL", "FY", period, value, "USD_M", doc, locator)


def _key(period: str) -> FactKey:
    return FactKey("REVENUE", "ACME_JP", "TOTAL", "FY", period)


def _read_apart(store: SqliteFactStore, period: str) -> tuple[Fact | None, list[Fact]]:
    return store.get(_key(period)), store.conflicts(_key(period))


_WRITES = st.lists(st.one_of(
    st.tuples(st.just("fact"), st.sampled_from(_PERIODS), st.integers(1, 3), st.sampled_from(_DOCS)),
    st.tuples(st.just("differing"), st.sampled_from(_PERIODS), st.integers(1, 3), st.sampled_from(_DOCS)),
    st.tuples(st.just("delete"), st.sampled_from(_PERIODS), st.booleans(), st.sampled_from(_DOCS)),
), max_size=12)


@settings(max_examples=60, deadline=None)
@given(writes=_WRITES)
def test_the_fact_and_its_differing_figures_read_together_are_those_read_apart(writes: list[tuple[str, str, int, str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteFactStore(Path(folder) / "facts.db")
        try:
            for kind, period, detail, doc in writes:
                if kind == "fact":
                    store.put_many([_fact(period, detail, doc)])
                elif kind == "differing":
                    store.put_conflicts([_fact(period, detail, doc, f"table={detail},row=2,col=2")])
                else:  # a document removed, its fact of this period kept or not
                    store.delete_by_source(doc, keep={_key(period)} if detail else ())
                for each in _PERIODS:
                    assert store.get_with_conflicts(_key(each)) == _read_apart(store, each)
        finally:
            store.close()


def test_figures_written_around_the_store_are_read_with_their_fact(tmp_path: Path) -> None:
    store = SqliteFactStore(tmp_path / "facts.db")
    store.put_many([_fact("2024", 655, "a.md")])
    conn = sqlite3.connect(tmp_path / "facts.db")
    with conn:  # another program's writes: a differing figure under another key, then moved under the fact's
        conn.execute("INSERT INTO fact_conflict (metric_code, entity, geography, channel, period_type, period, value, "
                     "unit, source_doc_id, source_locator) VALUES ('REVENUE','ACME_JP','JP','TOTAL','FY','2023',700,"
                     "'USD_M','b.md','table=9,row=2,col=2')")
        conn.execute("UPDATE fact_conflict SET period = '2024'")
    conn.close()
    assert store.get_with_conflicts(_key("2024")) == (
        _fact("2024", 655, "a.md"), [_fact("2024", 700, "b.md", "table=9,row=2,col=2")])
    store.close()


def test_a_file_written_before_the_flag_reads_its_differing_figures(tmp_path: Path) -> None:
    path = tmp_path / "facts.db"
    store = SqliteFactStore(path)
    store.put_many([_fact("2024", 655, "a.md"), _fact("2023", 600, "a.md")])
    store.put_conflicts([_fact("2024", 700, "b.md")])
    store.close()
    conn = sqlite3.connect(path)
    with conn:  # the file as the version before the flag wrote it: no flag column, no triggers
        for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {trigger}")
        conn.execute("ALTER TABLE fact_metric DROP COLUMN has_conflicts")
    conn.close()
    reopened = SqliteFactStore(path)
    assert reopened.get_with_conflicts(_key("2024")) == (_fact("2024", 655, "a.md"), [_fact("2024", 700, "b.md")])
    assert reopened.get_with_conflicts(_key("2023")) == (_fact("2023", 600, "a.md"), [])
    reopened.put_conflicts([_fact("2023", 601, "c.md")])
    assert reopened.get_with_conflicts(_key("2023")) == (_fact("2023", 600, "a.md"), [_fact("2023", 601, "c.md")])
    reopened.close()
