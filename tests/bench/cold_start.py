"""Cold start of the ask handler: fresh interpreters importing it, against its bare dependencies."""

from __future__ import annotations

import os
import statistics
import subprocess
from time import perf_counter_ns
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

TARGET_RATIO = 1.15
# Configured as the ask function is in Lambda (template.yaml Globals and its environment).
LAMBDA_ENV = {
    # Set by Lambda: the Powertools Tracer is on, and the X-Ray SDK samples locally (it creates no X-Ray
    # API clients, which it does outside Lambda for centralized sampling).
    "LAMBDA_TASK_ROOT": "/var/task",
    "RAGSPINE_BACKEND": "aws",
    "RAGSPINE_FACTS_TABLE": "bench",
    "AWS_DEFAULT_REGION": "us-east-1",
    "POWERTOOLS_SERVICE_NAME": "ragspine",
}
COMMANDS = {
    "floor": "pass",
    "baseline": "import fastapi, mangum, boto3",
    "candidate": "import functions.ask.app",
}


def child_env() -> dict[str, str]:
    """This environment plus the Lambda settings; byte-code writing on so warm-ups leave .pyc files."""
    env = dict(os.environ)
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME", "PYTHONSTARTUP"):
        env.pop(name, None)
    env.update(LAMBDA_ENV)
    return env


def _run(python: Path, code: str, *, cwd: Path,
         extra: tuple[str, ...] = ()) -> tuple[float, subprocess.CompletedProcess[str]]:
    began = perf_counter_ns()
    done = subprocess.run([str(python), *extra, "-c", code], cwd=cwd, env=child_env(),
                          capture_output=True, text=True, check=False)
    return (perf_counter_ns() - began) / 1e6, done


def run_cold_start(python: Path, *, cwd: Path, runs: int, log: Callable[[str], None]) -> dict[str, Any]:
    """Median wall time of each command over ``runs`` interleaved rounds, after one warm-up each."""
    error = None
    names = list(COMMANDS)
    for name in list(names):
        _ms, done = _run(python, COMMANDS[name], cwd=cwd)
        if done.returncode != 0:
            error = {"command": COMMANDS[name], "returncode": done.returncode, "stderr": done.stderr}
            names.remove(name)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_no in range(runs):
        # Rotate the order each round so no command always runs right after the same one.
        order = names[round_no % len(names):] + names[:round_no % len(names)]
        for name in order:
            times[name].append(_run(python, COMMANDS[name], cwd=cwd)[0])
        log(f"  cold-start round {round_no + 1}/{runs}: "
            + ", ".join(f"{name} {times[name][-1]:.0f}ms" for name in names))
    stats: dict[str, dict[str, Any]] = {name: {"median_ms": round(statistics.median(values), 1), "min_ms": round(min(values), 1),
                    "max_ms": round(max(values), 1), "runs": [round(v, 1) for v in values]}
             for name, values in times.items()}
    result: dict[str, Any] = {"runs": runs, "commands": COMMANDS, "env": LAMBDA_ENV, "timings": stats,
                              "error": error}
    if "candidate" in stats and "baseline" in stats:
        ratio = round(stats["candidate"]["median_ms"] / stats["baseline"]["median_ms"], 3)
        result["ratio"] = ratio
        result["handler_own_ms"] = round(stats["candidate"]["median_ms"] - stats["baseline"]["median_ms"], 1)
        result["target"] = {"what": "median(candidate) / median(baseline)", "limit": TARGET_RATIO,
                            "value": ratio, "met": ratio <= TARGET_RATIO}
        result["importtime_top"] = import_breakdown(python, cwd=cwd)
    return result


def import_breakdown(python: Path, *, cwd: Path, top: int = 15) -> list[dict[str, Any]]:
    """The ``top`` modules of ``-X importtime`` for the candidate, by cumulative time."""
    _ms, done = _run(python, COMMANDS["candidate"], cwd=cwd, extra=("-X", "importtime"))
    rows: list[dict[str, Any]] = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "[us]" in line:
            continue
        self_us, cumulative_us, module = line.removeprefix("import time:").split("|", 2)
        depth = (len(module) - len(module.lstrip(" ")) - 1) // 2
        rows.append({"module": module.strip(), "depth": depth,
                     "cumulative_ms": round(int(cumulative_us) / 1000, 1),
                     "self_ms": round(int(self_us) / 1000, 1)})
    return sorted(rows, key=lambda r: r["cumulative_ms"], reverse=True)[:top]
