"""``ThreadLocalSqlite``: one connection per thread, WAL + NORMAL, typed error when the file cannot open."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from ragspine.errors import ProviderUnavailableError
from ragspine.facts.sqlite_store import SqliteFactStore
from ragspine.sqlite_local import ThreadLocalSqlite


def test_each_thread_gets_its_own_connection_in_wal_mode_with_normal_sync(tmp_path: Path) -> None:
    db = ThreadLocalSqlite(tmp_path / "new" / "x.db", label="test database")
    mine = db.connection()
    assert db.connection() is mine
    other: list[object] = []
    thread = threading.Thread(target=lambda: other.append(db.connection()))
    thread.start()
    thread.join()
    assert other[0] is not mine
    assert mine.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert mine.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    db.close()
    assert db.connection() is not mine


def test_a_path_that_cannot_be_opened_is_a_typed_error_naming_the_store(tmp_path: Path) -> None:
    (tmp_path / "facts.db").mkdir()  # a folder where the database file should be
    with pytest.raises(ProviderUnavailableError, match="the fact database cannot be opened"):
        SqliteFactStore(tmp_path / "facts.db")
