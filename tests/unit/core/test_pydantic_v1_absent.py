"""pydantic.v1 declared absent: refused to every importer, FastAPI's check answered without it, nothing else changed.

Each check runs in a fresh interpreter: the declaration changes the import system of its process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tests.support.cfn import REPO_ROOT

_DECLARED = textwrap.dedent(
    """
    import json, sys
    from ragspine.pydantic_v1_absent import declare_pydantic_v1_absent
    refused = declare_pydantic_v1_absent()
    outcome = {"refused": refused}
    for name in ("pydantic.v1", "pydantic.v1.main", "pydantic", "pydantic.networks", "fastapi"):
        try:
            __import__(name)
            outcome[name] = "imported"
        except ModuleNotFoundError as exc:
            outcome[name] = f"refused as {exc.name}"
    print(json.dumps(outcome))
    """
)


def _run(code: str, *args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=REPO_ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{REPO_ROOT / 'shared'}:{REPO_ROOT}"},
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_once_declared_only_pydantic_v1_and_its_modules_are_refused() -> None:
    # GIVEN a fresh interpreter that declares pydantic.v1 absent
    # WHEN it imports pydantic's v1 package, one of its modules, and pydantic 2 and FastAPI
    outcome = _run(_DECLARED)
    # THEN the v1 package is refused by name (so are its modules, the package first), and everything else imports
    assert outcome == {"refused": True, "pydantic.v1": "refused as pydantic.v1",
                       "pydantic.v1.main": "refused as pydantic.v1",
                       "pydantic": "imported", "pydantic.networks": "imported", "fastapi": "imported"}


def test_a_process_that_already_imported_pydantic_v1_keeps_it() -> None:
    # GIVEN a process that imported pydantic.v1 before the declaration
    # WHEN it declares it absent and imports it again
    outcome = _run("import pydantic.v1\n" + _DECLARED)
    # THEN nothing is refused: whoever imported it still has it
    assert outcome["refused"] is False
    assert outcome["pydantic.v1"] == "imported" and outcome["pydantic.v1.main"] == "imported"


_APP = textwrap.dedent(
    """
    import json, sys
    if sys.argv[1] == "declared":
        from ragspine.pydantic_v1_absent import declare_pydantic_v1_absent
        declare_pydantic_v1_absent()
    from fastapi.testclient import TestClient
    from ragspine.api.app import create_app
    from ragspine.api.routers import ask, health
    app = create_app(routers=[health.router, ask.router])
    client = TestClient(app)
    replies = [client.post("/v1/ask", json=body) for body in
               ({"question": ""}, {"question": 3}, {"history": [{"role": 0, "content": "x"}]}, {})]
    print(json.dumps({"openapi": app.openapi(), "health": client.get("/healthz").status_code,
                      "replies": [[reply.status_code, reply.json()["data"], reply.json()["meta"]["error"]]
                                  for reply in replies],
                      "v1_loaded": "pydantic.v1" in sys.modules}))
    """
)


def test_fastapi_builds_the_same_ask_api_with_pydantic_v1_declared_absent() -> None:
    # GIVEN the ask function's app built in two fresh interpreters, one declaring pydantic.v1 absent
    # WHEN each publishes its OpenAPI document and answers requests its models refuse
    usual, declared = _run(_APP, "usual"), _run(_APP, "declared")
    # THEN the declaring one never loaded pydantic.v1, the usual one did (FastAPI's check imports it)
    assert (usual.pop("v1_loaded"), declared.pop("v1_loaded")) == (True, False)
    # AND both publish the same contract and give the same answers, word for word
    assert declared == usual
    assert declared["health"] == 200
    assert [reply[0] for reply in declared["replies"]] == [400, 400, 400, 400]  # type: ignore[attr-defined]
