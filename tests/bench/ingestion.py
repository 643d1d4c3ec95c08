"""Ingestion throughput (parse → chunk → embed → index) against bare parsing, and the memory peak of a 200-page PDF.

A benchmark, not a test: nothing asserts on time. For each input it measures

* the full pipeline (``submit`` + ``InProcessRunner``: fetch → parse → extract_facts →
  chunk_and_embed → index → activate) into a fresh embedded data folder (SQLite facts + the
  embedded chunk index) with the embedder the default picks, each step timed on its own;
* then, in the same interpreter, the bare parse of the same file (``parse_document`` only,
  bytes already in memory), so both numbers see the same machine load;

and reports pages per second for both and their ratio: pipeline time / parse time, where 1.0
would mean the pipeline runs at the parser's own limit. The pipeline runs in fresh interpreters
(the PDF alone, then the other files), so the same run also gives the peak RSS of ingesting the
generated PDF against a baseline interpreter that imports the same modules and loads the
embedder but ingests nothing; the PDF is ingested again with the embedder off to separate the
pipeline's memory and time from the embedder's. Inputs: the ACME samples, the third-party docs
of the handout corpus (when present) and a PDF generated at bench time. Full mode takes about
four minutes on two cores, nearly all of it the embedder on the PDF's 1200 chunks. Results go
to ``tests/bench/results/ingestion.json``.

What a "page" is, per format (so pages/s compares formats on one scale):

* pdf: a PDF page; pptx: a slide; xlsx: a worksheet;
* docx, md, html, txt (no page model): ceil(extracted characters / 3000), at least 1,
  3000 characters being about one dense printed page (the generated PDF has ~3000 per page).

    .venv/bin/python tests/bench/ingestion.py [--quick] [--embedder auto|e5|minilm|none] [--json-only]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.ingestion.model import CHARS_PER_PAGE

if TYPE_CHECKING:
    from ragspine.bootstrap import Services
    from ragspine.ingestion.operations import Operation
    from ragspine.ingestion.steps import Step, StepContext, StepFunction, StepResult

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parents[1]
RESULTS = BENCH_DIR / "results"
CORPUS = REPO.parent / "shared" / "corpus" / "docs"  # the handout beside the checkout
MAX_BYTES = 50 * 1024 * 1024  # Settings.ingest_max_bytes default
CHILD_TIMEOUT_S = 3600
KIB = 1024
# Short names of --embedder, as RAGSPINE_EMBEDDER spells them.
EMBEDDERS = {"auto": "auto", "e5": "multilingual-e5-small-q4", "minilm": "all-minilm-l6-v2-int8", "none": "none"}

MODES = {
    "full": {"pdf_pages": 200, "parse_runs": 3},
    # Quick is a smoke run: a 20-page PDF keeps the embedder's share to seconds, not minutes.
    "quick": {"pdf_pages": 20, "parse_runs": 1},
}


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- the generated PDF ----------------------------------------------------------------------------

_SUBJECTS = ("Revenue", "Gross margin", "Operating profit", "Online sales", "Store traffic",
             "Inventory turnover", "Marketing spend", "Customer retention", "Average basket size")
_REGIONS = ("Japan", "Hong Kong", "Mainland China", "Singapore", "Korea", "Taiwan", "Australia")
_MOVES = ("rose", "fell", "held steady at", "recovered by", "improved by", "declined by")
_CAUSES = ("new product launches", "currency effects", "higher freight costs", "promotional pricing",
           "store refurbishments", "a shift to online channels", "lower raw material costs",
           "a stronger wholesale order book", "the closure of two loss-making stores")


def _paragraph(rng: random.Random, sentences: int) -> str:
    """Report-like prose: varied enough that BM25 and the embedder see real work."""
    return " ".join(
        f"{rng.choice(_SUBJECTS)} in {rng.choice(_REGIONS)} {rng.choice(_MOVES)} {rng.uniform(0.1, 19.9):.1f} "
        f"percent in Q{rng.randint(1, 4)} {rng.randint(2021, 2025)}, mainly because of {rng.choice(_CAUSES)}."
        for _ in range(sentences)
    )


def _page_lines(number: int) -> list[str]:
    """One page: a heading and five paragraphs (~3000 characters), blank lines between paragraphs."""
    rng = random.Random(number)
    lines = [f"Section {number}: regional performance review"]
    for _ in range(5):
        lines += [" ", *textwrap.wrap(_paragraph(rng, 5), width=95)]
    return lines


def _content_stream(lines: list[str]) -> bytes:
    """Helvetica text, one ``Tj`` per line and ``T*`` between lines (pypdf turns ``T*`` into a newline)."""
    def escaped(text: str) -> str:
        return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    body = "".join(f"({escaped(line)}) Tj T*\n" for line in lines)
    return f"BT /F1 9 Tf 11 TL 40 800 Td\n{body}ET".encode("latin-1")


def pdf_bytes(pages: int) -> bytes:
    """A valid multi-page text PDF written by hand (no PDF writer is installed; pypdf only reads text).

    Objects: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page.
    """
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{' '.join(f'{4 + 2 * i} 0 R' for i in range(pages))}] "
               f"/Count {pages} >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for i in range(pages):
        stream = _content_stream(_page_lines(i + 1))
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n%b\nendstream" % (len(stream), stream))
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%b\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def write_pdf(folder: Path, pages: int) -> Path:
    """Write the generated PDF and check our parser reads text from every one of its pages."""
    from ragspine.ingestion.parsers import parse_document

    path = folder / f"generated_{pages}_pages.pdf"
    path.write_bytes(pdf_bytes(pages))
    doc = parse_document(path.read_bytes(), doc_id=path.name, filename=path.name, max_bytes=MAX_BYTES)
    with_text = {block.locator.split(",", 1)[0] for block in doc.blocks}
    if doc.metadata.get("pages") != str(pages) or len(with_text) != pages:
        raise SystemExit(f"generated PDF reads as {doc.metadata.get('pages')} pages, {len(with_text)} with text")
    return path


# --- inputs and pages -----------------------------------------------------------------------------

# The samples' curated-facts fixture and the corpus manifest: tables readable as CSV, but metadata, not documents.
_NOT_DOCUMENTS = frozenset({"facts.csv", "MANIFEST.tsv"})


def input_files(pdf: Path) -> list[Path]:
    """The PDF, then every parseable ACME sample and corpus document (the corpus may be absent)."""
    from ragspine.demo import sample_dir
    from ragspine.ingestion.parsers import supported_extensions

    known = supported_extensions()
    folders = [sample_dir()] + ([CORPUS] if CORPUS.is_dir() else [])
    if not CORPUS.is_dir():
        _log(f"{CORPUS} not found: benchmarking the ACME samples and the generated PDF only")
    found = [p for folder in folders for p in sorted(folder.iterdir())
             if p.is_file() and p.suffix.lower() in known and p.name not in _NOT_DOCUMENTS]
    return [pdf, *found]


# --- bare parsing ---------------------------------------------------------------------------------

def parse_stats(path: Path, *, runs: int) -> dict[str, Any]:
    """Pages, blocks and the median seconds of ``parse_document`` alone over ``runs`` parses.

    Called in the pipeline's interpreter after its files' pipeline runs and the background
    embedder: warm (the parser has run) and alone on the machine the pipeline had.
    """
    from ragspine.ingestion.parsers import parse_document

    data = path.read_bytes()
    seconds = []
    for _ in range(runs):
        began = time.perf_counter()
        doc = parse_document(data, doc_id=path.name, filename=path.name, max_bytes=MAX_BYTES)
        seconds.append(time.perf_counter() - began)
    return {"format": path.suffix.lstrip(".").lower(), "bytes": len(data), "pages": doc.pages,
            "blocks": len(doc.blocks), "chars": sum(len(b.text) for b in doc.blocks),
            "parse_s": statistics.median(seconds)}


# --- the pipeline (fresh interpreters running this file with --child) -----------------------------

class StepClock:
    """Wraps the step functions so the runner's own calls are timed (retries included).

    It also reads the process's peak RSS after each step: the step after which it grows is
    the one that set the ingestion's memory peak.
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.maxrss_kib: dict[str, int] = {}

    def wrap(self, steps: Mapping[Step, StepFunction]) -> dict[Step, StepFunction]:
        """The same steps, each adding its wall time to ``seconds[step name]``."""
        return {step: self._timed(step.value, function) for step, function in steps.items()}

    def _timed(self, name: str, function: StepFunction) -> StepFunction:
        def run(operation: Operation, context: StepContext) -> StepResult:
            began = time.perf_counter()
            try:
                return function(operation, context)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - began
                self.maxrss_kib[name] = _maxrss_kib()

        return run


