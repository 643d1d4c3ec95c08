"""``ThreadLocalSqlite``: one connection per thread to one SQLite file, as every embedded store uses it.

WAL lets readers run while a writer commits; ``synchronous=NORMAL`` with WAL survives a process
crash and syncs at checkpoints only (FULL cost about 8 ms per commit on these machines). The
file's folder is created on first use, so a fresh ``RAGSPINE_DATA_DIR`` just works.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from ragspine.errors import ProviderUnavailableError


class ThreadLocalSqlite:
    """Opens the file once per thread; ``connection()`` returns this thread's connection."""

    def __init__(self, path: Path | str, *, label: str) -> None:
        self.path = str(path)
        self._label = label
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()

    def connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use.

        Raises:
            ProviderUnavailableError: the file cannot be opened (a folder, no permission, not a database).
        """
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, timeout=30)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
            except sqlite3.Error as exc:
                raise ProviderUnavailableError(f"the {self._label} cannot be opened ({exc})") from exc
            self._local.conn = conn
        return conn

    def close(self) -> None:
        """Close this thread's connection (other threads close theirs on exit)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
