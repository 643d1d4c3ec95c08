"""Code-runner Lambda: runs one code node's python3 ``main(**inputs)`` and answers its result.

The function is the isolation boundary on AWS: its role holds no permission, it gets no secret
and no VPC, and only the workflow and webhook functions may invoke it. Inside, the code runs
in a child process with CPU, memory, output and time limits and an empty environment. The
execution environment is reused between invocations, so after each run every process the code
left behind is killed (this process is their subreaper) and /tmp is emptied.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

from ragspine.aws.lambda_telemetry import metrics, tracer
from ragspine.errors import RagspineError
from ragspine.workflows.run.code_node import CodeLimits, execute_python

_PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> None:
    """Orphans of the code (setsid or double fork) re-parent to this process, so they can be found and killed."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, queue = [], [root]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def _clean_up() -> None:
    """Kill what the code left running and empty the scratch space, before the next invocation."""
    for pid in _descendants(os.getpid()):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    while True:  # reap the killed
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    scratch = Path(tempfile.gettempdir())
    # In Lambda this function alone uses /tmp: all of it goes. Elsewhere (tests) only the runs' own folders.
    pattern = "*" if os.environ.get("AWS_LAMBDA_FUNCTION_NAME") else "ragspine-code-*"
    for entry in scratch.glob(pattern):
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def _limits(raw: Any) -> CodeLimits:
    given = raw if isinstance(raw, dict) else {}
    defaults = CodeLimits()
    return CodeLimits(timeout_seconds=min(float(given.get("timeout_seconds", defaults.timeout_seconds)), 60.0),
                      memory_mb=min(int(given.get("memory_mb", defaults.memory_mb)), 1024),
                      max_output_bytes=min(int(given.get("max_output_bytes", defaults.max_output_bytes)), 4 << 20),
                      isolation="process")


_become_subreaper()


@tracer.capture_lambda_handler(capture_response=False)
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Run the event's code with its inputs; answer ``{"ok": true, "result": ...}`` or the error."""
    try:
        inputs = event.get("inputs")
        result = execute_python(str(event.get("code", "")), inputs if isinstance(inputs, dict) else {},
                                _limits(event.get("limits")))
        return {"ok": True, "result": result}
    except RagspineError as exc:
        return {"ok": False, "error": exc.message, "code": exc.code}
    finally:
        _clean_up()
