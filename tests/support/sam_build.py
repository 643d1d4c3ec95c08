"""One ``sam build`` of ``template.yaml`` per test run, shared by every test that needs the artifact.

The build uses the tools virtualenv's SAM CLI and a python3.12 (pyenv or PATH), as CI does. Set
``RAGSPINE_SAM_BUILD_DIR`` to an existing build output to reuse it while working on the tests.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.cfn import REPO_ROOT, TEMPLATE_PATH, python312_dir, tool

BUILD_TIMEOUT_S = 900
REUSE_ENV = "RAGSPINE_SAM_BUILD_DIR"


def tool_env(*, prepend_path: Path | None = None) -> dict[str, str]:
    """Environment for SAM/cfn-lint: offline-friendly, no telemetry, a fixed region."""
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0", "AWS_DEFAULT_REGION": "us-east-1"}
    if prepend_path is not None:
        env["PATH"] = f"{prepend_path}{os.pathsep}{env.get('PATH', '')}"
    return env


def report(done: subprocess.CompletedProcess[str]) -> str:
    """A failure message with everything the tool said."""
    return f"exit code {done.returncode}\n--- stdout ---\n{done.stdout}\n--- stderr ---\n{done.stderr}"


def require_python312() -> Path:
    """The folder of a working python3.12, or a test failure saying that none was found."""
    found = python312_dir()
    if found is None:
        pytest.fail("no python3.12 found (pyenv versions/3.12.* or PATH): sam build needs one", pytrace=False)
    return found


def build(scratch: Path) -> Path:
    """``sam build`` into ``scratch/build`` (or the reused folder); return the build folder."""
    if reused := os.environ.get(REUSE_ENV):
        return Path(reused)
    try:
        sam = tool("sam")
    except FileNotFoundError as exc:
        message = str(exc)
    else:
        build_dir = scratch / "build"
        done = subprocess.run(
            [str(sam), "build", "--template", str(TEMPLATE_PATH), "--build-dir", str(build_dir),
             "--cache-dir", str(scratch / "cache")],
            cwd=REPO_ROOT, env=tool_env(prepend_path=require_python312()), capture_output=True, text=True,
            timeout=BUILD_TIMEOUT_S, check=False)
        assert done.returncode == 0, report(done)
        return build_dir
    pytest.fail(message, pytrace=False)


def build_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``build`` once per test run, also when several xdist workers ask for it: the first builds under a lock
    in the run's shared temporary folder, the others wait for it and reuse its output."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return build(tmp_path_factory.mktemp("sam"))
    shared = tmp_path_factory.getbasetemp().parent / "sam-build"  # the parent of every worker's own folder
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        finished = shared / "finished"
        if finished.exists():
            return Path(finished.read_text(encoding="utf-8"))
        build_dir = build(shared)
        finished.write_text(str(build_dir), encoding="utf-8")
        return build_dir
