"""What the code node's jail is made of: the paths it may see read-only and the limits inside it.

The jail itself is built by ``_code_jail.py`` in the child; this module only computes its plan
(the interpreter's install prefix and the system libraries, nothing else) and refuses a plan
that would expose a protected folder such as the data folder.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ragspine.workflows.errors import WorkflowCodeIsolationError
from ragspine.workflows.run.code_seccomp import seccomp_program

JAIL = Path(__file__).resolve().with_name("_code_jail.py")
RUNNER = Path(__file__).resolve().with_name("_code_runner.py")
# The loader needs the libraries and its cache; nothing else of /etc is visible.
_LIBRARY_DIRS = ("/lib", "/lib64", "/lib32", "/libx32", "/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/libx32")
_LOADER_CACHE = "/etc/ld.so.cache"
# Each run gets its own unprivileged uid from this range (owned by no account), so runs cannot
# signal each other's processes and the process-count limit is counted per run.
_UID_BASE, _UID_SPAN = 1_800_000_000, 100_000_000


def interpreter() -> str:
    """The real interpreter behind ``sys.executable`` (a venv's python is a link to it)."""
    return os.path.realpath(sys.executable)


def _visible_paths(python: str) -> tuple[list[str], list[str]]:
    links, binds = [], []
    for path in _LIBRARY_DIRS:
        if Path(path).is_symlink():
            links.append(path)
        elif Path(path).is_dir():
            binds.append(path)
    prefixes = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix), str(Path(python).parents[1])}
    binds.extend(sorted(p for p in prefixes if not any(_inside(p, b) for b in binds)))
    if Path(_LOADER_CACHE).is_file():
        binds.append(_LOADER_CACHE)
    return links, binds


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def jail_plan(*, root: str, python: str, limits: dict[str, int], work_bytes: int,
              protected: Iterable[str]) -> dict[str, Any]:
    """The plan ``_code_jail.py`` builds: read-only binds, links, the run's uid and its rlimits.

    Raises:
        WorkflowCodeIsolationError: a read-only bind would expose a protected folder, or the seccomp
            filter cannot be built here.
    """
    links, binds = _visible_paths(python)
    for folder in protected:
        real = os.path.realpath(folder)
        exposed = [b for b in binds if _inside(real, os.path.realpath(b))]
        if exposed:
            raise WorkflowCodeIsolationError(
                f"the code jail would expose the protected folder {folder} through {exposed[0]}; move the data "
                "folder out of the interpreter's install prefix and the system library folders")
    return {"root": root, "python": python, "links": links, "binds": binds, "limits": limits,
            "work_bytes": work_bytes, "uid": _UID_BASE + secrets.randbelow(_UID_SPAN),
            "runner_source": RUNNER.read_text(encoding="utf-8"), "seccomp": seccomp_program()}
