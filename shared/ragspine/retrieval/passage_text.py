"""What each retrieval leg reads of a passage: the text plus its document's context.

The same functions serve ingestion, the background backfill, the embedded index and OpenSearch,
so both deployments index and embed a passage alike. The lexical leg scores the whole context
(company, period, type); the dense leg embeds a shorter header (company and type): with the
period in it too, e5 ranked the ACME evaluation's answers lower (hybrid R@5 0.885 -> 0.846),
since most passages of a year then share one phrase while the questions' years are matched
exactly by BM25 anyway.

The dense leg embeds the head of a passage, not all of it (``dense_body``): its lines that hold a
word (a line of bare figures, a page number or a footnote mark tells e5 nothing, while BM25 still
matches every figure), up to ``DENSE_MAX_CHARS`` ending at a sentence end. On a CPU the
embedder's time is proportional to the tokens it reads, and a 10-K's packed passages run to 1,500
characters. The bound is above the chunker's paragraph size (800), so a paragraph is embedded
whole: cutting at 512 lost answers in later sentences (TAT-QA's dense recall@5 0.962 -> 0.868);
only the packed pages of long PDFs are cut.
"""

from __future__ import annotations

import re

from ragspine.retrieval.model import Chunk
from ragspine.sentence_spans import split_spans

DENSE_MAX_CHARS = 1024  # of a passage's text the dense leg embeds (about 250 English tokens; e5 reads 512)
_LETTER = re.compile(r"[^\W\d_]")  # a letter of any script


def context_header(chunk: Chunk) -> str:
    """``Lockheed Martin Corporation · FY2020 (2020) · 10-K annual report``; empty without context.

    The bare year is spelled out beside ``FY2020`` so a question saying "2020" matches it too.
    """
    period = chunk.doc_period or ""
    year = period[2:6] if period.startswith("FY") and period[2:6].isdigit() else ""
    shown_period = f"{period} ({year})" if year else period
    return " · ".join(part for part in (chunk.company, shown_period, chunk.doc_type) if part)


def dense_header(chunk: Chunk) -> str:
    """``Lockheed Martin Corporation · 10-K annual report``: the header the dense leg embeds."""
    return " · ".join(part for part in (chunk.company, chunk.doc_type) if part)


def dense_body(text: str, max_chars: int = DENSE_MAX_CHARS) -> str:
    """The part of a passage's text the dense leg embeds: its lines holding a word, cut at a sentence end.

    The result is at most ``max_chars`` long (a first sentence longer than that is cut at a space
    or comma); a text without any word is kept as it is, so no passage embeds as nothing.
    """
    lines = text.split("\n")
    worded = [line for line in lines if _LETTER.search(line)]
    body = ("\n".join(worded) if len(worded) != len(lines) else text).strip() if worded else text.strip()
    if len(body) <= max_chars:
        return body

    start, end = split_spans(body, max_chars)[0]
    return body[start:end]


def dense_text(chunk: Chunk) -> str:
    """The passage text the embedder sees: the dense header, then the head of the text (``dense_body``)."""
    header = dense_header(chunk)
    body = dense_body(chunk.text)
    return f"{header}\n{body}" if header else body
