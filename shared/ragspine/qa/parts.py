"""The answer as structured parts: text, citations and every number with its kind and source.

A page that receives citations and numbers as data never has to parse prose to find them.
The parts concatenate back to the answer string exactly (``"".join(p.text for p in parts)``),
so a client can render either without losing a character.

Kinds of number:
- ``fact``: a figure of a found fact, followed by that fact's own citation (``（来源：…）``), or one
  of the cited inputs inside a computed line;
- ``computed``: a figure in a line citing ``（计算自：…）`` that is not one of its inputs (a change,
  a share, a total), carrying the inputs it was computed from;
- ``quoted``: a figure in a narrative sentence followed by a passage citation (the engine's
  provenance check has tied every such figure to the cited evidence before the answer leaves it);
- ``unverified``: a figure nothing accounts for. It should never appear; the page shows it if it does.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from ragspine.citation import Source
from ragspine.facts.model import Fact, format_number
from ragspine.facts.query_metric import QueryStatus
from ragspine.lazy import LazyPattern
from ragspine.qa.citation_spans import Citation, citations
from ragspine.qa.result import AnswerResult

# A figure: not glued to latin letters or digits (FY2024, 2024Q3 and codes are labels, not figures).
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])[+\-−]?\d(?:[\d,]*\d)?(?:\.\d+)?(?![A-Za-z0-9_])")
_LOCATOR_START = LazyPattern(r"\s+(?=(?:sheet|slide|page|heading|para|table)=)")
_YEAR_SUFFIX = ("年", "财年", "年度", "財年")
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.\s")


@dataclass(frozen=True, slots=True)
class AnswerPart:
    """One piece of the answer: ``text``, ``citation`` or ``number``."""

    type: str
    text: str
    kind: str | None = None  # number: fact / computed / quoted / unverified; citation: source / computed
    id: str | None = None  # fact id (metric/entity/channel/period) or computation id
    value: str | None = None  # the figure exactly as written in the answer
    unit: str | None = None
    period: str | None = None
    sources: tuple[Source, ...] = field(default_factory=tuple)


def fact_id(fact: Fact) -> str:
    """A stable, readable id of a fact: ``REVENUE/ACME_CN/TOTAL/FY2024``."""
    return f"{fact.metric_code}/{fact.entity}/{fact.channel}/{fact.period_type}{fact.period}"


def answer_parts(result: AnswerResult) -> tuple[AnswerPart, ...]:
    """Split ``result.answer`` into text, number and citation parts (they join back to the answer)."""
    facts = [r.fact for r in result.results if r.status is QueryStatus.FOUND and r.fact is not None]
    text = result.answer
    parts: list[AnswerPart] = []
    cursor = 0
    for cited in citations(text):  # a locator may nest brackets: a row label's remark
        citation = _citation_part(text, cited, facts, result.sources)
        parts.extend(_segment(text[cursor:cited.start], citation, facts))
        parts.append(citation)
        cursor = cited.end
    parts.extend(_segment(text[cursor:], None, facts))
    return tuple(p for p in parts if p.text)


def _citation_part(text: str, cited: Citation, facts: list[Fact], sources: tuple[dict[str, str], ...]) -> AnswerPart:
    kind = "computed" if cited.label == "计算自" else "source"
    refs = []
    for piece in re.split(r"[；;]", cited.body):
        doc, locator = _doc_and_locator(piece.strip(), sources)
        if doc:
            refs.append(Source(doc, locator, _version(doc, locator, facts)))
    return AnswerPart(type="citation", text=text[cited.start:cited.end], kind=kind, sources=tuple(refs))


def _doc_and_locator(piece: str, sources: tuple[dict[str, str], ...]) -> tuple[str, str]:
    """``doc · locator`` (structured) or ``doc locator`` (narrative), preferring the answer's own sources."""
    for source in sources:
        doc, locator = source.get("doc", ""), source.get("locator", "")
        if piece in (f"{doc} · {locator}", f"{doc} {locator}"):
            return doc, locator
    doc, sep, locator = piece.partition(" · ")
    if sep:
        return doc.strip(), locator.strip()
    split = _LOCATOR_START.search(piece)
    return (piece[:split.start()].strip(), piece[split.end():].strip()) if split else ("", "")


