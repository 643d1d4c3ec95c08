"""Ending a code run's group waits for the group to empty before removing it, as a busy host needs."""

from __future__ import annotations

import threading
from pathlib import Path

from ragspine.workflows.run.code_cgroup import RunCgroup


def test_a_group_still_busy_for_seconds_is_removed_once_it_empties(tmp_path: Path) -> None:
    # A folder that is not empty cannot be removed, as a cgroup cannot while its killed processes are reaped
    # (seconds, when they were killed under memory pressure on a loaded host).
    folder = tmp_path / "ragspine-code-run"
    folder.mkdir()
    busy = folder / "cgroup.procs"
    busy.write_text("", encoding="ascii")  # no process listed: only the reaping is left
    reaped = threading.Timer(2.5, busy.unlink)
    reaped.start()
    try:
        assert RunCgroup("cgroup-v1", (folder,)).end() == 0
    finally:
        reaped.join()
    assert not folder.exists()
