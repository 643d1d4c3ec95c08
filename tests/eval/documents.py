"""Reading real documents: FinanceBench filings and JSQuAD paragraphs, ingested for real.

Unlike the other corpora of this evaluation (chunks built by hand), these are ingested into a
fresh data folder through the same path as ``ragspine ingest`` (``submit`` + ``InProcessRunner``:
parse → extract facts → chunk and embed → index → activate) and searched through the index
and through ``run_search`` (what ``ragspine search`` and ``POST /v1/search`` run). Modes:

- ``bm25``: the index with no query vector; ``dense``: cosine over the stored passage vectors;
  ``hybrid``: the index with a query vector; ``pipeline``: ``run_search`` as the service runs it.

FinanceBench (``../shared/corpus/financebench_dev/``): a question's gold document is its
``doc_name``; its gold pages are ``evidence_page_num + 1`` (0-based in the file; our locators
are 1-based ``page=N``, a packed chunk ``page=N-M`` covers N..M). JSQuAD: each paragraph is
one ``.txt`` file; the gold is that file. A character-bigram BM25 (bm25s over the raw text's
character bigrams, no tokenizer of ours) runs on the same paragraphs in the same run.

The e5 passage vectors go through the evaluation's on-disk cache, so a re-run embeds only new
chunk texts; ``dense_files`` limits the FinanceBench dense run to the filings of that many
questions-richest documents (embedding 3,784 pages on one core takes hours).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ragspine.retrieval.model import Chunk, SearchFilters

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
FINANCEBENCH = CORPUS / "financebench_dev"
JSQUAD = CORPUS / "qa" / "jsquad" / "jsquad_test-v1.3.json"
LIBRARY = "eval"  # passed explicitly until unrouted search covers every library
TOP = 5
_PAGES = re.compile(r"(?:^|,)page=(\d+)(?:-(\d+))?")

Ranked = list[tuple[str, str]]  # (doc_id, locator) best first


class DocumentsMissingError(RuntimeError):
    """The handout corpus folder is absent."""


@dataclasses.dataclass(frozen=True, slots=True)
class Ingested:
    """A fresh data folder after ingestion: the services over it and what the pipeline reported."""

    services: Any
    files: int
    pages: int
    chunks: int
    failed: int
    seconds: float


def locator_pages(locator: str) -> range:
    """The 1-based pages a locator covers (``page=3,para=2`` → 3; ``page=3-4`` → 3, 4); empty if none."""
    match = _PAGES.search(locator)
    if match is None:
        return range(0)
    first = int(match.group(1))
    return range(first, int(match.group(2) or first) + 1)


def ingest(files: Sequence[Path], data_dir: Path, *, embedder: str, passage_cache: Callable[[Any], Any] | None = None,
           log: Callable[[str], None] = print) -> Ingested:
    """Ingest ``files`` into ``data_dir`` as ``ragspine ingest --library eval`` does.

    ``passage_cache`` wraps the passage embedder (the evaluation's vector cache); the query
    embedder of the services stays the real one.
    """
    from rich.console import Console

    from ragspine.bootstrap import build_ingest_context, build_services
    from ragspine.cli_ingest import ingest_files
    from ragspine.ingestion.submission import document_meta
    from ragspine.settings import EmbedderName, Settings

    # Inline embedding: the vectors must exist when the dense modes read them, and the passage
    # cache wraps the inline embedder (the background one would bypass it).
    settings = Settings(data_dir=data_dir, embedder=EmbedderName(embedder), faq_enabled=False,
                        embed_in_background=False)
    services = build_services(settings)
    context = build_ingest_context(services)
    if passage_cache is not None and context.embedder is not None:
        context = dataclasses.replace(context, embedder=passage_cache(context.embedder))
    began = time.perf_counter()
    done = ingest_files(list(files), context=context, console=Console(quiet=True),
                        meta=lambda path: document_meta(path, library=LIBRARY))
    seconds = time.perf_counter() - began
    ops = [d.operation for d in done if d.succeeded and d.operation is not None]
    pages = 0
    for path in files:
        if path.suffix == ".pdf":
            import pypdfium2

            document = pypdfium2.PdfDocument(path)
            pages += len(document)
            document.close()
    log(f"[eval] ingested {len(ops)}/{len(files)} files, {sum(o.chunks_count for o in ops)} chunks in {seconds:.0f} s")
    return Ingested(services, len(files), pages, sum(o.chunks_count for o in ops), len(files) - len(ops), seconds)


def children(data_dir: Path) -> tuple[list[tuple[str, str]], list[bytes | None]]:
    """Every searchable chunk's (doc_id, locator) and stored vector, read from the embedded index file."""
    with sqlite3.connect(data_dir / "chunks.db") as db:
        rows = db.execute("SELECT doc_id, source_locator, vector FROM chunks WHERE searchable = 1 ORDER BY id").fetchall()
    return [(r[0], r[1]) for r in rows], [r[2] for r in rows]


def rankers(ingested: Ingested, data_dir: Path, queries: Sequence[str]) -> dict[str, Callable[[int], Ranked]]:
    """The modes over one ingested folder: bm25, pipeline, and with an embedder dense and hybrid."""
    import numpy as np

    from ragspine.retrieval.search import run_search

    services = ingested.services
    index = services.retrieval.index
    filters = SearchFilters(libraries=(LIBRARY,))

    def key(chunk: Chunk) -> tuple[str, str]:
        return chunk.doc_id, chunk.source_locator

    out: dict[str, Callable[[int], Ranked]] = {
        "bm25": lambda i: [key(h.chunk) for h in index.search(queries[i], top_k=TOP, filters=filters)],
        "pipeline": lambda i: [(h.doc, h.locator) for h in run_search(services, queries[i], libraries=(LIBRARY,),
                                                                        top_k=TOP).hits],
    }
    from ragspine.bootstrap import build_embedders

    query_embedder, _ = build_embedders(services.settings)
    if query_embedder is None:
        return out
    keys, blobs = children(data_dir)
    matrix = np.stack([np.frombuffer(b, dtype="<f4") for b in blobs if b is not None])
    vectors = np.asarray(query_embedder.embed(list(queries)), dtype=np.float32)

    def dense(i: int) -> Ranked:
        scores = matrix @ vectors[i]
        return [keys[j] for j in np.argsort(-scores, kind="stable")[:TOP].tolist()]

    out["dense"] = dense
    out["hybrid"] = lambda i: [key(h.chunk) for h in index.search(queries[i], top_k=TOP, filters=filters,
                                                                   query_vector=vectors[i].tolist())]
    return out


# --- FinanceBench ------------------------------------------------------------------------

def financebench_questions() -> list[dict[str, Any]]:
    """The 34 questions with their gold document and 1-based gold pages."""
    path = FINANCEBENCH / "questions.json"
    if not path.is_file():
        raise DocumentsMissingError(f"{path} is absent (the handout's financebench_dev corpus)")
    out = []
    for q in json.loads(path.read_text(encoding="utf-8")):
        pages = {(e["doc_name"], e["evidence_page_num"] + 1) for e in q["evidence"]}
        out.append({"id": q["financebench_id"], "question": q["question"], "doc": f"{q['doc_name']}.pdf",
                    "pages": sorted(pages)})
    return out


def score_financebench(questions: Sequence[dict[str, Any]], rank: Callable[[int], Ranked]) -> dict[str, Any]:
    """Document in the top 5 and evidence page in the top 5, with the ids of the misses."""
    doc_hits, page_hits, missed = 0, 0, []
    for i, q in enumerate(questions):
        ranked = rank(i)[:TOP]
        doc_hit = any(doc == q["doc"] for doc, _ in ranked)
        page_hit = any(f"{name}.pdf" == doc and page in locator_pages(locator)
                       for doc, locator in ranked for name, page in q["pages"])
        doc_hits += doc_hit
        page_hits += page_hit
        if not page_hit:
            missed.append(q["id"])
    n = max(len(questions), 1)
    return {"document_top5": round(doc_hits / n, 3), "page_top5": round(page_hits / n, 3),
            "questions": len(questions), "page_missed": missed}


def run_financebench(workdir: Path, *, embedder: str, dense_files: int, cache: Callable[[Any], Any] | None,
                     log: Callable[[str], None]) -> dict[str, Any]:
    """BM25 and pipeline over all filings (embedder off); dense and hybrid over a subset when asked."""
    questions = financebench_questions()
    files = sorted(FINANCEBENCH.glob("*.pdf"))
    result: dict[str, Any] = {"modes": {}}
    full = ingest(files, workdir / "fb-bm25", embedder="none", log=log)
    result["bm25_run"] = {"files": full.files, "pages": full.pages, "chunks": full.chunks, "failed": full.failed,
                          "ingest_s": round(full.seconds, 1), "pages_per_s": round(full.pages / full.seconds, 1)}
    texts = [q["question"] for q in questions]
    for name, rank in rankers(full, workdir / "fb-bm25", texts).items():
        result["modes"][name] = score_financebench(questions, rank)
    if embedder != "none" and dense_files:
        counts: dict[str, int] = {}
        for q in questions:
            counts[q["doc"]] = counts.get(q["doc"], 0) + 1
        subset = sorted(counts, key=lambda d: (-counts[d], d))[:dense_files]
        asked = [q for q in questions if q["doc"] in subset]
        dense = ingest([FINANCEBENCH / d for d in subset], workdir / "fb-dense", embedder=embedder,
                       passage_cache=cache, log=log)
        result["dense_run"] = {"files": subset, "pages": dense.pages, "chunks": dense.chunks,
                               "questions": len(asked), "ingest_s": round(dense.seconds, 1)}
        result["subset_modes"] = {name: score_financebench(asked, rank) for name, rank in
                                  rankers(dense, workdir / "fb-dense", [q["question"] for q in asked]).items()}
    return result


# --- JSQuAD ------------------------------------------------------------------------------

def jsquad_files(folder: Path) -> tuple[list[Path], list[tuple[str, str]]]:
    """One ``.txt`` file per paragraph (title line, then the body) and (question, file name) pairs."""
    if not JSQUAD.is_file():
        raise DocumentsMissingError(f"{JSQUAD} is absent (the handout's qa/jsquad corpus)")
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    questions: list[tuple[str, str]] = []
    for article in json.loads(JSQUAD.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            name = f"{paragraph['qas'][0]['id'].rsplit('q', 1)[0]}.txt"
            path = folder / name
            path.write_text(paragraph["context"].replace(" [SEP] ", "\n", 1), encoding="utf-8")
            files.append(path)
            questions.extend((qa["question"], name) for qa in paragraph["qas"])
    return files, questions


def _documents_of(rank: Callable[[int], Ranked]) -> Callable[[int], list[str]]:
    """A ranker of (document, locator) pairs as a ranker of documents."""
    return lambda i: [doc for doc, _ in rank(i)]


def bigram_bm25(files: Sequence[Path], questions: Sequence[str]) -> Callable[[int], list[str]]:
    """The baseline: bm25s over character bigrams of each file's raw text (whitespace removed)."""
    import bm25s

    def grams(text: str) -> list[str]:
        compact = "".join(text.split())
        return [compact[i:i + 2] for i in range(len(compact) - 1)] or [compact]

    retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    retriever.index([grams(p.read_text(encoding="utf-8")) for p in files], show_progress=False)
    names = [p.name for p in files]

    def rank(i: int) -> list[str]:
        ids, _ = retriever.retrieve([grams(questions[i])], k=min(TOP, len(names)), show_progress=False, n_threads=1)
        return [names[j] for j in ids[0].tolist()]

    return rank


def run_jsquad(workdir: Path, *, embedder: str, cache: Callable[[Any], Any] | None,
               log: Callable[[str], None]) -> dict[str, Any]:
    """Every paragraph a file through the pipeline; recall@5 per mode and for the bigram baseline."""
    files, pairs = jsquad_files(workdir / "jsquad-files")
    texts = [q for q, _ in pairs]
    ingested = ingest(files, workdir / "jsquad", embedder=embedder, passage_cache=cache, log=log)
    result: dict[str, Any] = {"paragraphs": len(files), "questions": len(pairs), "chunks": ingested.chunks,
                              "failed": ingested.failed, "ingest_s": round(ingested.seconds, 1), "modes": {}}
    modes = rankers(ingested, workdir / "jsquad", texts)
    baseline = bigram_bm25(files, texts)
    modes_docs: dict[str, Callable[[int], list[str]]] = {name: _documents_of(rank) for name, rank in modes.items()}
    modes_docs["bigram_bm25_baseline"] = baseline
    for name, rank in modes_docs.items():
        hits = sum(gold in rank(i)[:TOP] for i, (_, gold) in enumerate(pairs))
        result["modes"][name] = {"paragraph_top5": round(hits / max(len(pairs), 1), 4)}
    return result
