"""Embedded chunk index benchmark: indexing throughput and query latency against bm25s.

A benchmark, not a test: nothing asserts on time. For 10k and 100k synthetic chunks
(deterministic mixed Chinese/English text, random unit vectors of dimension 384) it times,
interleaved in one run: bm25s alone over the same tokens, our BM25 leg alone, our hybrid
(BM25 + dense + RRF), the hybrid with an exact dense leg, and a filtered hybrid. It also
reports how many of the exact dense top-10 the default (sign-bit pre-selected) dense leg
finds. Results go to ``tests/bench/results/retrieval_index.json``.

    .venv/bin/python tests/bench/retrieval_index.py [--sizes 10000 100000] [--queries 300]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from timing import percentile, sample_interleaved  # noqa: E402

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex  # noqa: E402
from ragspine.retrieval.model import Chunk, SearchFilters  # noqa: E402
from ragspine.text import document_tokens, query_tokens  # noqa: E402

DIM = 384
TOP_K = 10
LIBRARIES = ("finance", "policies", "hr", "ops")
_HAN = [chr(c) for c in range(0x4E00, 0x4E00 + 2500)]
_LETTERS = list("abcdefghijklmnopqrstuvwxyz")


def synthetic_texts(n: int, *, seed: int = 11) -> list[str]:
    """``n`` chunk texts, 60% Chinese and 40% English, Zipf-distributed words (deterministic)."""
    vocab_rng = np.random.default_rng(7)
    zh = ["".join(vocab_rng.choice(_HAN, size=int(vocab_rng.integers(2, 4)))) for _ in range(8000)]
    en = ["".join(vocab_rng.choice(_LETTERS, size=int(vocab_rng.integers(3, 9)))) for _ in range(8000)]
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, 8001) ** 1.07
    lengths = rng.integers(40, 120, size=n)
    chinese = rng.random(n) < 0.6
    words = rng.choice(8000, size=int(lengths.sum()), p=weights / weights.sum())
    texts, at = [], 0
    for i in range(n):
        ids = words[at:at + int(lengths[i])]
        at += int(lengths[i])
        if chinese[i]:
            run = "".join([zh[j] for j in ids])
            texts.append("，".join(run[s:s + 20] for s in range(0, len(run), 20)) + "。")
        else:
            texts.append(" ".join([en[j] for j in ids]) + ".")
    return texts


def unit_vectors(n: int, *, seed: int = 5) -> np.ndarray:
    """Random unit float32 vectors (the worst case for any approximate dense search)."""
    matrix = np.random.default_rng(seed).standard_normal((n, DIM), dtype=np.float32)
    unit: np.ndarray = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return unit


def make_queries(texts: list[str], vectors: np.ndarray, count: int) -> list[tuple[str, list[float], int]]:
    """Snippets of random chunks; each query vector is its chunk's vector plus noise; and that chunk."""
    rng = np.random.default_rng(3)
    queries = []
    for i in rng.integers(0, len(texts), size=count).tolist():
        text = texts[i]
        if text.endswith("。"):
            start = int(rng.integers(0, max(1, len(text) - 12)))
            snippet = text[start:start + int(rng.integers(4, 11))]
        else:
            words = text.split()
            start = int(rng.integers(0, max(1, len(words) - 5)))
            snippet = " ".join(words[start:start + int(rng.integers(2, 6))])
        noisy = vectors[i] + rng.standard_normal(DIM).astype(np.float32) * 0.05
        queries.append((snippet, (noisy / np.linalg.norm(noisy)).tolist(), i))
    return queries


def build_index(path: Path, texts: list[str], vectors: np.ndarray, *, batch: int = 2000) -> float:
    """Index every chunk; return chunks per second."""
    index = EmbeddedChunkIndex(path, dimension=DIM)
    began = time.perf_counter()
    for start in range(0, len(texts), batch):
        chunks = [Chunk(f"c{i}", f"d{i // 20}", f"para={i % 20 + 1}", text, library=LIBRARIES[i % 4])
                  for i, text in enumerate(texts[start:start + batch], start=start)]
        index.add(chunks, vectors[start:start + batch].tolist())
    return len(texts) / (time.perf_counter() - began)


