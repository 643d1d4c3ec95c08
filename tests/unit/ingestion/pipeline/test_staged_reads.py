"""Staged outputs read back whole, without holding the interpreter lock for the whole of a large one."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.sqlite_operations import SqliteOperationStore
from tests.support.lock_pauses import longest_pause


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=5000), st.integers(0, 3))
def test_a_staged_output_comes_back_byte_for_byte(data: bytes, megabytes: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        store = SqliteOperationStore(Path(folder) / "operations.db")
        value = data * (1 + megabytes * (1 << 20) // max(len(data), 1)) if data else b""
        store.put("op-1", "chunks", value)
        assert store.get_staged("op-1", "chunks") == value
        assert store.get_staged("op-1", "other") is None
        store.put("op-1", "chunks", b"replaced")
        assert store.get_staged("op-1", "chunks") == b"replaced"


def test_other_threads_run_while_a_large_staged_output_is_read(tmp_path: Path) -> None:
    """A 2,000-page PDF stages about 15 MB of chunks. Read in one piece, SQLite copied it out with the
    interpreter lock held (a ticking thread beside an ingest was kept waiting for hundreds of ms)."""
    store = SqliteOperationStore(tmp_path / "operations.db")
    value = os.urandom(1 << 20) * 96
    store.put("op-1", "chunks", value)
    store.get_staged("op-1", "missing")  # the connection opened outside the measured read
    paused = longest_pause(lambda: store.get_staged("op-1", "chunks"))
    assert paused.value == value
    assert paused.longest_s < paused.call_s / 4, paused.message("read")
