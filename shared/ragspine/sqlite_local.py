"""``ThreadLocalSqlite``: one connection per thread to one SQLite file, as every embedded store uses it.

WAL lets readers run while a writer commits; ``synchronous=NORMAL`` with WAL survives a process
crash and syncs at checkpoints only (FULL cost about 8 ms per commit on these machines). The
file's folder is created on first use, so a fresh ``RAGSPINE_DATA_DIR`` just works.

Every connection opened is also listed with its thread, so ``close()`` closes them all (a store
used from a thread pool holds one per worker thread), and a thread that ended has its connection
closed when another thread next opens one (threads come and go in a server's pool).
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from pathlib import Path
from typing import Literal

from ragspine.errors import ProviderUnavailableError


class ThreadLocalSqlite:
    """Opens the file once per thread; ``connection()`` returns this thread's connection."""

    def __init__(self, path: Path | str, *, label: str, timeout: float = 30,
                 isolation_level: Literal["DEFERRED", "EXCLUSIVE", "IMMEDIATE"] | None = "DEFERRED",
                 owns_folder: bool = True) -> None:
        """Args:
            isolation_level: None for autocommit (the caller's transactions are explicit).
            owns_folder: create the file's folder, and report an unopenable file as
                ``ProviderUnavailableError``; False leaves both to the caller (its sqlite3 errors as raised).
        """
        self.path = str(path)
        self._label = label
        self._timeout = timeout
        self._isolation_level = isolation_level
        self._owns_folder = owns_folder
        if owns_folder and self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open: list[tuple[weakref.ref[threading.Thread], sqlite3.Connection]] = []
        self._generation = 0  # bumped by close(): a thread's older connection is closed, it opens a new one

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use.

        Raises:
            ProviderUnavailableError: the file cannot be opened (a folder, no permission, not a database).
        """
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None and getattr(self._local, "generation", None) == self._generation:
            return conn
        try:
            # Used by this thread only; another thread may close it (close(), or after this thread ended).
            conn = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=self._isolation_level,
                                   check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as exc:
            if not self._owns_folder:
                raise
            raise ProviderUnavailableError(f"the {self._label} cannot be opened ({exc})") from exc
        with self._lock:
            ended = [(owner, c) for owner, c in self._open if (t := owner()) is None or not t.is_alive()]
            self._open = [entry for entry in self._open if entry not in ended]
            self._open.append((weakref.ref(threading.current_thread()), conn))
            self._local.conn, self._local.generation = conn, self._generation
            self._local.cursor = None  # the one reading cursor belongs to the connection it was opened on
        for _owner, stale in ended:
            stale.close()
        return conn

    def cursor(self) -> sqlite3.Cursor:
        """This thread's one reading cursor on its connection, kept between calls.

        For a statement whose rows are all fetched at once (``fetchall``, which ends the statement and
        its read): a cursor built per statement, as ``Connection.execute`` builds one, costs about as
        much as binding the statement's parameters. A caller that leaves rows unread, or runs another
        statement before reading them, takes its own cursor from ``connection()``.
        """
        local = self._local
        cursor: sqlite3.Cursor | None = getattr(local, "cursor", None)
        if cursor is not None and local.generation == self._generation:
            return cursor
        cursor = self.connection().cursor()
        local.cursor = cursor
        return cursor

    def close(self) -> None:
        """Close every thread's connection; a thread that uses the store afterwards opens a new one."""
        with self._lock:
            opened, self._open = self._open, []
            self._generation += 1
            self._local.conn = self._local.cursor = None
        for _owner, conn in opened:
            conn.close()
