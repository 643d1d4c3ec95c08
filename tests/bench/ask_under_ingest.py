"""``/v1/ask`` and Gateway latency while the Gateway ingests a zip bomb and a 2,000-page PDF.

A benchmark, not a test: nothing asserts on time. In one interpreter (the local service: the
routes and the ingestion workers share the process, as they do when served), it measures the
p50/p99 of ``POST /v1/ask`` and of ``GET /internal/v1/knowledge/spaces/{id}`` with nothing
ingesting (the baseline), then again while the Gateway ingests each hostile or heavy input: a
95 KB .docx that inflates to 20 MiB of XML, and a generated 2,000-page PDF, the PDF three ways:

* ``pdf``: the default; a child process parses it and also reads its facts, cuts its chunks and
  counts their index terms, so the service's process only writes them;
* ``pdf_child_parse_only``: the child parses; facts, chunks and terms are computed in the service's process;
* ``pdf_in_process``: everything in the service's process (the AWS worker's way, a watchdog thread);
* ``pdf_normal_priority``: as ``pdf``, but the child at normal CPU priority instead of the lowest
  (``SCHED_IDLE`` or nice 19, I/O class idle), so the two show what the priority buys;
* ``pdf_full_collections``: as ``pdf``, but with the garbage collector's full collections running
  during each step as they would without the runner's hold (``ingestion.full_collections``), so
  the two show what the hold buys;
* ``pdf_default_switch_interval``: as ``pdf``, but each step at the interpreter's default 5 ms
  switch interval instead of the runner's 0.5 ms (``ingestion.switch_interval``);
* ``pdf_unfrozen_startup``: as ``pdf``, but with the objects the service froze at startup given
  back to the collector for the ingest (``gc.unfreeze``; frozen again after it), so the full
  collection after the steps walks them as it would without the freeze.

The machine's other load drifts during a run, so each input gets its own baseline too: the same
calls with nothing ingesting right before it is uploaded, and again right after it for as long as
the ingest took (at most a minute), so the baseline spans about as much of that drift as the
ingest. The calls during the ingest include the first ten after it ended (they rebuild the index's
snapshot and meet the garbage the steps left). The report gives each p50 and p99 as a ratio to
that baseline (``*_vs_baseline``) and to the first one (``*_vs_first_baseline``). It also
gives the CPU time the ingestion used in the service's process (each step's thread time): what
the routes share the interpreter with, whatever else the machine runs.

    .venv/bin/python tests/bench/ask_under_ingest.py [--quick] [--json-only] [--inputs pdf,docx_bomb] [--out F]
    .venv/bin/python tests/bench/ask_under_ingest.py --median-of run1.json run2.json run3.json
    .venv/bin/python tests/bench/ask_under_ingest.py --inputs docx_bomb,pdf --record   # into docs/security-inputs.md

Each row records the 1-minute load average when its ingest started and ended (``load_average``):
on a shared machine that, more than the code, moves the p99.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parents[1]
RESULTS = BENCH_DIR / "results"
sys.path[:0] = [str(BENCH_DIR), str(REPO)]

from tools.measurements import record, record_note  # noqa: E402

QUESTION = "What was ACME's revenue in Japan in FY2024?"
PREFIX = "/internal/v1/knowledge"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
MODES = {"full": {"pdf_pages": 2000, "baseline": 200}, "quick": {"pdf_pages": 200, "baseline": 60}}
DEFAULT_OLDEST_THRESHOLD = 10  # CPython's own, what ``pdf_full_collections`` runs each step with
DEFAULT_SWITCH_INTERVAL_S = 0.005  # CPython's own, what ``pdf_default_switch_interval`` runs each step with
INPUTS = ("docx_bomb", "pdf", "pdf_full_collections", "pdf_default_switch_interval", "pdf_unfrozen_startup",
          "pdf_normal_priority", "pdf_child_parse_only", "pdf_in_process")
AFTER_ASKS = 10
MAX_AFTER_S = 60.0
SECURITY_PAGE = REPO / "docs" / "security-inputs.md"
SECTION = "ask-under-ingest"


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"n": len(ordered), "p50_ms": round(1000 * statistics.median(ordered), 2),
            "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
            "max_ms": round(1000 * ordered[-1], 2)}


class _Ticker:
    """A thread that sleeps 1 ms in a loop and notes when it wakes: a long gap is a time it was kept from
    running, by another thread holding the interpreter lock (a long call into C) or by the machine's load."""

    def __init__(self) -> None:
        import threading

        self.wakes: list[float] = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def _tick(self) -> None:
        while not self._done.is_set():
            self.wakes.append(time.perf_counter())
            time.sleep(0.001)

    def __enter__(self) -> _Ticker:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        self._thread.join()

    def longest_ms(self, start: float = 0.0, end: float = float("inf")) -> float:
        """The longest gap that ended between ``start`` and ``end`` (perf_counter seconds), in ms."""
        gaps = [b - a for a, b in zip(self.wakes, self.wakes[1:], strict=False) if start <= b <= end]
        return round(1000 * max(gaps, default=0.0), 1)


