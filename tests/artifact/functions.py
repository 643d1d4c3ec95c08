"""Built functions run as Lambda runs them: one python3.12 process per function, kept warm between events.

Each process has on ``sys.path`` only what the Lambda runtime would give it, in its order: the
function's code folder from the build output, each of its layers' ``python`` folders, then the
runtime's own boto3. It starts in an empty folder with an environment made of the function's
template variables (plus the endpoints of the stand-in services), so nothing of the checkout can be
imported or read. The bootstrap checks that ``ragspine`` and its dependencies came from the build.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from tests.support.cfn import python312_dir

BOOTSTRAP = Path(__file__).with_name("lambda_bootstrap.py")
# What the Lambda python3.12 runtime provides next to the handler's code and layers.
RUNTIME_PACKAGES = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "six", "urllib3")
FROM_ARTIFACT = ("ragspine", "pydantic", "fastapi", "aws_lambda_powertools")
FUNCTION_TIMEOUT_S = 120


class FunctionError(Exception):
    """An invocation that ended in the function's ``Unhandled`` error."""


def runtime_packages(folder: Path) -> Path:
    """A folder standing in for the runtime's own packages (links to this interpreter's boto3 and its needs)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_PACKAGES:
        module = importlib.import_module(name)
        source = Path(module.__file__ or "")
        source = source.parent if source.name == "__init__.py" else source
        link = folder / source.name
        if not link.exists():
            link.symlink_to(source)
    return folder


class FunctionProcess:
    """One built function, warm: events in, results out, through its own python3.12 process."""

    def __init__(self, name: str, build_dir: Path, properties: Mapping[str, Any], environment: Mapping[str, str],
                 *, runtime: Path, workdir: Path) -> None:
        python = python312_dir()
        assert python is not None, "no python3.12 to run the built functions in"
        layers = [build_dir / layer["Ref"] / "python" for layer in properties.get("Layers", [])]
        # Lambda extracts layers into /opt in order, a later one overwriting; on sys.path the first wins.
        config = {"name": name, "handler": properties["Handler"], "artifact": str(build_dir.resolve()),
                  "paths": [str((build_dir / name).resolve())] + [str(p.resolve()) for p in reversed(layers)]
                  + [str(runtime)], "from_artifact": list(FROM_ARTIFACT), "timeout_s": FUNCTION_TIMEOUT_S}
        workdir.mkdir(parents=True, exist_ok=True)
        self.name = name
        self._lock = threading.Lock()  # one event at a time, as one Lambda container takes them
        self.log = workdir / "stderr.log"
        self._stderr: IO[str] = self.log.open("w", encoding="utf-8")
        # -B: Lambda's code and layers are read-only, and the shared build must keep its measured size.
        self._process = subprocess.Popen(
            [str(python / "python3.12"), "-I", "-B", str(BOOTSTRAP), json.dumps(config)], cwd=workdir,
            env={"PATH": "/usr/bin:/bin", "HOME": str(workdir), "LANG": "C.UTF-8", **environment},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True, encoding="utf-8")
        ready = self._read()
        assert ready == {"ready": True}, f"{name} did not start: {ready}\n{self.logs()[-6000:]}"

    def logs(self) -> str:
        """What the function wrote to stderr (its logs), for failure messages."""
        self._stderr.flush()
        return self.log.read_text(encoding="utf-8")

    def _read(self) -> Any:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            self._process.wait(timeout=10)
            raise AssertionError(f"{self.name} exited ({self._process.returncode}):\n{self.logs()[-6000:]}")
        return json.loads(line)

    def __call__(self, event: dict[str, Any], context: Any) -> Any:
        assert self._process.stdin is not None
        with self._lock:
            self._process.stdin.write(json.dumps(event) + "\n")
            self._process.stdin.flush()
            answer = self._read()
        if "errorType" in answer:
            # The state machine's Retry and Catch match on the error's type name, as in Lambda.
            raise type(answer["errorType"], (FunctionError,), {})(answer["errorMessage"])
        return answer["result"]

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:  # a background thread of the function may keep it alive
            self._process.kill()
            self._process.wait(timeout=10)
        self._stderr.close()
