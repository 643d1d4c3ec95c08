"""The local service keeps what it built at startup out of later garbage collections.

A full collection walks every object it tracks with the interpreter lock held. The service's
modules, classes, routes and settings (over 100,000 objects) are never garbage, and walking them
stopped the ask routes' threads in the full collection that follows an ingestion step. Each check
runs in a fresh interpreter: the freeze happens once per process, whatever ran before it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

_STARTS = """
import gc, json
from fastapi.testclient import TestClient
from ragspine.api.app import create_local_app

app = create_local_app()
gc.collect()
built = len(gc.get_objects())
with TestClient(app):
    walked = len(gc.get_objects())  # what a full collection walks now: the permanent generation is skipped
    app_walked = any(found is app for found in gc.get_objects())
    frozen = gc.get_freeze_count()
second = create_local_app()
with TestClient(second):
    frozen_after_second = gc.get_freeze_count()
    second_walked = any(found is second for found in gc.get_objects())
print(json.dumps({"built": built, "walked": walked, "app_walked": app_walked, "frozen": frozen,
                  "frozen_after_second": frozen_after_second, "second_walked": second_walked}))
"""


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Two local services started one after the other in a fresh interpreter, as seen from inside."""
    tmp_path = tmp_path_factory.mktemp("startup")
    env = {**os.environ, "RAGSPINE_DATA_DIR": str(tmp_path / "data"), "RAGSPINE_ENV": "test",
           "RAGSPINE_EMBEDDER": "none", "PYTHONPATH": os.pathsep.join([str(REPO / "shared"), str(REPO)])}
    done = subprocess.run([sys.executable, "-c", _STARTS], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_a_started_service_keeps_its_startup_objects_out_of_later_collections(started: dict[str, object]) -> None:
    assert started["app_walked"] is False
    assert isinstance(started["walked"], int) and isinstance(started["built"], int)
    assert started["walked"] < started["built"] // 5, started


def test_only_the_first_service_of_a_process_is_frozen(started: dict[str, object]) -> None:
    # A later app (another test's) may become cyclic garbage, which a frozen object is never collected as.
    # (Frozen objects still go by their reference counts, so the count may fall, never rise.)
    assert isinstance(started["frozen_after_second"], int) and isinstance(started["frozen"], int)
    assert started["frozen_after_second"] <= started["frozen"]
    assert started["second_walked"] is True