class _FullCollections:
    """Notes each full (oldest-generation) collection's start and length while it is entered."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, float]] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seen.append((self._started, time.perf_counter() - self._started))

    def __enter__(self) -> _FullCollections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self)

    def summary(self) -> dict[str, float]:
        return {"count": len(self.seen), "longest_ms": round(1000 * max((d for _, d in self.seen), default=0.0), 1)}


def _timed(call: Any) -> float:
    started = time.perf_counter()
    response = call()
    assert response.status_code < 500, response.text
    return time.perf_counter() - started


def _steps(label: str, cpu: dict[str, float], windows: list[tuple[str, float, float]]) -> Any:
    """The pipeline's steps, with the parse step placed as the leg ``label`` says.

    Each step adds the CPU time its thread used in the service's process to ``cpu[step]``: the
    time it held (or queued for) the interpreter lock the routes need, whatever else the machine runs;
    and its start and end (perf_counter) to ``windows``.
    """
    from dataclasses import replace

    from ragspine.ingestion.steps import STEPS, Step, StepContext, parse

    def parse_as(operation: Any, context: StepContext) -> Any:
        limits = context.parse_limits
        if label == "pdf_in_process" and limits is not None:
            context = replace(context, parse_limits=replace(limits, out_of_process=False))
        elif label == "pdf_normal_priority" and limits is not None:
            context = replace(context, parse_limits=replace(limits, background=False))
        elif label == "pdf_child_parse_only":
            context = replace(context, prepare_in_child=False)
        return parse(operation, context)

    def timed(step: Step, function: Any) -> Any:
        def run(operation: Any, context: StepContext) -> Any:
            started, began = time.thread_time(), time.perf_counter()
            held, interval = gc.get_threshold(), sys.getswitchinterval()
            if label == "pdf_full_collections":
                gc.set_threshold(*held[:2], DEFAULT_OLDEST_THRESHOLD)  # undo the runner's hold for this step
            elif label == "pdf_default_switch_interval":
                sys.setswitchinterval(DEFAULT_SWITCH_INTERVAL_S)  # undo the runner's short interval
            try:
                return function(operation, context)
            finally:
                gc.set_threshold(*held)
                sys.setswitchinterval(interval)
                cpu[step.value] = round(cpu.get(step.value, 0.0) + time.thread_time() - started, 3)
                windows.append((step.value, began, time.perf_counter()))
        return run

    return {step: timed(step, function) for step, function in {**STEPS, Step.PARSE: parse_as}.items()}


def run(*, quick: bool, only: tuple[str, ...] = INPUTS) -> dict[str, Any]:
    """Set up a fresh local service with the samples, then measure the baseline and each ingest."""
    plan = MODES["quick" if quick else "full"]
    work = Path(tempfile.mkdtemp(prefix="ragspine-bench-isolation-"))
    os.environ.update({"RAGSPINE_DATA_DIR": str(work / "data"), "RAGSPINE_ENV": "test", "RAGSPINE_EMBEDDER": "none"})
    from fastapi.testclient import TestClient
    from ingestion import pdf_bytes
    from tests.support.office_bombs import docx_bomb

    from ragspine.api.app import create_local_app
    from ragspine.bootstrap import get_knowledge_gateway
    from ragspine.ingestion.runner import InProcessRunner
    from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
    from ragspine.settings import get_settings

    samples = REPO / "shared" / "ragspine" / "samples" / "acme"
    results: dict[str, Any] = {"mode": "quick" if quick else "full", "pdf_pages": plan["pdf_pages"]}
    with TestClient(create_local_app(), raise_server_exceptions=False) as client:
        settings = get_settings()
        token, stored = new_token("bench")
        get_knowledge_gateway().store.put_token(stored)

        def headers(*, mutation: bool = False) -> dict[str, str]:
            assertion = sign_dev_assertion(dev_key(settings.data_dir), user="bench", roles=["knowledge-admin"],
                                           departments=[], domains=["internal"],
                                           issuer=settings.knowledge_assertion_issuer,
                                           audience=settings.knowledge_assertion_audience)
            found = {"Authorization": f"Bearer {token}", "X-User-Assertion": assertion}
            return {**found, "Idempotency-Key": uuid.uuid4().hex} if mutation else found

        def call(method: str, path: str, body: Any = None) -> Any:
            response = client.request(method, PREFIX + path, json=body, headers=headers(mutation=method != "GET"))
            assert response.status_code < 300, response.text
            return response.json()["data"]

        def upload(space_id: str, data: bytes, name: str, mime: str) -> str:
            ticket = call("POST", f"/spaces/{space_id}/file-resources",
                          {"fileName": name, "mimeType": mime, "fileSize": len(data)})
            assert client.put(ticket["uploadUrl"].split("://testserver", 1)[1], content=data).status_code == 200
            change = call("POST", f"/spaces/{space_id}/documents",
                          {"fileResourceId": ticket["fileResourceId"], "documentName": name})
            return str(change["operationId"])

        def new_space() -> str:
            return str(call("POST", "/spaces", {"code": f"bench-{uuid.uuid4().hex[:8]}", "name": "bench",
                                                "profileCode": "enterprise-long-document",
                                                "defaultSecurityDomainCode": "internal"})["knowledgeSpaceId"])

        def status(operation_id: str) -> dict[str, Any]:
            return call("GET", f"/operations/{operation_id}")  # type: ignore[no-any-return]

        space = new_space()
        mimes = {".md": "text/markdown", ".docx": DOCX, ".xlsx": XLSX, ".pptx": PPTX}
        for path in sorted(samples.glob("*.*")):
            if path.suffix in mimes:
                upload(space, path.read_bytes(), path.name, mimes[path.suffix])
        get_knowledge_gateway().launcher.drain()  # type: ignore[attr-defined]

        def ask() -> float:
            return _timed(lambda: client.post("/v1/ask", json={"question": QUESTION}))

        def read() -> float:
            return _timed(lambda: client.get(f"{PREFIX}/spaces/{space}", headers=headers()))

        for _ in range(10):
            ask()
        results["baseline"] = {"ask": _percentiles([ask() for _ in range(plan["baseline"])]),
                               "gateway": _percentiles([read() for _ in range(plan["baseline"])])}
        pdf = (pdf_bytes(plan["pdf_pages"]), "big.pdf", "application/pdf")
        inputs = {label: (docx_bomb(), "bomb.docx", DOCX) if label == "docx_bomb" else pdf for label in only}
        launcher = get_knowledge_gateway().launcher
        for label, (data, name, mime) in inputs.items():
            cpu: dict[str, float] = {}
            windows: list[tuple[str, float, float]] = []
            launcher.runner = InProcessRunner(steps=_steps(label, cpu, windows))  # type: ignore[attr-defined]
            with _Ticker() as idle_ticker:
                before = {"ask": [ask() for _ in range(plan["baseline"])],
                          "gateway": [read() for _ in range(plan["baseline"])]}
            load_before = round(os.getloadavg()[0], 2)
            if label == "pdf_unfrozen_startup":
                gc.unfreeze()  # the startup objects go back to the oldest generation for this ingest
            asks: list[float] = []
            reads: list[float] = []
            with _Ticker() as ticker, _FullCollections() as collections:
                operation_id = upload(new_space(), data, name, mime)
                started = time.perf_counter()
                while status(operation_id)["status"] in ("PENDING", "RUNNING") or len(asks) < 20:
                    asks.append(ask())
                    reads.append(read())
                for _ in range(AFTER_ASKS):  # they rebuild the index's snapshot and meet what the steps left
                    asks.append(ask())
                    reads.append(read())
            ingest_s = time.perf_counter() - started
            ended = status(operation_id)
            if label == "pdf_unfrozen_startup":
                gc.freeze()
            # The same calls again with nothing ingesting, for as long as the ingest took (within
            # limits): the baseline then spans about as much of the machine's drifting load.
            after: dict[str, list[float]] = {"ask": [], "gateway": []}
            with _Ticker() as after_ticker:
                quiet_until = time.perf_counter() + min(ingest_s, MAX_AFTER_S)
                while time.perf_counter() < quiet_until or len(after["ask"]) < plan["baseline"]:
                    after["ask"].append(ask())
                    after["gateway"].append(read())
            idle = {surface: _percentiles(before[surface] + after[surface]) for surface in ("ask", "gateway")}
            pauses = {step: ticker.longest_ms(began, end) for step, began, end in windows}
            row = {"bytes": len(data), "ingest_s": round(ingest_s, 2),
                   "status": ended["status"], "error": (ended["error"] or {}).get("code"),
                   "baseline": idle, "ask": _percentiles(asks), "gateway": _percentiles(reads),
                   "baseline_before": {surface: _percentiles(before[surface]) for surface in before},
                   "baseline_after": {surface: _percentiles(after[surface]) for surface in after},
                   "service_cpu_s": round(sum(cpu.values()), 2), "service_cpu_s_by_step": cpu,
                   "load_average": [load_before, round(os.getloadavg()[0], 2)],
                   # The longest time a thread beside the routes was kept from running: during the
                   # ingest, within each step, and during the idle baselines before and after it.
                   "longest_pause_ms": ticker.longest_ms(), "longest_pause_ms_by_step": pauses,
                   "baseline_longest_pause_ms": max(idle_ticker.longest_ms(), after_ticker.longest_ms()),
                   # Full collections while it ran (until the last ask after it), and the longest.
                   "full_collections": collections.summary()}
            for surface in ("ask", "gateway"):
                for quantile in ("p50", "p99"):
                    during = row[surface][f"{quantile}_ms"]
                    row[f"{surface}_{quantile}_vs_baseline"] = round(during / max(idle[surface][f"{quantile}_ms"],
                                                                                  0.001), 2)
                    row[f"{surface}_{quantile}_vs_first_baseline"] = round(
                        during / max(results["baseline"][surface][f"{quantile}_ms"], 0.001), 2)
            results[label] = row
    return results


def _latency(name: str, during: dict[str, Any], idle: dict[str, Any], row: dict[str, Any], key: str) -> str:
    """``ask p99 85.1 ms during vs 44.5 ms baseline = 1.91x (p50 2.07 vs 3.9 ms = 0.53x; n=1754 during)``."""
    return (f"    {name:<8} p99 {during['p99_ms']} ms during vs {idle['p99_ms']} ms baseline = "
            f"{row[f'{key}_p99_vs_baseline']}x   (p50 {during['p50_ms']} vs {idle['p50_ms']} ms = "
            f"{row[f'{key}_p50_vs_baseline']}x; n={during['n']} during, {idle['n']} baseline)")


def render(results: dict[str, Any]) -> list[str]:
    """The report: per input, the p99 during its ingest against its own baseline (the same calls with nothing
    ingesting, right before and after it), then what may explain it; last, the p99 ratios side by side."""
    base = results["baseline"]
    lines = [f"/v1/ask and Gateway latency during an ingest ({results['mode']}). Each ratio is p99 during the "
             "ingest / p99 of the input's own baseline (the same calls, nothing ingesting, right before and after it).",
             f"  first baseline: ask p50 {base['ask']['p50_ms']} ms, p99 {base['ask']['p99_ms']} ms "
             f"(n={base['ask']['n']}); gateway p50 {base['gateway']['p50_ms']} ms, p99 "
             f"{base['gateway']['p99_ms']} ms"]
    summary = []
    for label in INPUTS:
        if label not in results:
            continue
        row = results[label]
        idle = row["baseline"]
        lines += [f"  {label}: {row['bytes']:,} B, ingest {row['ingest_s']} s, {row['status']}"
                  f"{' (' + row['error'] + ')' if row['error'] else ''}",
                  _latency("ask", row["ask"], idle["ask"], row, "ask"),
                  _latency("gateway", row["gateway"], idle["gateway"], row, "gateway"),
                  f"    load average {row['load_average'][0]} -> {row['load_average'][1]}; "
                  f"{row['service_cpu_s']} s CPU in the service's process {row['service_cpu_s_by_step']}",
                  f"    longest pause of a ticking thread {row['longest_pause_ms']} ms (its baseline "
                  f"{row['baseline_longest_pause_ms']} ms; by step {row['longest_pause_ms_by_step']}); "
                  f"full collections {row['full_collections']}"]
        summary.append(f"{label} ask {row['ask_p99_vs_baseline']}x / gateway {row['gateway_p99_vs_baseline']}x")
    if summary:
        lines.append("  p99 during / p99 baseline: " + "; ".join(summary))
    return lines


def record_table(results: dict[str, Any]) -> list[str]:
    """The Markdown table ``--record`` writes: per input, the p99s against its own baseline and what explains them."""
    lines = [f"{results['mode'].capitalize()} run: each input gets its own baseline (the same calls, nothing "
             "ingesting, right before it and after it for as long as it took); `/v1/ask` and a Gateway space read "
             "alternate in one client.", "",
             "| input | ingest | ask p99 during / baseline | gateway p99 during / baseline | asks | "
             "longest pause (baseline) | full collections (longest) | 1-min load |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for label in INPUTS:
        if label not in results:
            continue
        row = results[label]
        idle = row["baseline"]
        ended = row["status"] + (f" `{row['error']}`" if row["error"] else "")
        lines.append(
            f"| `{label}` ({row['bytes']:,} B) | {ended}, {row['ingest_s']} s | "
            f"{row['ask']['p99_ms']} / {idle['ask']['p99_ms']} ms = **{row['ask_p99_vs_baseline']}x** | "
            f"{row['gateway']['p99_ms']} / {idle['gateway']['p99_ms']} ms = **{row['gateway_p99_vs_baseline']}x** | "
            f"{row['ask']['n']:,} | {row['longest_pause_ms']} ms ({row['baseline_longest_pause_ms']} ms) | "
            f"{row['full_collections']['count']} ({row['full_collections']['longest_ms']} ms) | "
            f"{row['load_average'][0]} -> {row['load_average'][1]} |")
    return lines


def _record(results: dict[str, Any], command: str) -> None:
    record(SECTION, record_table(results), command=command, page=SECURITY_PAGE)
    print(record_note(SECURITY_PAGE, SECTION))


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per input, the median over runs of each ratio and latency, with every run's value and load average."""
    summary: dict[str, Any] = {"runs": len(runs)}
    keys = ("ask_p50_vs_baseline", "ask_p99_vs_baseline", "gateway_p99_vs_baseline", "service_cpu_s", "ingest_s")
    for label in INPUTS:
        rows = [r[label] for r in runs if label in r]
        if not rows:
            continue
        entry: dict[str, Any] = {key: {"median": statistics.median(row[key] for row in rows),
                                       "runs": [row[key] for row in rows]} for key in keys}
        for name, path in (("ask_p99_ms", ("ask", "p99_ms")), ("baseline_ask_p99_ms", ("baseline", "ask", "p99_ms"))):
            values = [_dig(row, path) for row in rows]
            entry[name] = {"median": statistics.median(values), "runs": values}
        for name in ("longest_pause_ms", "baseline_longest_pause_ms"):
            values = [row[name] for row in rows if name in row]
            if values:
                entry[name] = {"median": statistics.median(values), "runs": values}
        entry["load_average"] = [row["load_average"] for row in rows]
        entry["status"] = [row["status"] for row in rows]
        summary[label] = entry
    return summary