def _maxrss_kib() -> int:
    """Peak resident set size of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _warm_parsers() -> None:
    """Parse one small file of each format before anything is timed.

    The parsers import their format libraries (pypdf, python-docx, ...) on first use; without
    this the first file of each format would carry an import into its pipeline time. The
    files are tiny, so the baseline's memory peak stays that of the imports.
    """
    import logging

    from ragspine.demo import sample_dir
    from ragspine.ingestion.parsers import parse_document

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    samples = {p.suffix: p for p in sorted(sample_dir().iterdir()) if p.suffix in (".docx", ".pptx", ".xlsx", ".md")}
    inputs = [(p.name, p.read_bytes()) for p in samples.values()] + [("warm-up.pdf", pdf_bytes(1))]
    for name, data in inputs:
        parse_document(data, doc_id=name, filename=name, max_bytes=MAX_BYTES)


def _setup() -> tuple[StepContext, dict[str, Any], Services]:
    """Services from the environment, every module the steps import lazily, and a loaded embedder.

    The baseline child stops here, so what the ingesting child uses beyond this is the ingestion's own.
    """
    import ragspine.ingestion.chunking
    import ragspine.ingestion.facts_extract
    import ragspine.ingestion.parsers
    import ragspine.ingestion.runner
    import ragspine.ingestion.staged  # noqa: F401  (imported for its cost, not its names)
    from ragspine.bootstrap import build_ingest_context, build_services, resolve_embedder
    from ragspine.settings import load_settings

    settings = load_settings()
    services = build_services(settings)
    context = build_ingest_context(services)
    _warm_parsers()
    if context.embedder is not None:
        context.embedder.embed(["passage warm-up: loads the model and its buffers"])
    info = {"embedder": resolve_embedder(settings).value,
            "embedder_class": type(context.embedder).__name__ if context.embedder else None,
            "index_class": type(context.index).__name__ if context.index else None}
    return context, info, services


def _ingest_one(path: Path, context: StepContext, trace: bool) -> dict[str, Any]:
    """Submit and run one file, timing the whole and each step; RSS peak read right after."""
    import tracemalloc

    from ragspine.ingestion.runner import InProcessRunner
    from ragspine.ingestion.steps import STEPS
    from ragspine.ingestion.submission import document_meta, submit

    clock = StepClock()
    runner = InProcessRunner(steps=clock.wrap(STEPS))
    if trace:
        tracemalloc.start()
    began = time.perf_counter()
    operation, _ = submit(path, operations=context.operations, meta=document_meta(path))
    submitted = time.perf_counter()
    done = runner.run(operation.id, context=context)
    seconds = time.perf_counter() - began
    row: dict[str, Any] = {"file": path.name, "status": done.status.value, "facts": done.facts_count,
                           "chunks": done.chunks_count, "pipeline_s": seconds,
                           "steps_s": {"submit": submitted - began, **clock.seconds},
                           "maxrss_kib_after": _maxrss_kib(), "maxrss_kib_after_step": clock.maxrss_kib,
                           "error": f"{done.error.code}: {done.error.message}" if done.error else None}
    if trace:
        row["tracemalloc_peak_bytes"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return row


def child_main(spec: dict[str, Any]) -> None:
    """Entry of a fresh interpreter: set up, ingest every file, then bare-parse each; one JSON line out.

    As ``ragspine ingest`` does, a background embedder (when the context defers embedding)
    runs beside the files and is drained at the end: ``pipeline_s`` is each file's time until
    it is searchable, ``dense`` how long the vectors took after the last file and in all.
    """
    from ragspine.bootstrap import build_background_embedder

    context, info, services = _setup()
    background = build_background_embedder(services) if context.defer_embedding and spec["files"] else None
    if background is not None:
        background.start()
    result: dict[str, Any] = {**info, "maxrss_kib_setup": _maxrss_kib(), "files": [],
                              "deferred_embedding": context.defer_embedding}
    began = time.perf_counter()
    for name in spec["files"]:
        result["files"].append(_ingest_one(Path(name), context, bool(spec.get("tracemalloc"))))
        if background is not None:
            background.wake()
    if background is not None:
        searchable = time.perf_counter()
        drained = background.drain(timeout=CHILD_TIMEOUT_S)
        finished = time.perf_counter()
        background.stop()
        result["dense"] = {"drained": drained, "passages": background.embedded,
                           "embed_s": round(background.seconds, 3),
                           "passages_per_s": round(background.embedded / background.seconds, 2)
                           if background.seconds else None,
                           "after_last_file_s": round(finished - searchable, 3),
                           "all_searchable_s": round(searchable - began, 3),
                           "all_dense_s": round(finished - began, 3)}
    # The bare parses run after the background embedder is done, so they have the machine the
    # pipeline would have without it (parsing beside it would flatter the ratio).
    for row, name in zip(result["files"], spec["files"], strict=True):
        row.update(parse_stats(Path(name), runs=spec["parse_runs"]))
        row["ratio"] = round(row["pipeline_s"] / row["parse_s"], 2)
    print(json.dumps(result), flush=True)


def _child_env(data_dir: Path, embedder: str) -> dict[str, str]:
    """This environment without any RAGSPINE_ setting, then the embedded backend in ``data_dir``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAGSPINE_")}
    env.update({"RAGSPINE_BACKEND": "embedded", "RAGSPINE_DATA_DIR": str(data_dir),
                "RAGSPINE_EMBEDDER": EMBEDDERS[embedder]})
    return env


