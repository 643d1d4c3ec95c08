"""What a document is: its company or entity, period, type and title, carried by every one of its chunks.

A passage rarely names its own document: "Days payable outstanding rose to 93 days" says
neither Amazon nor 2017, which live in the file name and on the cover page. So each chunk
carries the document's context: the lexical leg indexes it with the text and the dense leg
embeds it as a short header (``retrieval.passage_text``), and a question naming the company
and year reaches that document.

Sources, first found wins per field: the uploader's metadata (manifest, sidecar, S3 object
metadata: ``company``, ``period``, ``doc_type``, ``title``), then the first pages (a filing's
cover: registrant name, "fiscal year ended ...", "FORM 10-K"), then the file name
(``AMAZON_2017_10K.pdf``: company, year, type).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.ingestion.model import ParsedDocument
    from ragspine.retrieval.model import Chunk

CONTEXT_KEYS = ("company", "period", "doc_type", "title")
FIRST_PAGES_CHARS = 6000  # the cover and the first page of a filing
MAX_FIELD_CHARS = 120

_SPLIT = re.compile(r"[\s_\-.]+")
_PERIOD_TOKEN = re.compile(r"^(?:FY)?((?:19|20)\d{2})(Q[1-4]|H[12])?$", re.IGNORECASE)
_PERIOD_TOKEN_QUARTER_FIRST = re.compile(r"^(Q[1-4]|H[12])((?:19|20)\d{2})$", re.IGNORECASE)
_TYPES_BY_TOKEN = {
    "10K": "10-K annual report", "10Q": "10-Q quarterly report", "8K": "8-K current report",
    "20F": "20-F annual report", "EARNINGS": "earnings release", "ANNUALREPORT": "annual report",
    "ANNUAL": "annual report", "MDA": "MD&A", "REVIEW": "review", "REPORT": "report", "POLICY": "policy",
    "MINUTES": "minutes",
}
_FORM = re.compile(r"\bFORM\s+(10-K|10-Q|8-K|20-F)\b")
_FISCAL_YEAR = re.compile(r"fiscal\s+year\s+ended\s+[A-Za-z]+\s+\d{1,2}\s*,\s*((?:19|20)\d{2})", re.IGNORECASE)
_QUARTER_ENDED = re.compile(r"quarterly\s+period\s+ended\s+[A-Za-z]+\s+\d{1,2}\s*,\s*((?:19|20)\d{2})",
                            re.IGNORECASE)
_REGISTRANT = re.compile(r"\(\s*exact\s+name\s+of\s+registrant", re.IGNORECASE)
_NAME_WORD = re.compile(r"^[A-Z0-9][A-Z0-9&.,'\-]*$")


@dataclass(frozen=True, slots=True)
class DocumentContext:
    """A document's company or entity, period (``FY2017``, ``FY2023Q4``), type and title; empty when unknown."""

    company: str = ""
    period: str = ""
    doc_type: str = ""
    title: str = ""

    def merged_over(self, other: DocumentContext) -> DocumentContext:
        """This context, each empty field taken from ``other``."""
        return DocumentContext(*(getattr(self, k) or getattr(other, k) for k in CONTEXT_KEYS))


def document_context(doc: ParsedDocument, *, filename: str, given: Mapping[str, str] | None = None
                     ) -> DocumentContext:
    """The context of a parsed document: metadata first, then its first pages, then its file name."""
    stated = DocumentContext(*(_clean(str((given or {}).get(k, ""))) for k in CONTEXT_KEYS))
    return stated.merged_over(from_first_pages(doc)).merged_over(from_file_name(filename))


def from_file_name(filename: str) -> DocumentContext:
    """``AMAZON_2017_10K.pdf`` -> Amazon, FY2017, 10-K annual report."""
    tokens = [t for t in _SPLIT.split(PurePath(filename).stem) if t]
    period, at = "", len(tokens)
    for i, token in enumerate(tokens):
        found = _period_of_token(token)
        if found:
            period, at = found, i
            break
    kinds = [_TYPES_BY_TOKEN[t.upper()] for t in tokens if t.upper() in _TYPES_BY_TOKEN]
    # The company is the leading run of capitalised tokens before the period (AMAZON, 3M, ACME_JP):
    # "ACME_Board_Minutes_2025Q4" names ACME, "report-2019" names no company.
    company_tokens: list[str] = []
    for token in tokens[:at] if period else []:
        if not token.isupper() or token.upper() in _TYPES_BY_TOKEN:
            break
        company_tokens.append(token)
    return DocumentContext(company=_display_name(company_tokens), period=period, doc_type=kinds[0] if kinds else "")


def from_first_pages(doc: ParsedDocument) -> DocumentContext:
    """What a filing's cover states: the registrant, the fiscal year (or quarter) ended, the form."""
    text = _first_pages_text(doc)
    form = _FORM.search(text)
    year = _FISCAL_YEAR.search(text) or _QUARTER_ENDED.search(text)
    registrant = _REGISTRANT.search(text)
    company = _display_name(_name_before(text[:registrant.start()])) if registrant else ""
    doc_type = _TYPES_BY_TOKEN.get(form.group(1).replace("-", ""), "") if form else ""
    return DocumentContext(company=company, period=f"FY{year.group(1)}" if year else "", doc_type=doc_type)


def apply_context(chunks: Sequence[Chunk], context: DocumentContext) -> list[Chunk]:
    """The chunks carrying the context (the stated title replaces a chunk's title; otherwise it is kept)."""
    return [replace(c, company=context.company or None, doc_period=context.period or None,
                    doc_type=context.doc_type or None, title=context.title or c.title) for c in chunks]


def _period_of_token(token: str) -> str:
    match = _PERIOD_TOKEN.match(token)
    if match:
        return f"FY{match.group(1)}{(match.group(2) or '').upper()}"
    match = _PERIOD_TOKEN_QUARTER_FIRST.match(token)
    return f"FY{match.group(2)}{match.group(1).upper()}" if match else ""


def _first_pages_text(doc: ParsedDocument) -> str:
    """The first characters of the document with every run of whitespace made one space (line breaks vary by parser)."""
    parts: list[str] = []
    size = 0
    for block in doc.blocks:
        parts.append(block.text)
        size += len(block.text)
        if size >= FIRST_PAGES_CHARS:
            break
    return re.sub(r"\s+", " ", " ".join(parts))[:FIRST_PAGES_CHARS]


def _name_before(text: str) -> list[str]:
    """The run of capitalised words that ends ``text`` (a cover prints the registrant in capitals)."""
    words: list[str] = []
    for word in reversed(text.split()[-10:]):
        if not _NAME_WORD.match(word) or word.replace("-", "").isdigit():
            break
        words.append(word)
    return list(reversed(words))


def _display_name(tokens: Sequence[str]) -> str:
    """``LOCKHEED MARTIN CORPORATION`` -> ``Lockheed Martin Corporation``; short acronyms (3M, CVS) stay."""
    shown = [t if len(t) <= 3 or not t.isupper() else t.capitalize() for t in tokens]
    return _clean(" ".join(shown))


def _clean(value: str) -> str:
    return re.sub(r"\s+", " ", value).strip()[:MAX_FIELD_CHARS]
