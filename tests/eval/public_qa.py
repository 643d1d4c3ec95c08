"""Third-party QA sets from ``../shared/corpus/qa/`` turned into retrieval collections.

The files are read in place (never copied: their licences differ, see the folder's
MANIFEST.tsv). Each loader raises ``CorpusMissingError`` when its file is absent, so callers
can skip with the reason.

- CMRC2018 (Chinese Wikipedia, SQuAD format): each paragraph is a chunk, each question's
  own paragraph is the gold. The dev file has 848 paragraphs (one per article) and 3219
  questions: the full run uses all of them; ``limit`` keeps the first N paragraphs in file
  order and their questions.
- TAT-QA (English annual-report excerpts): each paragraph is a chunk and each table one
  chunk (``header: value`` rows) as a distractor; the questions answered from the text
  (``answer_from == "text"``) are the queries, their ``rel_paragraphs`` the gold.
- jfinqa (Japanese EDINET filings, FinQA format): each distinct context (pre-text, table,
  post-text) is a chunk, each question's own context the gold. The questions are templated
  and name the company and period, so this measures finding the right filing by name more
  than semantic retrieval.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ragspine.retrieval.model import Chunk
from tests.eval.model import EvalCorpus, EvalQuery

REPO = Path(__file__).resolve().parents[2]
QA_ROOT = Path(os.environ.get("RAGSPINE_QA_CORPUS", str(REPO.parent / "shared" / "corpus" / "qa")))
CMRC_FILE = "cmrc2018/cmrc2018_dev.squad-style.json"
TATQA_FILE = "tatqa/tatqa_dataset_dev.json"
JFINQA_FILE = "jfinqa/jfinqa_lite_v1.json"


class CorpusMissingError(FileNotFoundError):
    """The third-party file is not on this machine."""


def corpus_file(relative: str, root: Path | None = None) -> Path:
    """The path of a QA file under the corpus folder.

    Raises:
        CorpusMissingError: the file does not exist.
    """
    path = (root or QA_ROOT) / relative
    if not path.is_file():
        raise CorpusMissingError(f"{path} is absent (the shared third-party corpus is not on this machine)")
    return path


def _read(relative: str, root: Path | None) -> Any:
    return json.loads(corpus_file(relative, root).read_text(encoding="utf-8"))


def _chunk(doc_id: str, locator: str, text: str, *, library: str) -> Chunk:
    digest = hashlib.blake2b(f"{doc_id}\x1f{locator}".encode(), digest_size=12).hexdigest()
    return Chunk(chunk_id=digest, doc_id=doc_id, source_locator=locator, text=text, library=library)


def cmrc2018(*, limit: int | None = None, root: Path | None = None) -> EvalCorpus:
    """CMRC2018 dev as paragraph retrieval (all paragraphs, or the first ``limit``)."""
    articles = _read(CMRC_FILE, root)["data"]
    chunks: list[Chunk] = []
    queries: list[EvalQuery] = []
    for article in articles:
        for paragraph in article["paragraphs"]:
            if limit is not None and len(chunks) >= limit:
                break
            chunk = _chunk(str(paragraph["id"]), "para=1", str(paragraph["context"]), library="cmrc2018")
            chunks.append(chunk)
            queries.extend(EvalQuery(str(qa["id"]), str(qa["question"]), "zh",
                                     frozenset({(chunk.doc_id, chunk.source_locator)}))
                           for qa in paragraph["qas"] if str(qa["question"]).strip())
    subset = "all paragraphs" if limit is None else f"the first {len(chunks)} paragraphs"
    return EvalCorpus("cmrc2018", f"CMRC2018 dev ({CMRC_FILE}): {subset} as chunks, their questions as queries",
                      tuple(chunks), tuple(queries),
                      notes=("one paragraph per article in the dev file; the article title is not indexed",))


def tatqa(*, limit: int | None = None, root: Path | None = None) -> EvalCorpus:
    """TAT-QA dev: paragraphs (+ tables) as chunks, text-answered questions as queries."""
    contexts = _read(TATQA_FILE, root)
    chunks: list[Chunk] = []
    queries: list[EvalQuery] = []
    for context in contexts[:limit]:
        doc_id = str(context["table"]["uid"])
        chunks.append(_chunk(doc_id, "table=1", _table_text(context["table"]["table"]), library="tatqa"))
        orders = set()
        for paragraph in context["paragraphs"]:
            orders.add(str(paragraph["order"]))
            chunks.append(_chunk(doc_id, f"para={paragraph['order']}", str(paragraph["text"]), library="tatqa"))
        for question in context["questions"]:
            rel = [str(r) for r in question.get("rel_paragraphs") or () if str(r) in orders]
            if question.get("answer_from") == "text" and rel:
                queries.append(EvalQuery(str(question["uid"]), str(question["question"]), "en",
                                         frozenset((doc_id, f"para={r}") for r in rel)))
    subset = "all contexts" if limit is None else f"the first {min(limit, len(contexts))} contexts"
    return EvalCorpus("tatqa", f"TAT-QA dev ({TATQA_FILE}): {subset}; paragraphs and tables as chunks, "
                               "questions answered from text as queries", tuple(chunks), tuple(queries),
                      notes=("questions were written against one excerpt and often name no company, "
                             "so some are ambiguous across the collection",))


def jfinqa(*, root: Path | None = None) -> EvalCorpus:
    """jfinqa lite: each distinct context a chunk, each question's own context the gold."""
    items = _read(JFINQA_FILE, root)
    chunks: dict[str, Chunk] = {}
    queries: list[EvalQuery] = []
    for item in items:
        text = "\n".join([*map(str, item["pre_text"]), _table_text([item["table"]["headers"], *item["table"]["rows"]]),
                          *map(str, item["post_text"])])
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        if digest not in chunks:
            chunks[digest] = _chunk(str(item["source_doc_id"]), f"context={digest}", text, library="jfinqa")
        gold = chunks[digest]
        queries.append(EvalQuery(str(item["id"]), str(item["qa"]["question"]), "ja",
                                 frozenset({(gold.doc_id, gold.source_locator)}), topic=str(item["subtask"])))
    return EvalCorpus("jfinqa", f"jfinqa lite ({JFINQA_FILE}): {len(chunks)} distinct contexts as chunks, "
                                f"{len(queries)} questions", tuple(chunks.values()), tuple(queries),
                      notes=("templated questions that name the company and period: a check of finding the "
                             "filing by name (Japanese tokens), not of semantic retrieval",))


def _table_text(rows: Iterable[Iterable[Any]]) -> str:
    """A table as text: one line per row, the header row first, cells joined by ' | '."""
    lines = [" | ".join(str(cell).strip() for cell in row if str(cell).strip()) for row in rows]
    return "\n".join(line for line in lines if line)
