"""Compare PDF text extractors on the FinanceBench filings: pages per second and text quality.

Quality is how often BM25 over the extracted page texts of a question's own filing ranks the
gold evidence page (0-based ``evidence_page_num``) in the top 5, and how many pages come out
as one word per line, fragmented. The same pages, the same questions
and the same tokenizer for every library.

    nice -n 10 .venv/bin/python tests/bench/pdf_libraries.py [--docs N] [--libraries ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
CORPUS = REPO.parent / "shared" / "corpus" / "financebench_dev"


def pypdf_plain(path: Path) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() or "" for page in PdfReader(path).pages]


def pypdf_layout(path: Path) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text(extraction_mode="layout") or "" for page in PdfReader(path).pages]


def pdfium(path: Path) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def pdfminer(path: Path) -> list[str]:
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTTextContainer

    return ["\n".join(e.get_text() for e in page if isinstance(e, LTTextContainer)) for page in extract_pages(path)]


def pdfplumber_text(path: Path) -> list[str]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def ragspine_parser(path: Path) -> list[str]:
    """The shipped parser: blocks grouped back into page texts by their locator."""
    from ragspine.ingestion.parsers.pdf import PdfParser

    doc = PdfParser().parse(path.read_bytes(), doc_id=path.stem)
    pages = [""] * int(doc.metadata["pages"])
    for block in doc.blocks:
        number = int(block.locator.split(",")[0].split("=")[1].split("-")[0])
        pages[number - 1] += block.text + "\n"
    return pages


LIBRARIES: dict[str, Callable[[Path], list[str]]] = {
    "pypdf": pypdf_plain, "pypdf_layout": pypdf_layout, "pypdfium2": pdfium,
    "pdfminer.six": pdfminer, "pdfplumber": pdfplumber_text, "ragspine": ragspine_parser,
}


def fragmented(text: str) -> bool:
    """A page where most non-empty lines hold a single word (``Year / Ended / December``)."""
    lines = [line for line in text.split("\n") if line.strip()]
    return len(lines) >= 10 and sum(len(line.split()) == 1 for line in lines) > 0.5 * len(lines)


def page_recall(pages: list[str], questions: list[dict[str, object]]) -> tuple[int, int]:
    """(hits in the top 5, questions) for BM25 over one filing's pages."""
    import bm25s

    from ragspine.text import document_tokens, query_tokens

    retriever = bm25s.BM25(k1=1.5, b=0.75, method="lucene")
    retriever.index([document_tokens(p) or ["\u2205"] for p in pages], show_progress=False)
    hits = 0
    for q in questions:
        gold = {e["evidence_page_num"] for e in q["evidence"]}  # type: ignore[attr-defined]
        ids, _ = retriever.retrieve([query_tokens(str(q["question"]))], k=5, show_progress=False)
        hits += bool(gold & set(ids[0].tolist()))
    return hits, len(questions)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=int, default=0, help="only the first N filings with questions (0: all)")
    parser.add_argument("--libraries", nargs="+", choices=sorted(LIBRARIES), default=sorted(LIBRARIES))
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "bench" / "results" / "pdf_libraries.json")
    args = parser.parse_args()
    questions = json.loads((CORPUS / "questions.json").read_text(encoding="utf-8"))
    by_doc: dict[str, list[dict[str, object]]] = {}
    for q in questions:
        by_doc.setdefault(q["doc_name"], []).append(q)
    names = sorted(by_doc, key=lambda d: -len(by_doc[d]))
    names = names[: args.docs] if args.docs else names
    report: dict[str, dict[str, float]] = {}
    for lib in args.libraries:
        pages_total = seconds = hits = asked = broken = 0.0
        for name in names:
            began = time.perf_counter()
            pages = LIBRARIES[lib](CORPUS / f"{name}.pdf")
            seconds += time.perf_counter() - began
            pages_total += len(pages)
            broken += sum(fragmented(p) for p in pages)
            h, n = page_recall(pages, by_doc[name])
            hits += h
            asked += n
        report[lib] = {"filings": len(names), "pages": pages_total, "pages_per_s": round(pages_total / seconds, 1),
                       "gold_page_top5": round(hits / asked, 3), "questions": asked,
                       "fragmented_pages": broken}
        print(lib, report[lib], flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
