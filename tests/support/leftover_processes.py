"""Processes a test's code started, found by a marker in their command line, and killed when the test ends."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def processes_with(marker: str) -> list[int]:
    """The ids of the running processes whose command line holds ``marker`` (Linux: read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue  # the process ended while we looked
    return found


@contextmanager
def killed_after(marker: str) -> Iterator[None]:
    """Run the block; then, whether it passed or not, kill every process whose command line holds ``marker``."""
    try:
        yield
    finally:
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)