def _dig(row: dict[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        row = row[key]
    return row


def main(argv: list[str] | None = None) -> int:
    """Run, write ``results/ask_under_ingest.json`` and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 200-page PDF and fewer baseline calls")
    parser.add_argument("--json-only", action="store_true", help="print only the JSON results")
    parser.add_argument("--inputs", default=",".join(INPUTS), help=f"which of {', '.join(INPUTS)} to ingest")
    parser.add_argument("--out", type=Path, default=RESULTS / "ask_under_ingest.json", help="where to write the JSON")
    parser.add_argument("--record", action="store_true",
                        help=f"write the run's table into {SECURITY_PAGE.relative_to(REPO)} (full runs only)")
    parser.add_argument("--median-of", nargs="+", type=Path, metavar="JSON",
                        help="summarise earlier runs' JSON files (the median of each ratio) instead of running")
    args = parser.parse_args(argv)
    if args.median_of:
        summary = median_of([json.loads(path.read_text(encoding="utf-8")) for path in args.median_of])
        print(json.dumps(summary, indent=2))
        return 0
    only = tuple(label for label in args.inputs.split(",") if label)
    unknown = set(only) - set(INPUTS)
    if unknown:
        parser.error(f"unknown inputs {sorted(unknown)}; choose from {', '.join(INPUTS)}")
    if args.record and args.quick:
        parser.error("--record writes the published figures: run it without --quick")
    results = run(quick=args.quick, only=only)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=2) if args.json_only else "\n".join(render(results)))
    if args.record:
        _record(results, " ".join(["python tests/bench/ask_under_ingest.py", *(argv or sys.argv[1:])]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
