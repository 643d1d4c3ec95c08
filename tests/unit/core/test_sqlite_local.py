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


def test_each_thread_keeps_one_reading_cursor_on_its_own_connection_until_close(tmp_path: Path) -> None:
    db = ThreadLocalSqlite(tmp_path / "x.db", label="test database")
    mine = db.cursor()
    assert db.cursor() is mine and mine.connection is db.connection()
    assert mine.execute("SELECT 1").fetchall() == [(1,)]
    other: list[object] = []
    thread = threading.Thread(target=lambda: other.append(db.cursor()))
    thread.start()
    thread.join()
    assert other[0] is not mine
    db.close()
    again = db.cursor()  # a new connection, and a cursor on it: the closed one's cursor is not handed out
    assert again is not mine and again.connection is db.connection()
    assert again.execute("SELECT 2").fetchall() == [(2,)]
    db.close()
    db.connection()  # the connection reopened first: the cursor follows it
    assert db.cursor().connection is db.connection() and db.cursor().execute("SELECT 3").fetchall() == [(3,)]
    db.close()


def test_a_path_that_cannot_be_opened_is_a_typed_error_naming_the_store(tmp_path: Path) -> None:
    (tmp_path / "facts.db").mkdir()  # a folder where the database file should be
    with pytest.raises(ProviderUnavailableError, match="the fact database cannot be opened"):
        SqliteFactStore(tmp_path / "facts.db")


def _open_files(path: Path) -> int:
    """Descriptors of this process open on ``path`` (its WAL and shared-memory files count apart)."""
    fds = Path("/proc/self/fd")
    return sum(1 for entry in fds.iterdir() if _target(entry) == str(path))


def _target(entry: Path) -> str | None:
    try:
        return str(entry.readlink())
    except OSError:
        return None


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors through /proc")
def test_close_closes_the_connection_of_every_thread_that_used_the_file(tmp_path: Path) -> None:
    # GIVEN a store used by three threads that are still alive (a pool's parked workers)
    path = tmp_path / "x.db"
    db = ThreadLocalSqlite(path, label="test database")
    db.connection()
    opened, release = threading.Barrier(4), threading.Event()

    def worker() -> None:
        db.connection().execute("SELECT 1")
        opened.wait()
        release.wait()

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    opened.wait()
    assert _open_files(path) == 4
    # WHEN the store is closed from the main thread
    db.close()
    # THEN no connection to the file is left open, and a later use opens a new one
    assert _open_files(path) == 0
    release.set()
    for thread in threads:
        thread.join()
    db.connection().execute("SELECT 1")
    assert _open_files(path) == 1
    db.close()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors through /proc")
def test_the_connection_of_a_thread_that_ended_is_closed_when_another_opens(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    db = ThreadLocalSqlite(path, label="test database")
    for _ in range(5):  # a server's pool: threads come and go
        thread = threading.Thread(target=lambda: db.connection().execute("SELECT 1"))
        thread.start()
        thread.join()
    db.connection()
    assert _open_files(path) <= 2  # this thread's, and at most the last ended thread's until the next open
    db.close()
