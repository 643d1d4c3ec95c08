"""Spread the suite over CPU cores (``pytest -n auto --dist loadfile``) without repeating expensive set-ups.

Each test file is one unit of work, so a module's fixtures (an ingest, a server) run once. The folders
whose files share one session-wide server (the ask page's two sample services, the end-to-end local
service) are kept on one worker, so those services start once per run, not once per worker. The units
that take minutes (a ``slow`` test, a shared folder) are handed out first and the many short files last,
so the run does not end with one worker busy on a long unit while the other waits.
"""

from __future__ import annotations

import pytest
from xdist.scheduler import LoadScopeScheduling

# Folders whose test files share a session-scoped service: one unit of work each.
SHARED_SESSION_FOLDERS = ("tests/browser/", "tests/e2e/")


def unit_of_work(nodeid: str) -> str:
    """The test file, or the shared-session folder holding it."""
    for folder in SHARED_SESSION_FOLDERS:
        if nodeid.startswith(folder):
            return folder
    return nodeid.split("::", 1)[0]


def long_units_first(items: list[pytest.Item]) -> None:
    """Reorder the collection in place (stable): the units holding a ``slow`` test or a shared folder first."""
    long_units = {unit_of_work(item.nodeid) for item in items if item.get_closest_marker("slow") is not None}
    long_units.update(SHARED_SESSION_FOLDERS)
    items.sort(key=lambda item: unit_of_work(item.nodeid) not in long_units)


class FileOrSharedFolderScheduling(LoadScopeScheduling):  # type: ignore[misc]  # xdist ships no types
    """Load scheduling by unit of work, in the collection's order (``--no-loadscope-reorder``)."""

    def _split_scope(self, nodeid: str) -> str:
        return unit_of_work(nodeid)
