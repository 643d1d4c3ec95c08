"""``SqliteFactStore``: the embedded fact table (one SQLite file under the data folder)."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from ragspine.facts.model import Fact, FactKey, require_lineage
from ragspine.facts.open_vocabulary import ENTITY_PREFIX, METRIC_PREFIX
from ragspine.frozen_records import record_builder
from ragspine.sensitivity import Sensitivity
from ragspine.sqlite_local import ThreadLocalSqlite

# The fact table and the differing-figure table hold the same columns; only the key differs (a
# differing figure is one per fact key, document and locator). STRICT makes SQLite enforce the
# declared types; ``value ANY`` keeps 1320 an integer and 36.0 a real, so a fact renders exactly
# as its source wrote it. Lineage is NOT NULL and non-empty at the bottom of the stack (seed 002),
# not only checked in Python.
_COLUMN_TYPES = (
    ("metric_code", "TEXT NOT NULL"),
    ("entity", "TEXT NOT NULL"),
    ("geography", "TEXT NOT NULL"),
    ("channel", "TEXT NOT NULL"),
    ("period_type", "TEXT NOT NULL"),
    ("period", "TEXT NOT NULL"),
    ("value", "ANY NOT NULL"),
    ("unit", "TEXT NOT NULL"),
    ("source_doc_id", "TEXT NOT NULL CHECK (length(trim(source_doc_id)) > 0)"),
    ("source_locator", "TEXT NOT NULL CHECK (length(trim(source_locator)) > 0)"),
    ("source_file_hash", "TEXT"),
    ("extractor_version", "TEXT"),
    ("mapping_version", "TEXT"),
    ("sensitivity", "INTEGER NOT NULL DEFAULT 1"),
)
_KEY = "metric_code, entity, channel, period_type, period"  # FactKey's order
_COLUMNS = ", ".join(name for name, _ in _COLUMN_TYPES)
_KEY_MATCH = " AND ".join(f"{name} = ?" for name in _KEY.split(", "))


def _table(name: str, primary_key: str) -> str:
    columns = "".join(f"    {column} {kind},\n" for column, kind in _COLUMN_TYPES)
    return (f"CREATE TABLE IF NOT EXISTS {name} (\n{columns}    PRIMARY KEY ({primary_key})\n) STRICT, WITHOUT ROWID;\n"
            f"CREATE INDEX IF NOT EXISTS {name}_by_source ON {name} (source_doc_id);\n")


def _insert(table: str) -> str:
    return f"INSERT OR REPLACE INTO {table} ({_COLUMNS}) VALUES ({', '.join('?' * len(_COLUMN_TYPES))})"


_SCHEMA = _table("fact_metric", _KEY) + _table("fact_conflict", f"{_KEY}, source_doc_id, source_locator")
_PUT = _insert("fact_metric")
_PUT_CONFLICTS = _insert("fact_conflict")
_GET = f"SELECT {_COLUMNS} FROM fact_metric WHERE {_KEY_MATCH}"
_CONFLICTS = f"SELECT {_COLUMNS} FROM fact_conflict WHERE {_KEY_MATCH} ORDER BY source_doc_id, source_locator"
# The fact (first column 0) and its differing figures (1) in one statement: the structured
# answer of every question reads both. No ORDER BY: the first column tells the rows apart and
# the few differing figures are sorted in Python, which spares SQLite a sorter per lookup.
_GET_WITH_CONFLICTS = (
    f"SELECT 0, {_COLUMNS} FROM fact_metric WHERE {_KEY_MATCH} "
    f"UNION ALL SELECT 1, {_COLUMNS} FROM fact_conflict WHERE {_KEY_MATCH}"
)


class SqliteFactStore:
    """Facts in a SQLite file; one connection per thread, WAL so readers never wait on a writer."""

    def __init__(self, path: Path | str) -> None:
        self._db = ThreadLocalSqlite(path, label="fact database")
        self._conn = self._db.connection
        with self._conn() as conn:
            conn.executescript(_SCHEMA)
            _migrate(conn)

    def put_many(self, facts: Iterable[Fact]) -> int:
        """Insert or replace facts in one transaction; a fact without lineage aborts the batch."""
        rows = [_row(require_lineage(fact)) for fact in facts]
        with self._conn() as conn:
            conn.executemany(_PUT, rows)
        return len(rows)

    def get(self, key: FactKey) -> Fact | None:
        """The fact with this key, or None."""
        row = self._conn().execute(_GET, key).fetchone()  # FactKey is a tuple in the WHERE order
        return _fact(row) if row else None

    def find(self, *, metric_code: str, entity: str) -> list[Fact]:
        """All facts of one metric of one entity, sorted by channel and period."""
        rows = self._conn().execute(
            f"SELECT {_COLUMNS} FROM fact_metric WHERE metric_code = ? AND entity = ? "
            "ORDER BY channel, period_type, period",
            (metric_code, entity),
        ).fetchall()
        return [_fact(row) for row in rows]

    def put_conflicts(self, facts: Iterable[Fact]) -> int:
        """Record figures that differ from the kept fact of their key (one per key, document and locator)."""
        rows = [_row(require_lineage(fact)) for fact in facts]
        with self._conn() as conn:
            conn.executemany(_PUT_CONFLICTS, rows)
        return len(rows)

    def conflicts(self, key: FactKey) -> list[Fact]:
        """The figures recorded as differing for this key, by document and locator."""
        return [_fact(row) for row in self._conn().execute(_CONFLICTS, key).fetchall()]

    def get_with_conflicts(self, key: FactKey) -> tuple[Fact | None, list[Fact]]:
        """The fact with this key (or None) and the figures recorded as differing for it, in one statement."""
        fact: Fact | None = None
        others: list[Fact] = []
        for row in self._conn().execute(_GET_WITH_CONFLICTS, key + key).fetchall():
            if row[0]:
                others.append(_fact(row[1:]))
            else:
                fact = _fact(row[1:])
        if len(others) > 1:
            others.sort(key=_by_source)  # as ``conflicts`` orders them
        return fact, others

    def count(self) -> int:
        """Number of facts stored."""
        return int(self._conn().execute("SELECT count(*) FROM fact_metric").fetchone()[0])

    def open_codes(self) -> list[tuple[str, str]]:
        """The metric and entity pairs coded from documents' own words (``label:…``, ``company:…``)."""
        rows = self._conn().execute(
            "SELECT DISTINCT metric_code, entity FROM fact_metric WHERE substr(metric_code, 1, ?) = ? "
            "OR substr(entity, 1, ?) = ? ORDER BY metric_code, entity",
            (len(METRIC_PREFIX), METRIC_PREFIX, len(ENTITY_PREFIX), ENTITY_PREFIX)).fetchall()
        return [(str(m), str(e)) for m, e in rows]

    def by_source(self, source_doc_id: str) -> list[Fact]:
        """The facts one document states, by metric, entity, channel and period (the documents page lists them)."""
        rows = self._conn().execute(
            f"SELECT {_COLUMNS} FROM fact_metric WHERE source_doc_id = ? "
            "ORDER BY metric_code, entity, channel, period_type, period", (source_doc_id,)).fetchall()
        return [_fact(row) for row in rows]

    def delete_by_source(self, source_doc_id: str, *, keep: Collection[FactKey] = ()) -> int:
        """Remove the facts of one document, except those under ``keep``, and its differing figures
        (one transaction)."""
        with self._conn() as conn:
            conn.execute("DELETE FROM fact_conflict WHERE source_doc_id = ?", (source_doc_id,))
            if not keep:
                return conn.execute("DELETE FROM fact_metric WHERE source_doc_id = ?", (source_doc_id,)).rowcount
            kept = set(keep)
            doomed = [key for key in (FactKey(*row) for row in conn.execute(
                "SELECT metric_code, entity, channel, period_type, period FROM fact_metric WHERE source_doc_id = ?",
                (source_doc_id,))) if key not in kept]
            conn.executemany("DELETE FROM fact_metric WHERE metric_code=? AND entity=? AND channel=? "
                             "AND period_type=? AND period=?", doomed)
            return len(doomed)

    def close(self) -> None:
        """Close every thread's connection."""
        self._db.close()


