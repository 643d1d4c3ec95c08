"""The ask function in a fresh interpreter, as Lambda starts it: what the cold-start checks run.

A check writes the script its child runs: what it records, ``import functions.ask.app as app``, then
``ask(app, question)`` from here (the event API Gateway sends, the context Lambda passes), and one
JSON line last. ``run_child`` runs it from the repository root and reads that line. The module
imports only the standard library, so a child that imports it loads nothing the checks look for.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
ASK_EVENT = REPO_ROOT / "events" / "ask_found.json"


class LambdaContext:
    """The context Lambda passes the ask function's handler."""

    function_name, memory_limit_in_mb, aws_request_id = "ragspine-ask", 512, "first-ask"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:ragspine-ask"


def ask_event(question: str | None = None) -> dict[str, Any]:
    """API Gateway's ``POST /v1/ask`` event (``events/ask_found.json``), asking ``question`` when given."""
    event: dict[str, Any] = json.loads(ASK_EVENT.read_text(encoding="utf-8"))
    if question is not None:
        event["body"] = json.dumps({"question": question})
    return event


def ask(app: Any, question: str | None = None) -> tuple[int, dict[str, Any]]:
    """The status and body with which ``app``'s handler answers ``question`` (the event's own when None)."""
    response = app.handler(ask_event(question), LambdaContext())
    return response["statusCode"], json.loads(response["body"])


def run_child(script: str, *args: str, env: dict[str, str], timeout: float = 180) -> dict[str, Any]:
    """Run ``script`` with ``args`` in a fresh interpreter from the repository root; the JSON of its last line."""
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr
    outcome: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return outcome
