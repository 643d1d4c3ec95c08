"""The ask function with SnapStart: its hook primes the Q&A engine before the snapshot, and only then.

Each check runs the handler in a fresh interpreter, as Lambda initialises it. With
``AWS_LAMBDA_INITIALIZATION_TYPE=snap-start`` the runtime's ``snapshot_restore_py`` (the real
library, as the python3.12 runtime ships it) holds the hook the handler registered; the check runs
the registered hooks as the runtime does before it takes the snapshot, with every socket connection
recorded, then reports what the process holds.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.support.ask_child import run_child
from tests.support.cfn import REPO_ROOT

_INITIALISE = textwrap.dedent(
    """
    import gc, json, sys
    connections = []
    sys.addaudithook(lambda event, args: connections.append(repr(args[1])) if event == "socket.connect" else None)
    import functions.ask.app as app
    hooks = []
    if "snapshot_restore_py" in sys.modules:
        import snapshot_restore_py
        for hook, args, kwargs in snapshot_restore_py.get_before_snapshot():  # as the runtime runs them
            hooks.append(hook.__qualname__)
            hook(*args, **kwargs)
    from ragspine.aws import boto3_client
    from ragspine.startup_heap import collections_held
    session = boto3_client._SESSION[0] if boto3_client._SESSION else None
    print(json.dumps({
        "hooks": hooks, "connections": connections,
        "loaded": sorted(name for name in ("snapshot_restore_py", "ragspine.qa.answer", "ragspine.aws.dynamo_facts")
                         if name in sys.modules),
        "credentials_read": session is not None and session._credentials is not None,
        "collector_held": collections_held(), "frozen_objects": gc.get_freeze_count() >= 100_000,
    }))
    """
)
# The function's environment as the template gives it (no endpoint reachable: nothing may connect).
AWS_ENV = {"RAGSPINE_BACKEND": "aws", "RAGSPINE_FACTS_TABLE": "facts", "AWS_DEFAULT_REGION": "us-east-1",
           "AWS_ACCESS_KEY_ID": "snapshot", "AWS_SECRET_ACCESS_KEY": "snapshot",
           "RAGSPINE_DOMAIN_SOURCE": "s3://domain-bucket/company-domain.json", "LAMBDA_TASK_ROOT": str(REPO_ROOT)}


def _initialise(initialization: str | None) -> dict[str, Any]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT), **AWS_ENV}
    if initialization is not None:
        env["AWS_LAMBDA_INITIALIZATION_TYPE"] = initialization
    done = subprocess.run([sys.executable, "-c", _INITIALISE], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_before_the_snapshot_the_hook_primes_the_engine_without_the_network_or_credentials() -> None:
    # GIVEN the ask function initialised for a SnapStart snapshot
    # WHEN the runtime runs the hooks registered before it takes the snapshot
    held = _initialise("snap-start")
    # THEN the one hook is the handler's priming, which loaded the Q&A engine and the fact adapter,
    # opened no connection and read no credentials (the first request after a restore does both)
    assert held["hooks"] == ["prime_before_snapshot"]
    assert held["loaded"] == ["ragspine.aws.dynamo_facts", "ragspine.qa.answer", "snapshot_restore_py"]
    assert held["connections"] == []
    assert held["credentials_read"] is False
    # AND it froze the heap it built and gave the collector back: no restored process walks that heap
    assert held["collector_held"] is False
    assert held["frozen_objects"] is True


@pytest.mark.parametrize("initialization", [None, "on-demand", "provisioned-concurrency"])
def test_any_other_start_registers_nothing_and_defers_the_engine(initialization: str | None) -> None:
    # GIVEN the ask function started without a snapshot (tests, on-demand, provisioned concurrency)
    held = _initialise(initialization)
    # THEN the runtime hooks module is never looked up and the engine waits for the first request,
    # with the collector held until that request ends
    assert held == {"hooks": [], "connections": [], "loaded": [], "credentials_read": False,
                    "collector_held": True, "frozen_objects": False}


_ANSWER = textwrap.dedent(
    """
    import json, sys
    import functions.ask.app as app
    from ragspine.facts.sqlite_store import SqliteFactStore
    from ragspine.settings import get_settings
    from tests.support.ask_child import ask
    from tests.support.samples import load_sample_facts

    load_sample_facts(SqliteFactStore(get_settings().facts_db_path))  # the ACME sample facts, in both processes
    if sys.argv[1] == "primed":
        app.prime_before_snapshot()
    print(json.dumps({"answers": [ask(app, question)[1] for question in sys.argv[2:]]}, ensure_ascii=False))
    """
)
QUESTIONS = ("2024年日本的毛利率是多少", "What was ACME Japan's revenue in FY2024?", "2024年度の売上高はいくらですか",
             "What is the weather today?", "2023年和2024年日本的毛利率平均是多少")


def test_a_primed_process_answers_as_an_unprimed_one(tmp_path: Path) -> None:
    # GIVEN two fresh ask functions on the same (embedded) facts, one primed as before a snapshot
    def answers(mode: str) -> list[dict[str, Any]]:
        env = {"PATH": "/usr/bin:/bin", "AWS_DEFAULT_REGION": "us-east-1", "PYTHONPATH": str(REPO_ROOT),
               "RAGSPINE_BACKEND": "embedded", "RAGSPINE_DATA_DIR": str(tmp_path / mode), "RAGSPINE_EMBEDDER": "none"}
        return list(run_child(_ANSWER, mode, *QUESTIONS, env=env)["answers"])
    # WHEN each answers the same questions
    # THEN the answers are the same, word for word
    unprimed = answers("unprimed")
    assert answers("primed") == unprimed
    assert [answer["status"] for answer in unprimed] == ["found", "found", "found", "refused", "found"]