def run_child(files: list[Path], *, work: Path, embedder: str, parse_runs: int = 1,
              trace: bool = False, vectors_from: Path | None = None) -> dict[str, Any]:
    """Run ``child_main`` in a fresh interpreter and data folder; its JSON result plus its wall time.

    ``vectors_from``: a data folder whose vector cache the new one starts with (a re-ingest).
    """
    data_dir = Path(tempfile.mkdtemp(prefix="data-", dir=work))
    if vectors_from is not None and (vectors_from / "vectors.db").exists():
        shutil.copy2(vectors_from / "vectors.db", data_dir / "vectors.db")
    spec = json.dumps({"files": [str(p) for p in files], "tracemalloc": trace, "parse_runs": parse_runs})
    python = REPO / ".venv" / "bin" / "python"
    began = time.perf_counter()
    done = subprocess.run([str(python if python.exists() else sys.executable), str(Path(__file__)),
                           "--child", spec], cwd=REPO, env=_child_env(data_dir, embedder),
                          capture_output=True, text=True, check=False, timeout=CHILD_TIMEOUT_S)
    if done.returncode != 0:
        raise SystemExit(f"bench child failed ({done.returncode}):\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall_s"] = time.perf_counter() - began
    result["data_dir"] = str(data_dir)
    return result


