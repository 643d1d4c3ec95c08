"""The code node: Dify python3 code in a child process with CPU, memory and wall-clock limits.

NOT AN OS SANDBOX. The child runs ``python -I -S`` in an empty temporary directory with an
empty environment; on Linux ``resource`` caps CPU seconds, address space, file size and open
files, and a wall-clock timeout kills the whole process group. The child can still read
files the service user can read and open network connections. Elsewhere only the timeout
applies. Inputs and the result travel as JSON over stdin/stdout.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.workflows.errors import WorkflowNodeFailedError
from ragspine.workflows.shapes import as_map

if TYPE_CHECKING:
    from ragspine.workflows.run.nodes import NodeCall

RUNNER = Path(__file__).resolve().with_name("_code_runner.py")
_TYPES: Mapping[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
}


@dataclass(frozen=True, slots=True)
class CodeLimits:
    """Per-run limits of the code node."""

    timeout_seconds: float = 5.0
    memory_mb: int = 256
    max_output_bytes: int = 1024 * 1024
    python: str = sys.executable


def _limiter(limits: CodeLimits) -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None

    def apply() -> None:
        import resource

        # One second above the wall clock, so a busy loop usually meets the clearer wall-clock kill.
        cpu = math.ceil(limits.timeout_seconds) + 1
        memory = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024 * 1024, 1024 * 1024))
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def execute_python(code: str, inputs: Mapping[str, Any], limits: CodeLimits) -> dict[str, Any]:
    """Run ``main(**inputs)`` from ``code`` in a limited child process and return its dict.

    Raises:
        WorkflowNodeFailedError: the code raised, returned a non-dict, or hit a limit.
    """
    request = json.dumps({"code": code, "inputs": dict(inputs)}, ensure_ascii=False, default=str)
    with tempfile.TemporaryDirectory(prefix="ragspine-code-") as workdir:
        proc = subprocess.Popen(  # noqa: S603 - fixed argv, no shell
            [limits.python, "-I", "-S", "-X", "utf8", str(RUNNER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=workdir, env={}, start_new_session=True,
            preexec_fn=_limiter(limits))  # noqa: PLW1509 - rlimits must be set in the child
        try:
            out, _ = proc.communicate(request.encode("utf-8"), timeout=limits.timeout_seconds)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise WorkflowNodeFailedError(f"code exceeded the {limits.timeout_seconds:g} s time limit") from None
    if len(out) > limits.max_output_bytes:
        raise WorkflowNodeFailedError(f"code output exceeds {limits.max_output_bytes} bytes")
    cpu_signal = getattr(signal, "SIGXCPU", None)
    if cpu_signal is not None and proc.returncode == -cpu_signal:
        raise WorkflowNodeFailedError(f"code exceeded the {limits.timeout_seconds:g} s CPU time limit")
    if proc.returncode != 0 or not out:
        raise WorkflowNodeFailedError(f"code was stopped (exit status {proc.returncode}): memory or other limit")
    reply = json.loads(out)
    if not reply.get("ok"):
        raise WorkflowNodeFailedError(f"code failed: {reply.get('error')}")
    result: dict[str, Any] = reply["result"]
    return result


def _check_outputs(declared: Any, result: Mapping[str, Any]) -> None:
    if not isinstance(declared, Mapping):
        return
    for name, spec in declared.items():
        if name not in result:
            raise WorkflowNodeFailedError(f"code output {name!r} is missing")
        kind = str(as_map(spec).get("type", ""))
        check = _TYPES.get(kind, (lambda v: isinstance(v, list)) if kind.startswith("array") else None)
        if check is not None and result[name] is not None and not check(result[name]):
            raise WorkflowNodeFailedError(f"code output {name!r} is not of type {kind}")


def run_code(call: NodeCall) -> dict[str, Any]:
    """Run the node's python3 code with its bound variables; check declared outputs."""
    limits = call.code
    assert limits is not None  # checked before the run starts
    try:
        result = execute_python(str(call.step.config.get("code", "")), call.bound(), limits)
        _check_outputs(call.step.config.get("outputs"), result)
    except WorkflowNodeFailedError as exc:
        raise WorkflowNodeFailedError(exc.message, node_id=call.step.node_id) from exc
    return result