def _row(fact: Fact) -> tuple[object, ...]:
    return (
        fact.metric_code, fact.entity, fact.geography, fact.channel, fact.period_type, fact.period,
        fact.value, fact.unit, fact.source_doc_id, fact.source_locator,
        fact.source_file_hash, fact.extractor_version, fact.mapping_version, int(fact.sensitivity),
    )


def _by_source(fact: Fact) -> tuple[str, str]:
    return fact.source_doc_id, fact.source_locator


_LEVELS = {level.value: level for level in Sensitivity}  # a dict hit costs a fraction of an Enum call
_NEW_FACT = record_builder(Fact)  # every read builds one: its slots set directly, not through __init__


def _fact(row: tuple[Any, ...]) -> Fact:
    (metric, entity, geography, channel, period_type, period, value, unit, doc, locator,
     file_hash, extractor, mapping, sensitivity) = row
    level = _LEVELS.get(sensitivity)
    return _NEW_FACT(metric, entity, geography, channel, period_type, period, value, unit, doc, locator,
                     file_hash, extractor, mapping, Sensitivity(sensitivity) if level is None else level)


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring a fact file written by an older version up to the current columns, in place."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(fact_metric)")}
    if "sensitivity" not in columns:
        conn.execute("ALTER TABLE fact_metric ADD COLUMN sensitivity INTEGER NOT NULL DEFAULT 1")