def run_size(n: int, *, n_queries: int, calls: int, work: Path) -> dict[str, Any]:
    """Every measurement for one corpus size."""
    import bm25s

    texts, vectors = synthetic_texts(n), unit_vectors(n)
    queries = make_queries(texts, vectors, n_queries)
    ours_rate = build_index(work / f"chunks-{n}.db", texts, vectors)
    began = time.perf_counter()
    retriever = bm25s.BM25()
    retriever.index([document_tokens("\n" + t) for t in texts], show_progress=False)
    bm25s_rate = n / (time.perf_counter() - began)

    index = EmbeddedChunkIndex(work / f"chunks-{n}.db")
    exact = EmbeddedChunkIndex(work / f"chunks-{n}.db", exact_dense_limit=n)
    began = time.perf_counter()
    index.search("warm", top_k=1, filters=SearchFilters())
    snapshot_s = time.perf_counter() - began
    exact.search("warm", top_k=1, filters=SearchFilters())
    everything, one_library = SearchFilters(), SearchFilters(libraries=("policies",))

    def q(i: int) -> tuple[str, list[float], int]:
        return queries[i % len(queries)]

    paths = {
        "bm25s": lambda i: retriever.retrieve([query_tokens(q(i)[0])], k=TOP_K, show_progress=False, n_threads=1),
        "ours_bm25": lambda i: index.search(q(i)[0], top_k=TOP_K, filters=everything),
        "ours_hybrid": lambda i: index.search(q(i)[0], top_k=TOP_K, filters=everything, query_vector=q(i)[1]),
        "ours_hybrid_exact": lambda i: exact.search(q(i)[0], top_k=TOP_K, filters=everything, query_vector=q(i)[1]),
        "ours_hybrid_filtered": lambda i: index.search(q(i)[0], top_k=TOP_K, filters=one_library,
                                                       query_vector=q(i)[1]),
    }
    samples = sample_interleaved(paths, n=calls, warmup=min(50, calls), block=50)
    latency = {name: {"p50_ms": round(percentile(s, 50) / 1e6, 3), "p95_ms": round(percentile(s, 95) / 1e6, 3)}
               for name, s in samples.items()}
    return {
        "chunks": n,
        "index_chunks_per_s": {"ours": round(ours_rate), "bm25s": round(bm25s_rate)},
        "snapshot_build_s": round(snapshot_s, 2),
        "latency": latency,
        "hybrid_p50_over_bm25s_p50": round(latency["ours_hybrid"]["p50_ms"] / latency["bm25s"]["p50_ms"], 2),
        "dense_leg": _dense_recall(work / f"chunks-{n}.db", queries, n),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def _dense_recall(path: Path, queries: list[tuple[str, list[float], int]], n: int) -> dict[str, float]:
    """The default dense leg against an exact one: overlap of their top-10, and origin hits.

    Random vectors have no cluster structure, so the overlap is a worst case; the origin
    (the chunk whose vector, plus noise, is the query) is what a real query looks for.
    """
    approx, exact = EmbeddedChunkIndex(path), EmbeddedChunkIndex(path, exact_dense_limit=n)
    snap_a, snap_e = approx._current(), exact._current()  # the legs alone, without fusion
    allowed = snap_a.mask(SearchFilters())
    overlap = origin = 0
    for _, vector, source in queries:
        unit = np.asarray(vector, dtype=np.float32)
        got = snap_a.dense(unit, allowed, TOP_K).positions.tolist()
        overlap += len(set(got) & set(snap_e.dense(unit, allowed, TOP_K).positions.tolist()))
        origin += int(snap_a.row_ids[got[0]]) == source + 1  # row ids start at 1, in insertion order
    return {"recall_at_10_vs_exact": round(overlap / (TOP_K * len(queries)), 3),
            "origin_at_1": round(origin / len(queries), 3)}


def main(argv: list[str] | None = None) -> int:
    """Run every size, print a table and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--calls", type=int, default=600, help="timed calls per path")
    args = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory(prefix="ragspine-bench-") as tmp:
        for n in args.sizes:
            print(f"building {n:,} chunks ...", file=sys.stderr, flush=True)
            results.append(run_size(n, n_queries=args.queries, calls=args.calls, work=Path(tmp)))
            print(json.dumps(results[-1], indent=2), flush=True)
    out = BENCH_DIR / "results" / "retrieval_index.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
