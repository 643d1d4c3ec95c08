"""The static embedder distilled from e5 against e5 itself: recall@5 and passages/s, side by side, one run.

For each evaluation set (subsets, sizes in the output): BM25 alone, hybrid with e5 (the
embedded default today) and hybrid with the static table, through the same harnesses the
retrieval evaluation uses (``tests/eval/harness.py`` for ACME, CMRC2018 and TAT-QA, whose
chunks are embedded directly; ``tests/eval/documents.py`` for JSQuAD and FinanceBench, ingested
through the pipeline, so their ingest time is the time until both legs exist). Passages/s are
CPU-time rates of the same passages in the same run (the machine is shared, so wall time says
little). A benchmark, not a test: nothing asserts.

    .venv/bin/python tests/bench/static_dense.py --table DATA/static-e5-small.npz [--corpora ...]
        [--tatqa 40] [--cmrc2018 60] [--jsquad 60] [--financebench 1]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.eval import documents, harness, public_qa  # noqa: E402
from tests.eval.vectors import CachedEmbedder, e5_embedders  # noqa: E402

from ragspine.llm.ports import Embedder  # noqa: E402
from ragspine.llm.static_embedder import StaticEmbedder, static_table_path  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
E5_CACHE = RESULTS / "e5-cache"
CORPORA = ("acme", "tatqa", "cmrc2018", "jsquad", "financebench")
E5 = "multilingual-e5-small-q4"
STATIC = "static-e5-small"


class CpuTimed:
    """An embedder that counts its texts and the process CPU seconds they took."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.prefix = getattr(inner, "prefix", "plain")
        self.texts = 0
        self.cpu_s = 0.0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        began = time.process_time()
        out = self.inner.embed(texts)
        self.cpu_s += time.process_time() - began
        self.texts += len(texts)
        return out

    def rate(self) -> float | None:
        return round(self.texts / self.cpu_s, 2) if self.cpu_s > 0 else None


def _embedders(kind: str, table: Path, cache_dir: Path) -> tuple[harness.Embedders, CpuTimed]:
    """Query/passage embedders for the harness: e5 through the evaluation's cache, static uncached."""
    if kind == E5:
        query, passage = e5_embedders(1)
    else:
        query = passage = StaticEmbedder(table)
    timed = CpuTimed(passage)
    return harness.Embedders(CachedEmbedder(query, cache_dir), CachedEmbedder(timed, cache_dir),
                             query, passage), timed


def _recall5(result: dict[str, Any], mode: str) -> float:
    return float(result["modes"][mode]["recall@5"])


def run_chunk_set(name: str, limit: int | None, table: Path, workdir: Path,
                  log: Callable[[str], None]) -> dict[str, Any]:
    """ACME, TAT-QA or CMRC2018: the harness's own evaluation, once per embedder."""
    out: dict[str, Any] = {}
    for kind in (E5, STATIC):
        folder = workdir / f"{name}-{kind}"
        folder.mkdir()
        # e5 vectors come from the evaluation's cache when present; the static ones are always fresh.
        embedders, timed = _embedders(kind, table, E5_CACHE if kind == E5 else folder / "cache")
        if name == "acme":
            result = harness.run_acme(folder, embedders)
        else:
            corpus = public_qa.tatqa(limit=limit) if name == "tatqa" else public_qa.cmrc2018(limit=limit)
            result = harness.run_public(corpus, folder, embedders)
        out.setdefault("size", {"chunks": result["chunks"], "queries": result["queries"], "limit": limit})
        out["bm25"] = _recall5(result, "bm25")
        out[f"hybrid {kind}"] = _recall5(result, "hybrid")
        out[f"dense {kind}"] = _recall5(result, "dense")
        rate = timed.rate() if timed.texts else result["cost"].get("embed_passages_per_s")
        out[f"passages/s {kind}"] = rate
        log(f"[static] {name} {kind}: hybrid {out[f'hybrid {kind}']}, dense {out[f'dense {kind}']}, {rate} passages/s")
    return out


def _ingest_and_rank(files: Sequence[Path], data_dir: Path, kind: str, table: Path, queries: Sequence[str],
                     log: Callable[[str], None]) -> tuple[documents.Ingested, dict[str, Callable[[int], Any]],
                                                          dict[str, Any]]:
    """Ingest from an empty data folder (inline embedding), the rankers, and the CPU seconds spent.

    e5 passages go through the evaluation's vector cache (a re-run embeds only new text), so
    the embedder's own CPU seconds and passages are reported beside the ingest's.
    """
    timed: list[CpuTimed] = []

    def wrap(inner: Any) -> Any:
        timed.append(CpuTimed(inner))
        return CachedEmbedder(timed[-1], E5_CACHE) if kind == E5 else timed[-1]

    data_dir.mkdir(parents=True)
    if kind == STATIC:
        shutil.copyfile(table, static_table_path(data_dir))
    began = time.process_time()
    ingested = documents.ingest(files, data_dir, embedder=kind, passage_cache=wrap, log=log)
    cost = {"ingest_cpu_s": round(time.process_time() - began, 1), "ingest_wall_s": round(ingested.seconds, 1),
            "embedded": timed[0].texts if timed else 0, "embed_cpu_s": round(timed[0].cpu_s, 1) if timed else 0.0,
            "passages_per_cpu_s": timed[0].rate() if timed else None}
    return ingested, documents.rankers(ingested, data_dir, queries), cost


