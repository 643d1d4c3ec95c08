"""Lambda SnapStart's runtime hooks, registered only where a snapshot is being taken.

With SnapStart, Lambda initialises a published version once (``AWS_LAMBDA_INITIALIZATION_TYPE`` is
``snap-start`` then), runs the hooks registered with the runtime's ``snapshot_restore_py`` before it
takes the snapshot, and resumes every later cold start from it. That module ships only in Lambda's
Python runtimes, so it is looked up only in that initialisation: anywhere else (an on-demand start,
the tests, the embedded service) registering does nothing and imports nothing.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable

SNAPSHOT_INITIALIZATION = "snap-start"
RUNTIME_HOOKS_MODULE = "snapshot_restore_py"


def taking_snapshot() -> bool:
    """Whether this process is the initialisation Lambda snapshots (a SnapStart version being published)."""
    return os.environ.get("AWS_LAMBDA_INITIALIZATION_TYPE") == SNAPSHOT_INITIALIZATION


def register_before_snapshot(hook: Callable[[], object]) -> bool:
    """Have the runtime call ``hook`` before it takes the snapshot; False (and nothing imported) elsewhere."""
    if not taking_snapshot():
        return False
    # By name, not an import statement: the module exists only in Lambda's runtime, never in a layer.
    runtime_hooks = importlib.import_module(RUNTIME_HOOKS_MODULE)
    runtime_hooks.register_before_snapshot(hook)
    return True
