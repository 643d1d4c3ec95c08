"""Ask latency while the background embedder writes vectors, against the same asks with no write.

A benchmark, not a test: nothing asserts on time. A synthetic index of ``--size`` chunks is
written without vectors (as an ingest with background embedding leaves it); then, interleaved,
a reader asks with no write before it (the baseline) and right after another index object on
the same file has given the next 8 passages their vectors (what the background embedder does).
Both asks use the hybrid (BM25 + dense). It prints p50/p99 of each, their ratio, and how many
times the reader read every row (1: the first load; a backfill should add none).

    .venv/bin/python tests/bench/asks_during_backfill.py [--size 64000] [--asks 200]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

from retrieval_index import DIM, LIBRARIES, make_queries, synthetic_texts, unit_vectors  # noqa: E402
from timing import summarize_ns  # noqa: E402

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex  # noqa: E402
from ragspine.retrieval.model import Chunk, SearchFilters  # noqa: E402

BATCH = 8  # the background embedder's batch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=64_000)
    parser.add_argument("--asks", type=int, default=200)
    args = parser.parse_args(argv)
    texts, vectors = synthetic_texts(args.size), unit_vectors(args.size)
    queries = make_queries(texts, vectors, args.asks)
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "chunks.db"
        writer = EmbeddedChunkIndex(path, dimension=DIM)
        for start in range(0, args.size, 2000):
            writer.add([Chunk(f"c{i}", f"d{i // 20}", f"para={i % 20 + 1}", text, library=LIBRARIES[i % 4])
                        for i, text in enumerate(texts[start:start + 2000], start=start)])
        reader = EmbeddedChunkIndex(path)
        filters = SearchFilters()
        samples: dict[str, list[int]] = {"idle": [], "after_a_vector_write": []}
        written = 0
        reader.search("warm", top_k=10, filters=filters, query_vector=queries[0][1])  # the first load
        for i, (text, query_vector, _) in enumerate(queries):
            after_write = i % 2 == 1
            if after_write:
                ids = [f"c{j}" for j in range(written, written + BATCH)]
                writer.set_vectors(ids, vectors[written:written + BATCH].tolist())
                written += BATCH
            began = time.perf_counter_ns()
            reader.search(text, top_k=10, filters=filters, query_vector=query_vector)
            samples["after_a_vector_write" if after_write else "idle"].append(time.perf_counter_ns() - began)
        summary = {name: summarize_ns(values) for name, values in samples.items()}
        report = {"size": args.size, "vector_writes": written // BATCH, "full_loads": reader.full_loads, **summary,
                  "p50_ratio": round(summary["after_a_vector_write"]["p50_us"] / summary["idle"]["p50_us"], 2)}
        print(json.dumps(report, indent=2))
        reader.close()
        writer.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