# --- putting it together --------------------------------------------------------------------------

def _totals(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Pages, seconds, pages/s and the pipeline/parse ratio over ``rows``."""
    pages = sum(r["pages"] for r in rows)
    parse_s = sum(r["parse_s"] for r in rows)
    pipeline_s = sum(r["pipeline_s"] for r in rows)
    steps: dict[str, float] = {}
    for row in rows:
        for name, seconds in row["steps_s"].items():
            steps[name] = steps.get(name, 0.0) + seconds
    steps["runner overhead"] = pipeline_s - sum(steps.values())
    return {"files": len(rows), "pages": pages, "parse_s": round(parse_s, 3), "pipeline_s": round(pipeline_s, 3),
            "parse_pages_per_s": round(pages / parse_s, 2), "pipeline_pages_per_s": round(pages / pipeline_s, 2),
            "ratio_pipeline_over_parse": round(pipeline_s / parse_s, 2),
            "steps_s": {k: round(v, 3) for k, v in steps.items()},
            "steps_share": {k: round(v / pipeline_s, 3) for k, v in steps.items()}}


def _peak(baseline: dict[str, Any], run: dict[str, Any]) -> dict[str, Any]:
    """Peak RSS of a one-file child against its baseline child, and after which step it was reached."""
    row = run["files"][0]
    base, peak = baseline["maxrss_kib_setup"], row["maxrss_kib_after"]
    return {"embedder": run["embedder"], "baseline_peak_rss_mib": round(base / KIB, 1),
            "pdf_peak_rss_mib": round(peak / KIB, 1), "delta_mib": round((peak - base) / KIB, 1),
            "in_process_setup_rss_mib": round(run["maxrss_kib_setup"] / KIB, 1),
            "peak_after_step_mib": {step: round(kib / KIB, 1) for step, kib in row["maxrss_kib_after_step"].items()}}


def _memory(runs: Mapping[str, tuple[dict[str, Any], dict[str, Any]]],
            traced: dict[str, Any] | None) -> dict[str, Any]:
    """Peak RSS per embedder (baseline child, PDF child) and the tracemalloc peak when measured."""
    result: dict[str, Any] = {name: _peak(baseline, run) for name, (baseline, run) in runs.items()}
    if traced is not None:
        result["tracemalloc"] = {"embedder": traced["embedder"],
                                 "peak_mib": round(traced["files"][0]["tracemalloc_peak_bytes"] / KIB / KIB, 1)}
    return result


def _isolated(pdf: Path, *, work: Path, parse_runs: int, log: Callable[[str], None]) -> dict[str, Any]:
    """The PDF through the pipeline with the embedder off, and its baseline: the pipeline's own cost."""
    log("ingestion: the PDF again with embedder none (baseline, pipeline), to isolate the embedder")
    baseline = run_child([], work=work, embedder="none")
    return {"baseline": baseline, "pdf": run_child([pdf], work=work, embedder="none", parse_runs=parse_runs)}


def run_ingestion(*, quick: bool, embedder: str = "auto", trace: bool = True,
                  log: Callable[[str], None] = _log) -> dict[str, Any]:
    """The whole benchmark; the dict that run.py stores under ``ingestion`` and ``render`` prints."""
    plan = MODES["quick" if quick else "full"]
    runs = plan["parse_runs"]
    with tempfile.TemporaryDirectory(prefix="ragspine-ingest-bench-") as tmp:
        work = Path(tmp)
        pdf = write_pdf(work, plan["pdf_pages"])
        files = input_files(pdf)
        log("ingestion: baseline interpreter (imports + embedder, no ingestion)")
        baseline = run_child([], work=work, embedder=embedder)
        log(f"ingestion: pipeline, then bare parse x{runs}, of the {plan['pdf_pages']}-page PDF in a fresh "
            f"interpreter (embedder {baseline['embedder']})")
        pdf_run = run_child([pdf], work=work, embedder=embedder, parse_runs=runs)
        log(f"ingestion: the same for the other {len(files) - 1} files in a fresh interpreter")
        rest = run_child(files[1:], work=work, embedder=embedder, parse_runs=runs)
        reingest = None
        if baseline["embedder"] != "none":
            log("ingestion: the same files again into a new data folder that keeps the vector cache (a re-ingest)")
            reingest = run_child(files[1:], work=work, embedder=embedder, vectors_from=Path(rest["data_dir"]))
        peaks = {baseline["embedder"]: (baseline, pdf_run)}
        if baseline["embedder"] != "none":
            isolated = _isolated(pdf, work=work, parse_runs=runs, log=log)
            peaks["none"] = (isolated["baseline"], isolated["pdf"])
        traced = None
        if trace:
            log("ingestion: tracemalloc peak of the PDF pipeline (embedder none)")
            traced = run_child([pdf], work=work, embedder="none", trace=True)
    rows = pdf_run["files"] + rest["files"]
    return {"mode": "quick" if quick else "full", "embedder": baseline["embedder"],
            "embedder_class": baseline["embedder_class"], "index_class": baseline["index_class"],
            "pdf_pages": plan["pdf_pages"], "parse_runs": runs, "chars_per_page": CHARS_PER_PAGE,
            "corpus_present": CORPUS.is_dir(), "cpus": os.cpu_count(), "load_average": os.getloadavg(),
            "files": rows, "total": _totals(rows), "without_pdf": _totals(rows[1:]), "pdf": _totals(rows[:1]),
            "pdf_embedder_none": _totals(peaks["none"][1]["files"]), "memory": _memory(peaks, traced),
            "deferred_embedding": pdf_run.get("deferred_embedding", False),
            "dense": {"pdf": pdf_run.get("dense"), "rest": rest.get("dense"),
                      "reingest": reingest.get("dense") if reingest else None}}


# --- report ---------------------------------------------------------------------------------------

def _file_line(row: dict[str, Any]) -> str:
    failed = "" if row["status"] == "SUCCEEDED" else f"  {row['status']}: {row['error']}"
    return (f"   {row['file'][:44]:<45}{row['pages']:>6}{row['parse_s'] * 1000:>11.1f}"
            f"{row['pipeline_s'] * 1000:>12.1f}{row['ratio']:>8.1f}x{row['chunks']:>7}{row['facts']:>6}{failed}")


def _total_line(label: str, t: dict[str, Any]) -> str:
    return (f"   {label:<22}{t['pages']:>6} pages  parse {t['parse_pages_per_s']:>8.1f} p/s  "
            f"pipeline {t['pipeline_pages_per_s']:>7.2f} p/s  pipeline/parse {t['ratio_pipeline_over_parse']:>7.1f}x")


def _memory_lines(result: dict[str, Any]) -> list[str]:
    memory = result["memory"]
    lines = [f"   peak RSS ingesting the {result['pdf_pages']}-page PDF in a fresh interpreter, against a baseline "
             "interpreter that imports the same modules and loads the embedder:"]
    for name, peak in memory.items():
        if name == "tracemalloc":
            continue
        lines.append(f"   embedder {name:<26} {peak['pdf_peak_rss_mib']:>7.1f} MiB vs {peak['baseline_peak_rss_mib']:>6.1f} "
                     f"MiB baseline -> {peak['delta_mib']:+.1f} MiB")
        steps = ", ".join(f"{step} {mib:.0f}" for step, mib in peak["peak_after_step_mib"].items())
        lines.append(f"      peak after each step (MiB): {steps}")
    if "tracemalloc" in memory:
        traced = memory["tracemalloc"]
        lines.append(f"   tracemalloc peak (Python heap) of the same ingestion, embedder {traced['embedder']}: "
                     f"{traced['peak_mib']} MiB")
    return lines


def render(result: dict[str, Any]) -> list[str]:
    """The report section as lines (run.py appends them to its report)."""
    lines = [f"3. Ingestion: bare parse vs parse → chunk → embed → index ({result['mode']} mode, "
             f"embedder {result['embedder']}, index {result['index_class']})",
             f"   page = PDF page / pptx slide / xlsx sheet / {result['chars_per_page']} extracted chars otherwise; "
             f"pipeline = one run; parse = median of {result['parse_runs']} right after it, same interpreter",
             "",
             f"   {'file':<45}{'pages':>6}{'parse ms':>11}{'pipeline ms':>12}{'ratio':>9}{'chunks':>7}{'facts':>6}"]
    lines += [_file_line(row) for row in result["files"]]
    lines += ["", _total_line("all files", result["total"]), _total_line("generated PDF", result["pdf"]),
              _total_line("ACME + corpus", result["without_pdf"]),
              _total_line("PDF, embedder none", result["pdf_embedder_none"]), "",
              "   pipeline time per step (all files):"]
    total = result["total"]
    lines += [f"   {name:<18}{seconds:>9.3f} s {total['steps_share'][name] * 100:>6.1f}%"
              for name, seconds in total["steps_s"].items()]
    return [*lines, "", *_dense_lines(result), *_memory_lines(result)]


def _dense_lines(result: dict[str, Any]) -> list[str]:
    """When embedding is deferred: the dense vectors' own time, after each file was already searchable."""
    if not result.get("deferred_embedding"):
        return []
    lines = ["   dense vectors, embedded in the background (pipeline above = until searchable by BM25):"]
    for label, dense in (("generated PDF", result["dense"]["pdf"]), ("ACME + corpus", result["dense"]["rest"])):
        if dense:
            lines.append(f"   {label:<22}{dense['passages']:>6} passages, {dense['passages_per_s']} passages/s; "
                         f"all searchable after {dense['all_searchable_s']} s, all dense after "
                         f"{dense['all_dense_s']} s")
    first, again = result["dense"]["rest"], result["dense"].get("reingest")
    if first and again and first["all_dense_s"]:
        lines.append(f"   re-ingest of ACME + corpus with the vector cache: all dense after {again['all_dense_s']} s "
                     f"({again['passages']} passages set), {round(again['all_dense_s'] / first['all_dense_s'], 3)} "
                     f"of the first ingest's {first['all_dense_s']} s")
    return [*lines, ""]


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 20-page PDF and one parse run (smoke run)")
    parser.add_argument("--embedder", default="auto", choices=tuple(EMBEDDERS),
                        help="RAGSPINE_EMBEDDER of the pipeline (default: what the embedded default picks)")
    parser.add_argument("--no-tracemalloc", action="store_true", help="skip the tracemalloc run")
    parser.add_argument("--json-only", action="store_true", help="print only the JSON results")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, write results/ingestion.json and print the report."""
    args = _parse_args(argv)
    if args.child is not None:
        child_main(json.loads(args.child))
        return 0
    result = run_ingestion(quick=args.quick, embedder=args.embedder, trace=not args.no_tracemalloc)
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "ingestion.json"
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2, ensure_ascii=False) if args.json_only else "\n".join(render(result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
