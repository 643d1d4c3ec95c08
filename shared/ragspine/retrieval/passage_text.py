"""What each retrieval leg reads of a passage: the text plus its document's context.

The same functions serve ingestion, the background backfill, the embedded index and OpenSearch,
so both deployments index and embed a passage alike. The lexical leg scores the whole context
(company, period, type); the dense leg embeds a shorter header (company and type): with the
period in it too, e5 ranked the ACME evaluation's answers lower (hybrid R@5 0.885 -> 0.846),
since most passages of a year then share one phrase while the questions' years are matched
exactly by BM25 anyway.
"""

from __future__ import annotations

from ragspine.retrieval.model import Chunk


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


def dense_text(chunk: Chunk) -> str:
    """The passage text the embedder sees: the dense header, then the text."""
    header = dense_header(chunk)
    return f"{header}\n{chunk.text}" if header else chunk.text