def _version(doc: str, locator: str, facts: list[Fact]) -> str | None:
    return next((f.source_file_hash for f in facts if f.source_doc_id == doc and f.source_locator == locator), None)


def _segment(text: str, citation: AnswerPart | None, facts: list[Fact]) -> list[AnswerPart]:
    """Text and numbers before ``citation`` (None: trailing text with no citation after it)."""
    numbers = [m for m in _NUMBER.finditer(text) if not _is_year(text, m)]
    parts: list[AnswerPart] = []
    cursor = 0
    # A passage citation covers the sentence it closes; a computation's covers its whole line (a ranking
    # or a sum says several sentences before citing its inputs once).
    if citation is None:
        cited_from = len(text)
    elif citation.kind == "computed":
        cited_from = text.rfind("\n") + 1
    else:
        cited_from = _last_sentence_start(text)
    for index, m in enumerate(numbers):
        parts.append(AnswerPart(type="text", text=text[cursor:m.start()]))
        last = index == len(numbers) - 1
        parts.append(_number(m.group(0), text[m.end():], citation if m.start() >= cited_from else None, facts,
                             last=last))
        cursor = m.end()
    parts.append(AnswerPart(type="text", text=text[cursor:]))
    return parts


def _number(written: str, after: str, citation: AnswerPart | None, facts: list[Fact], *, last: bool) -> AnswerPart:
    unit = _unit_after(after)
    if citation is None:
        return AnswerPart(type="number", text=written, kind="unverified", value=written, unit=unit)
    cited = [f for f in facts if any(f.source_doc_id == s.doc and f.source_locator == s.locator
                                     for s in citation.sources)]
    match = next((f for f in cited if format_number(f.value) == written.replace(",", "")), None)
    if match is not None:
        return AnswerPart(type="number", text=written, kind="fact", id=fact_id(match), value=written,
                          unit=match.unit, period=f"{match.period_type}{match.period}",
                          sources=(Source(match.source_doc_id, match.source_locator, match.source_file_hash),))
    if citation.kind == "computed":
        digest = hashlib.sha256(citation.text.encode("utf-8")).hexdigest()[:12]
        return AnswerPart(type="number", text=written, kind="computed", id=f"calc-{digest}", value=written,
                          unit=unit, sources=citation.sources)
    if cited and last:
        # A cited fact rendered in another form than its value (never expected): say so rather than guess.
        return AnswerPart(type="number", text=written, kind="unverified", value=written, unit=unit)
    return AnswerPart(type="number", text=written, kind="quoted", value=written, unit=unit, sources=citation.sources)


def _is_year(text: str, m: re.Match[str]) -> bool:
    digits = m.group(0)
    return (len(digits) == 4 and digits.isdigit() and 1900 <= int(digits) <= 2100
            and (text[m.end():].startswith(_YEAR_SUFFIX) or not text[m.end():m.end() + 1].strip()
                 and text[max(0, m.start() - 3):m.start()].lower().endswith(("in ", "fy "))))


def _unit_after(after: str) -> str | None:
    token = re.match(r"\s?(%|[A-Z]{3}(?:_[A-Z]+)?|PCT|百万円|億円|万元|亿元|百万美元|个百分点)", after)
    return token.group(1) if token else None


def _last_sentence_start(text: str) -> int:
    """Where the sentence that ends ``text`` starts (its own closing mark does not count)."""
    ends = list(_SENTENCE_END.finditer(text.rstrip().rstrip("。！？!?.")))
    return ends[-1].end() if ends else 0