def run_jsquad(paragraphs: int, table: Path, workdir: Path, log: Callable[[str], None]) -> dict[str, Any]:
    """The first ``paragraphs`` JSQuAD paragraphs, each a file, and their questions."""
    files, pairs = documents.jsquad_files(workdir / "jsquad-files")
    files = files[:paragraphs]
    names = {f.name for f in files}
    pairs = [(q, gold) for q, gold in pairs if gold in names]
    queries = [q for q, _ in pairs]
    out: dict[str, Any] = {"size": {"paragraphs": len(files), "questions": len(pairs)}}
    for kind in (E5, STATIC):
        ingested, modes, cost = _ingest_and_rank(files, workdir / f"jsquad-{kind}", kind, table, queries, log)
        for mode in ("bm25", "hybrid", "dense"):
            hits = sum(gold in [doc for doc, _ in modes[mode](i)][:documents.TOP] for i, (_, gold) in enumerate(pairs))
            out[mode if mode == "bm25" else f"{mode} {kind}"] = round(hits / max(len(pairs), 1), 4)
        out[f"cost {kind}"] = cost
        out["size"]["chunks"] = ingested.chunks
        log(f"[static] jsquad {kind}: hybrid {out[f'hybrid {kind}']}, {cost}")
    return out


def run_financebench(filings: int, table: Path, workdir: Path, log: Callable[[str], None]) -> dict[str, Any]:
    """The ``filings`` FinanceBench development filings with the most questions; evidence page in the top 5."""
    questions = documents.financebench_questions()
    counts: dict[str, int] = {}
    for q in questions:
        counts[q["doc"]] = counts.get(q["doc"], 0) + 1
    subset = sorted(counts, key=lambda d: (-counts[d], d))[:filings]
    asked = [q for q in questions if q["doc"] in subset]
    files = [documents.FINANCEBENCH / d for d in subset]
    out: dict[str, Any] = {"size": {"filings": subset, "questions": len(asked)}}
    for kind in (E5, STATIC):
        ingested, modes, cost = _ingest_and_rank(files, workdir / f"fb-{kind}", kind, table,
                                                [q["question"] for q in asked], log)
        for mode in ("bm25", "hybrid", "dense"):
            out[mode if mode == "bm25" else f"{mode} {kind}"] = documents.score_financebench(asked, modes[mode])["page_top5"]
        out[f"cost {kind}"] = cost
        out["size"] |= {"pages": ingested.pages, "chunks": ingested.chunks}
        log(f"[static] financebench {kind}: hybrid {out[f'hybrid {kind}']}, {cost}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the named sets and write ``tests/bench/results/static_dense.json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--table", type=Path, required=True, help="the distilled table (static_distil --out)")
    parser.add_argument("--corpora", nargs="+", choices=CORPORA, default=list(CORPORA))
    parser.add_argument("--tatqa", type=int, default=40, help="TAT-QA contexts")
    parser.add_argument("--cmrc2018", type=int, default=60, help="CMRC2018 paragraphs")
    parser.add_argument("--jsquad", type=int, default=60, help="JSQuAD paragraphs")
    parser.add_argument("--financebench", type=int, default=1, help="FinanceBench filings (most questions first)")
    parser.add_argument("--out", type=Path, default=RESULTS / "static_dense.json")
    args = parser.parse_args(argv)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    report: dict[str, Any] = {"generated": datetime.now(UTC).isoformat(timespec="seconds"),
                              "table": str(args.table), "sets": {}}
    with tempfile.TemporaryDirectory(prefix="ragspine-static-") as tmp:
        for name in args.corpora:
            began = time.perf_counter()
            workdir = Path(tmp) / name
            workdir.mkdir()
            if name in ("acme", "tatqa", "cmrc2018"):
                limit = None if name == "acme" else getattr(args, name)
                report["sets"][name] = run_chunk_set(name, limit, args.table, workdir, log)
            elif name == "jsquad":
                report["sets"][name] = run_jsquad(args.jsquad, args.table, workdir, log)
            else:
                report["sets"][name] = run_financebench(args.financebench, args.table, workdir, log)
            log(f"[static] {name} done in {time.perf_counter() - began:.0f} s")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
