"""Cold start of the ask handler: fresh interpreters importing it, against its bare dependencies.

Run alone, it measures what a cold start pays (the handler's import plus its first ask, against
``import fastapi, mangum, boto3`` plus one ``GetItem``; ``first_request.py``), optionally with the
handler of other checkouts in the same interleaved rounds::

    git worktree add /tmp/ask-before <commit>
    nice .venv/bin/python tests/bench/cold_start.py --runs 7 --before before=/tmp/ask-before
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter_ns
from typing import TYPE_CHECKING, Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parents[1]
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(1, str(REPO))  # the sample fixtures live in tests/support, not in the shipped engine

from first_request import run_first_request  # noqa: E402
from lambda_env import LAMBDA_ENV, TARGET_RATIO, child_env  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

COMMANDS = {
    "floor": "pass",
    "baseline": "import fastapi, mangum, boto3",
    "candidate": "import functions.ask.app",
}


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


def _checkout(text: str) -> tuple[str, Path]:
    name, _sep, folder = text.rpartition("=")
    path = Path(folder).resolve()
    if not (path / "functions" / "ask" / "app.py").is_file():
        raise argparse.ArgumentTypeError(f"{path} is not a checkout holding functions/ask/app.py")
    return name or path.name, path


def render_first_request(result: dict[str, Any]) -> list[str]:
    """The first-request comparison as text: medians, ratios to the baseline, the load."""
    if result.get("error"):
        err = result["error"]
        return [f"FAILED: {err['command']} exited {err['returncode']}:", err["stderr"]]
    load = result["load_average"]
    lines = [f"import + first ask, {result['runs']} interleaved rounds; load average (1, 5, 15 min) "
             f"{load['start_1_5_15']} at start, {load['end_1_5_15']} at end",
             f"{'':<18}{'wall ms':>9}{'ratio':>8}{'CPU to response':>17}{'ratio':>8}{'CPU with exit':>15}{'ratio':>8}"]
    for name, stats in result["timings"].items():
        ratio = result["ratios"].get(name, {"wall": 1.0, "cpu_to_response": 1.0, "cpu": 1.0})
        lines.append(f"{name:<18}{stats['wall']['median_ms']:>9.1f}{ratio['wall']:>7.2f}x"
                     f"{stats['cpu_to_response']['median_ms']:>17.1f}{ratio['cpu_to_response']:>7.2f}x"
                     f"{stats['cpu']['median_ms']:>15.1f}{ratio['cpu']:>7.2f}x")
    for name, saved in result.get("candidate_saves_ms", {}).items():
        lines.append(f"{name} minus candidate, median of the per-round differences: "
                     f"{saved['wall']:+.1f} ms wall, {saved['cpu_to_response']:+.1f} ms CPU to the response, "
                     f"{saved['cpu']:+.1f} ms CPU with the exit")
    after = result["after_snapshot"]
    lines.append("with SnapStart (not measurable here), what a restored cold start still pays, CPU of the part alone: "
                 f"the primed handler's first ask {after['cpu_ms']['primed_first_ask']['median_ms']:.1f} ms, "
                 f"the floor's client + GetItem {after['cpu_ms']['floor_get_item']['median_ms']:.1f} ms: "
                 f"{after['ratio']:.2f}x")
    target = result["target"]
    lines.append(f"target: ratio of the candidate's CPU to the response <= {target['limit']}x: "
                 + ("met" if target["met"] else f"NOT met ({target['value']}x)"))
    return lines


def main(argv: list[str] | None = None) -> int:
    """Measure the first request's cold start (and, with ``--before``, other checkouts') and print it."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--before", type=_checkout, action="append", default=[], metavar="NAME=DIR",
                        help="another checkout whose ask handler runs in the same rounds (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the JSON result instead of the table")
    args = parser.parse_args(argv)
    python = REPO / ".venv" / "bin" / "python"
    result = run_first_request(python if python.exists() else Path(sys.executable), cwd=REPO, runs=args.runs,
                               log=lambda message: print(message, file=sys.stderr, flush=True),
                               before=dict(args.before))
    print(json.dumps(result, indent=2) if args.json else "\n".join(render_first_request(result)))
    return 1 if result.get("error") else 0


if __name__ == "__main__":
    raise SystemExit(main())
