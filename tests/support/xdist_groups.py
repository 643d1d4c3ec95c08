"""Spread the suite over CPU cores (``pytest -n auto --dist loadfile``) without repeating expensive set-ups.

Each test file is one unit of work, so a module's fixtures (an ingest, a server) run once. The folders
whose files share one session-wide server (the ask page's two sample services, the end-to-end local
service) are kept on one worker, so those services start once per run, not once per worker.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

# Folders whose test files share a session-scoped service: one unit of work each.
SHARED_SESSION_FOLDERS = ("tests/browser/", "tests/e2e/")


class FileOrSharedFolderScheduling(LoadScopeScheduling):
    """Load scheduling by test file, except that each shared-session folder is one unit."""

    def _split_scope(self, nodeid: str) -> str:
        for folder in SHARED_SESSION_FOLDERS:
            if nodeid.startswith(folder):
                return folder
        return nodeid.split("::", 1)[0]
