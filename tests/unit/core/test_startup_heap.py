"""The collector held while a function starts, and the startup heap frozen when it ends.

The thresholds and the permanent generation belong to the whole interpreter, so each check runs in
a fresh one and reports what the collector did (``gc.callbacks`` counts every collection).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

from tests.support.cfn import REPO_ROOT

_START = textwrap.dedent(
    """
    import gc, json
    from ragspine.startup_heap import collections_held, hold_collections, release_collections

    collections = []
    gc.callbacks.append(lambda phase, info: collections.append(info["generation"]) if phase == "start" else None)
    default = gc.get_threshold()
    hold_collections()
    hold_collections()  # a second hold keeps the first one's thresholds to put back
    held = collections_held()
    # what an import builds: many objects that outlive it, in containers the collector tracks
    startup = [{"name": str(i), "parts": [i, (i, str(i))]} for i in range(60_000)]
    during = len(collections)
    release_collections()
    release_collections()  # a later release changes nothing
    after_release = {"threshold": list(gc.get_threshold()), "frozen": gc.get_freeze_count(),
                     "tracked": len(gc.get_objects()), "held": collections_held()}
    later = [[i] for i in range(10_000)]  # what a later request makes: collected as usual
    print(json.dumps({"default": list(default), "held": held, "during": during, "after": after_release,
                      "later": len(collections) - during, "startup_kept": len(startup)}))
    """
)


def _run() -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _START], cwd=REPO_ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT / "shared")},
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_no_collection_runs_while_held_and_later_ones_skip_the_frozen_startup_heap() -> None:
    # GIVEN a fresh interpreter holding its collector
    # WHEN it builds some hundred thousand lasting objects, releases the hold, then allocates more
    outcome = _run()
    # THEN no collection ran while held, which the default thresholds would have run a hundred times
    assert outcome["held"] is True
    assert outcome["during"] == 0, outcome
    # AND the release froze what startup built, so later collections walk none of it
    after = outcome["after"]
    assert after["frozen"] >= 120_000, after
    assert after["tracked"] < 100, after
    # AND the process's own thresholds came back, from the first hold, and collections run again
    assert after["threshold"] == outcome["default"]
    assert after["held"] is False
    assert outcome["later"] >= 1, outcome
