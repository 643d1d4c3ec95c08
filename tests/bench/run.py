"""``make bench``: structured-ask latency on a 1M-fact store, cold start of the ask handler, ingestion throughput.

Benchmarks, not tests: nothing here asserts on time. Every number is set against a baseline
measured in the same run, and the report says whether each target is met. The same numbers
go to ``tests/bench/results/latest.json``; ``--record`` also writes the structured-ask and
ingestion tables into docs/benchmarks.md, stamped with the commit and date.

    .venv/bin/python tests/bench/run.py [--quick] [--rebuild] [--json-only] [--skip-cold-start] [--skip-ingestion]
        [--skip-dense] [--record]
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parents[1]
RESULTS = BENCH_DIR / "results"
sys.path.insert(0, str(BENCH_DIR))
sys.path.insert(1, str(REPO))  # the sample fixtures live in tests/support, not in the shipped engine

from cold_start import run_cold_start  # noqa: E402
from dense_ingest import render as render_dense  # noqa: E402
from dense_ingest import run_dense_ingest  # noqa: E402
from factbase import ensure_fact_base  # noqa: E402
from first_request import run_first_request  # noqa: E402
from ingestion import render as render_ingestion  # noqa: E402
from ingestion import run_ingestion  # noqa: E402
from published import ingestion_table, structured_table  # noqa: E402
from report import render  # noqa: E402
from structured import run_structured  # noqa: E402
from tools.measurements import BENCHMARKS, record, record_note  # noqa: E402

MODES: dict[str, dict[str, Any]] = {
    "full": {"synthetic": 1_000_000, "db": "facts-1m.db",
             "n": 20_000, "warmup": 1_000, "profile": 3_000, "runs": 15},
    "quick": {"synthetic": 100_000, "db": "facts-100k.db",
              "n": 2_000, "warmup": 200, "profile": 500, "runs": 4},
}


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100k facts, fewer calls and runs (smoke run)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached fact file")
    parser.add_argument("--json-only", action="store_true", help="print only the JSON results")
    parser.add_argument("--skip-cold-start", action="store_true", help="skip the cold-start benchmark")
    parser.add_argument("--skip-ingestion", action="store_true", help="skip the ingestion benchmark")
    parser.add_argument("--skip-dense", action="store_true", help="skip the dense-ingest benchmark (e5, FinanceBench)")
    parser.add_argument("--record", action="store_true", help="write the tables into docs/benchmarks.md (full runs only)")
    args = parser.parse_args(argv)
    if args.record and args.quick:
        parser.error("--record writes the published figures: run it without --quick")
    return args


def _record(results: dict[str, Any], command: str) -> None:
    """Write the structured-ask and (when run) ingestion tables into docs/benchmarks.md."""
    tables = {"structured-ask": structured_table(results["structured"])}
    if results["ingestion"]:
        tables["ingestion"] = ingestion_table(results["ingestion"])
    for name, table in tables.items():
        record(name, table, command=command, page=BENCHMARKS)
        _log(record_note(BENCHMARKS, name))


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run both benchmarks, write latest.json and print the report."""
    args = _parse(argv)
    mode = "quick" if args.quick else "full"
    plan = MODES[mode]
    started = time.perf_counter()
    RESULTS.mkdir(parents=True, exist_ok=True)
    base = ensure_fact_base(RESULTS / plan["db"], plan["synthetic"], rebuild=args.rebuild, log=_log)
    _log(f"timing {plan['n']:,} calls per path after {plan['warmup']:,} warm-up calls")
    structured = run_structured(base.path, n=plan["n"], warmup=plan["warmup"], profile_calls=plan["profile"])
    structured["store"] = {"path": str(base.path), "facts": base.total, "synthetic": base.synthetic,
                           "sample": base.sample, "build_seconds": base.build_seconds,
                           "cached": base.build_seconds is None}
    cold = None
    if not args.skip_cold_start:
        _log(f"cold start: {plan['runs']} interleaved rounds of fresh interpreters")
        python = REPO / ".venv" / "bin" / "python"
        cold = run_cold_start(python if python.exists() else Path(sys.executable), cwd=REPO,
                              runs=plan["runs"], log=_log)
        _log(f"cold start with the first request: {plan['runs']} interleaved rounds against moto in server mode")
        cold["first_request"] = run_first_request(python if python.exists() else Path(sys.executable), cwd=REPO,
                                                  runs=plan["runs"], log=_log)
    ingestion = None if args.skip_ingestion else run_ingestion(quick=args.quick, log=_log)
    dense = None if args.skip_dense else run_dense_ingest(sample_size=16 if args.quick else 40, log=_log)
    results: dict[str, Any] = {
        "meta": {"mode": mode, "finished": datetime.now(UTC).isoformat(timespec="seconds"),
                 "elapsed_s": round(time.perf_counter() - started, 1), "python": platform.python_version(),
                 "sqlite": sqlite3.sqlite_version, "platform": platform.platform()},
        "structured": structured,
        "cold_start": cold,
        "ingestion": ingestion,
        "dense_ingest": dense,
    }
    out = RESULTS / "latest.json"
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.json_only:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        section = render_ingestion(ingestion) if ingestion else ["3. Ingestion: skipped"]
        section += [""] + (render_dense(dense) if dense else ["4. Dense leg of a first ingest: skipped"])
        print(render(results, out) + "\n\n" + "\n".join(section))
    if args.record:
        _record(results, " ".join(["python tests/bench/run.py", *(argv if argv is not None else sys.argv[1:])]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
