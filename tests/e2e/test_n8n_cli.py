"""A real third-party n8n client (n8n-cli, from PyPI) against our n8n-compatible API over a real socket.

The app runs in uvicorn on 127.0.0.1 with an n8n key; the CLI, as a user runs it (its own process,
configured by N8N_API_URL / N8N_API_KEY), creates a webhook workflow, the webhook is called, and
``n8n-cli executions`` / ``n8n-cli execution`` read the recorded runs back as JSON. Two CLI commands
use routes n8n's public API does not have, so the test does not use them: ``enable`` sends
``PATCH /workflows/{id} {"active": true}`` (n8n and we answer 405: activation is
``POST /workflows/{id}/activate``, called here with httpx) and ``trigger`` calls
``POST /workflows/{id}/execute``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from ragspine.settings import Settings
from ragspine.workflows.surfaces.key_admin import create_n8n_key
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.loopback import serve
from tests.support.workflow_api import echo_n8n, make_components

pytest.importorskip("uvicorn")
CLI = Path(sys.executable).with_name("n8n-cli")
pytestmark = pytest.mark.skipif(not CLI.exists(), reason="n8n-cli is not installed (pip install n8n-cli)")


@dataclass(frozen=True)
class N8nServer:
    """Where the app listens and the environment that configures the CLI for it."""

    base_url: str
    env: dict[str, str]

    def cli(self, *args: str) -> Any:
        done = subprocess.run([str(CLI), "--format", "json", "--no-color", *args], env=self.env,
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr or done.stdout
        return json.loads(done.stdout)


@pytest.fixture
def n8n_server(settings: Settings, tmp_path: Path) -> Iterator[N8nServer]:
    from ragspine.api.app import create_local_app
    from ragspine.api.workflow_deps import workflow_components

    components = make_components(SqliteWorkflowStore(tmp_path / "workflows.db"), enabled=True)
    key = create_n8n_key(components).plaintext
    app = create_local_app()
    app.dependency_overrides[workflow_components] = lambda: components
    with serve(app, name="n8n-cli-uvicorn") as base_url:
        env = {**os.environ, "N8N_API_URL": base_url, "N8N_API_KEY": key, "HOME": str(tmp_path / "home")}
        yield N8nServer(base_url, env)


def test_the_cli_lists_and_reads_the_executions_of_a_webhook_workflow(n8n_server: N8nServer,
                                                                       tmp_path: Path) -> None:
    export = tmp_path / "echo.json"
    export.write_text(json.dumps(echo_n8n(path="cli-echo")), encoding="utf-8")
    workflow_id = n8n_server.cli("create", "--file", str(export))["id"]
    activated = httpx.post(f"{n8n_server.base_url}/api/v1/workflows/{workflow_id}/activate",
                           headers={"X-N8N-API-KEY": n8n_server.env["N8N_API_KEY"]}, timeout=10)
    assert activated.status_code == 200 and activated.json()["active"] is True
    for text in ("first", "second"):
        reply = httpx.post(f"{n8n_server.base_url}/webhook/cli-echo", json={"text": text}, timeout=10)
        assert reply.status_code == 200 and reply.json() == {"result": text}

    listed = n8n_server.cli("executions", "--workflow", workflow_id, "--status", "success")
    assert [e["workflowId"] for e in listed] == [workflow_id, workflow_id]
    assert all(e["status"] == "success" and e["startedAt"] and e["stoppedAt"] for e in listed)
    assert n8n_server.cli("executions", "--status", "error") == []

    newest = n8n_server.cli("execution", str(listed[0]["id"]))
    assert (newest["id"], newest["workflowId"], newest["status"]) == (listed[0]["id"], workflow_id, "success")


def test_an_unknown_execution_is_the_clis_not_found(n8n_server: N8nServer) -> None:
    done = subprocess.run([str(CLI), "--format", "json", "execution", "424242"], env=n8n_server.env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0 and "not found" in (done.stderr + done.stdout).lower()
