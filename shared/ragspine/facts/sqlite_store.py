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


def _table(name: str, primary_key: str, *extra: tuple[str, str]) -> str:
    columns = "".join(f"    {column} {kind},\n" for column, kind in (*_COLUMN_TYPES, *extra))
    return (f"CREATE TABLE IF NOT EXISTS {name} (\n{columns}    PRIMARY KEY ({primary_key})\n) STRICT, WITHOUT ROWID;\n"
            f"CREATE INDEX IF NOT EXISTS {name}_by_source ON {name} (source_doc_id);\n")


def _insert(table: str) -> str:
    return f"INSERT OR REPLACE INTO {table} ({_COLUMNS}) VALUES ({', '.join('?' * len(_COLUMN_TYPES))})"


# A fact's row says whether figures differing from it may be recorded (``has_conflicts``), so the
# usual read, a fact with none, is one primary-key lookup of one table. A fact is flagged as it is
# written (``_PUT``, from the figures recorded before it); the triggers keep the flag after: 1 once a
# differing figure is recorded under its key (inserted, replaced or re-keyed, by this store or not),
# back to 0 when the last one is deleted. A flag of 1 with none left would only cost a read.
_HAS_CONFLICTS = ("has_conflicts", "INTEGER NOT NULL DEFAULT 0")


def _same_key(table: str, row: str) -> str:
    return " AND ".join(f"{table}.{name} = {row}.{name}" for name in _KEY.split(", "))


_FLAG_TRIGGERS = f"""
CREATE TRIGGER IF NOT EXISTS fact_conflict_flags_fact AFTER INSERT ON fact_conflict BEGIN
    UPDATE fact_metric SET has_conflicts = 1 WHERE {_same_key("fact_metric", "NEW")};
END;
CREATE TRIGGER IF NOT EXISTS fact_conflict_rekey_flags_fact AFTER UPDATE OF {_KEY} ON fact_conflict BEGIN
    UPDATE fact_metric SET has_conflicts = 1 WHERE {_same_key("fact_metric", "NEW")};
END;
CREATE TRIGGER IF NOT EXISTS fact_conflict_last_unflags_fact AFTER DELETE ON fact_conflict
WHEN NOT EXISTS (SELECT 1 FROM fact_conflict WHERE {_same_key("fact_conflict", "OLD")}) BEGIN
    UPDATE fact_metric SET has_conflicts = 0 WHERE {_same_key("fact_metric", "OLD")};
END;
CREATE TRIGGER IF NOT EXISTS fact_metric_flagged_on_rekey AFTER UPDATE OF {_KEY}, has_conflicts ON fact_metric
WHEN EXISTS (SELECT 1 FROM fact_conflict WHERE {_same_key("fact_conflict", "NEW")}) BEGIN
    UPDATE fact_metric SET has_conflicts = 1 WHERE {_same_key("fact_metric", "NEW")} AND has_conflicts = 0;
END;
"""
_SCHEMA = (_table("fact_metric", _KEY, _HAS_CONFLICTS)
           + _table("fact_conflict", f"{_KEY}, source_doc_id, source_locator"))
# a fact written is flagged from the differing figures already recorded for its key, in the same statement
_PARAMETER = {name: f"?{number}" for number, (name, _) in enumerate(_COLUMN_TYPES, 1)}  # each column's, by number
_PUT = (f"INSERT OR REPLACE INTO fact_metric ({_COLUMNS}, has_conflicts) VALUES ({', '.join(_PARAMETER.values())}, "
        "EXISTS (SELECT 1 FROM fact_conflict WHERE "
        f"{' AND '.join(f'{name} = {_PARAMETER[name]}' for name in _KEY.split(', '))}))")
_PUT_CONFLICTS = _insert("fact_conflict")
_GET = f"SELECT {_COLUMNS} FROM fact_metric WHERE {_KEY_MATCH}"
_CONFLICTS = f"SELECT {_COLUMNS} FROM fact_conflict WHERE {_KEY_MATCH} ORDER BY source_doc_id, source_locator"
# The fact and whether figures differing from it may be recorded: the structured answer of every
# question reads both, and the differing figures only where the row says so (or no fact is stored).
_GET_FLAGGED = f"SELECT has_conflicts, {_COLUMNS} FROM fact_metric WHERE {_KEY_MATCH}"


class SqliteFactStore:
    """Facts in a SQLite file; one connection per thread, WAL so readers never wait on a writer."""

    def __init__(self, path: Path | str) -> None:
        self._db = ThreadLocalSqlite(path, label="fact database")
        self._conn = self._db.connection
        self._cursor = self._db.cursor  # this thread's reading cursor, for a statement whose rows are read at once
        with self._conn() as conn:
            conn.executescript(_SCHEMA)
            _migrate(conn)
            conn.executescript(_FLAG_TRIGGERS)

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
        rows = self._cursor().execute(_GET_FLAGGED, key).fetchall()
        if not rows:
            return None, self.conflicts(key)  # differing figures may outlive the fact they differed from
        row = rows[0]
        fact = _fact(row[1:])
        return fact, (self.conflicts(key) if row[0] else [])

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
    if "has_conflicts" not in columns:  # a file of before the flag: each fact flagged from the figures recorded
        conn.execute(f"ALTER TABLE fact_metric ADD COLUMN {' '.join(_HAS_CONFLICTS)}")
        conn.execute("UPDATE fact_metric SET has_conflicts = 1 WHERE EXISTS "
                     f"(SELECT 1 FROM fact_conflict WHERE {_same_key('fact_conflict', 'fact_metric')})")
