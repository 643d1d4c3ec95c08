"""Facts from one parsed table: glossary-mapped labels, period headers, declared units, cell values.

A table is read in one of two orientations: periods across the header row (the usual layout of
slides and sheets) or periods down the first column (the same grid transposed). Each row label
then names a metric (``REVENUE``, ``营业收入``), an entity (``ACME_HK``) or an entity and channel
(``ACME_CN/ONLINE``); whatever a row does not name comes from the table's context: its
headings (the slide or sheet title), its caption, the document metadata and the document title.
Everything is driven by the glossary, so a new metric or entity needs a glossary entry, not code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import Fact, parse_number
from ragspine.ingestion.model import Block
from ragspine.sensitivity import Sensitivity

# A scaled currency: "USD_M", "USD m", "CHF millions", "millions of CHF", "RMB bn" -> CUR_SCALE.
_CURRENCY = re.compile(
    r"(?<![a-z])(?P<cur>usd|chf|eur|gbp|cny|rmb|jpy|hkd)[\s_]*"
    r"(?P<scale>thousands?|millions?|billions?|k|mn|m|bn|b)(?![a-z])"
    r"|(?<![a-z])(?P<scale2>thousands?|millions?|billions?)\s+of\s+(?P<cur2>usd|chf|eur|gbp|cny|rmb|jpy|hkd)(?![a-z])"
)
_SCALES = {"k": "K", "thousand": "K", "thousands": "K", "m": "M", "mn": "M", "million": "M",
           "millions": "M", "b": "B", "bn": "B", "billion": "B", "billions": "B"}
# Spelled-out and CJK forms of the units the sample decks and their translations use.
_WORDED_UNITS = (
    ("USD_M", re.compile(r"millions? of us dollars|百万美元|百萬美元")),
    ("USD_K", re.compile(r"thousands? of us dollars|千美元")),
    ("CNY_M", re.compile(r"百万元|百萬元|百万人民币")),
    ("PCT", re.compile(r"%|(?<![a-z])percent|百分比")),
    ("COUNT", re.compile(r"(?<![a-z])in\s+(?:stores|shops|units)(?![a-z])|(?<![a-z])count(?![a-z])|家数|个数")),
)
_SEGMENT_SPLIT = re.compile(r"[;；\n]")
_TRAILING_PAREN = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
# Cells meaning "no figure" by convention; they are skipped like empty cells, not reported.
_BLANKS = frozenset({"-", "–", "—", "n/a", "na", "n.a.", "/"})
_AMBIGUOUS = "<ambiguous>"


def unit_dimension(unit: str) -> str:
    """What a unit measures: ``ratio`` (PCT), ``count`` (COUNT) or ``money`` (any currency)."""
    return {"PCT": "ratio", "COUNT": "count"}.get(unit, "money")


def units_in(text: str) -> list[str]:
    """Every unit a piece of caption or title declares, in a stable order (``USD_M``, ``PCT`` …)."""
    norm = normalize_text(text)
    found = []
    for match in _CURRENCY.finditer(norm):
        currency, scale = match["cur"] or match["cur2"], match["scale"] or match["scale2"]
        found.append(f"{'CNY' if currency == 'rmb' else currency.upper()}_{_SCALES[scale]}")
    found += [unit for unit, pattern in _WORDED_UNITS if pattern.search(norm)]
    return list(dict.fromkeys(found))


@dataclass(frozen=True, slots=True)
class DeclaredUnits:
    """The units a table's caption and title declare: per dimension, and per named metric.

    ``Unit: USD_M; GROSS_MARGIN in %`` declares money in USD_M for every money metric and PCT
    for GROSS_MARGIN alone; a segment naming a metric scopes its unit to that metric.
    """

    default: dict[str, str] = field(default_factory=dict)
    by_metric: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, texts: Sequence[str], glossary: Glossary) -> DeclaredUnits:
        """Collect declarations from caption and title text (earlier texts win)."""
        declared = cls()
        for text in texts:
            for segment in _SEGMENT_SPLIT.split(text):
                units = units_in(segment)
                if not units:
                    continue
                metrics = {m.code for m in glossary.scan(segment) if m.kind is SlotKind.METRIC and m.code}
                for metric in sorted(metrics):
                    wanted = unit_dimension(glossary.term(SlotKind.METRIC, metric).unit or "")
                    same = [u for u in units if unit_dimension(u) == wanted]
                    declared.by_metric.setdefault(metric, same[0] if same else units[0])
                if not metrics:
                    for unit in units:
                        declared.default.setdefault(unit_dimension(unit), unit)
        return declared

    def for_metric(self, metric: str, expected: str) -> str | None:
        """The unit declared for ``metric`` (whose glossary unit is ``expected``), if any."""
        return self.by_metric.get(metric) or self.default.get(unit_dimension(expected))


@dataclass(frozen=True, slots=True)
class Lineage:
    """What every fact of one document carries besides its own locator."""

    doc_id: str
    source_file_hash: str
    extractor_version: str
    mapping_version: str
    sensitivity: Sensitivity


@dataclass(frozen=True, slots=True)
class TableContext:
    """The text around a table that may name what its rows do not (most specific first)."""

    headings: tuple[str, ...]
    caption: str
    doc_title: str
    doc_entity: str = ""

    def layers(self) -> list[str]:
        """Texts in the order they are consulted: innermost heading, caption, metadata, title."""
        return [*reversed(self.headings), self.caption, self.doc_entity, self.doc_title]


def _mentioned(glossary: Glossary, kind: SlotKind, texts: Sequence[str]) -> str | None:
    """The one code of ``kind`` the first informative text names; ``_AMBIGUOUS`` when it names several."""
    for text in texts:
        codes = {m.code for m in glossary.scan(text) if m.kind is kind and m.code} if text else set()
        if len(codes) == 1:
            return codes.pop()
        if codes:
            return _AMBIGUOUS
    return None


def _label_code(glossary: Glossary, kind: SlotKind, label: str) -> str | None:
    """The code a whole label names, also with a trailing unit note removed (``Revenue (USD m)``)."""
    return glossary.normalize(kind, label) or glossary.normalize(kind, _TRAILING_PAREN.sub("", label))


def _period(glossary: Glossary, header: str, year: str | None) -> Period | None:
    """A header as a period; a bare quarter (``Q3``) takes the year of a sheet or slide title."""
    found = glossary.normalize_period(header) if header.strip() else None
    if found is None and year and header.strip():
        found = glossary.normalize_period(f"{year}{header.strip()}")
        found = found if found and found.period_type == "Q" else None
    return found


@dataclass(frozen=True, slots=True)
class _Row:
    metric: str | None
    entity: str | None
    channel: str | None


def _classify(glossary: Glossary, label: str) -> _Row | None:
    """What a row label names: a metric, an entity, a channel, or ``ENTITY/CHANNEL``."""
    metric = _label_code(glossary, SlotKind.METRIC, label)
    if metric:
        return _Row(metric, None, None)
    entity = _label_code(glossary, SlotKind.ENTITY, label)
    if entity:
        return _Row(None, entity, None)
    channel = _label_code(glossary, SlotKind.CHANNEL, label)
    if channel:
        return _Row(None, None, channel)
    for sep in ("/", "|", "·", " - "):
        if sep in label:
            left, right = (part.strip() for part in label.split(sep, 1))
            for first, second in ((left, right), (right, left)):
                entity = _label_code(glossary, SlotKind.ENTITY, first)
                channel = _label_code(glossary, SlotKind.CHANNEL, second)
                if entity and channel:
                    return _Row(None, entity, channel)
    return None


def _oriented(block: Block, glossary: Glossary, year: str | None) -> tuple[
        list[list[str]], list[list[str]], list[Period | None]] | None:
    """The grid (and its cell refs) with periods across the top, transposing when they run down."""
    rows = [list(r) for r in block.rows]
    refs = [list(r) for r in block.cell_refs] if block.cell_refs else [[""] * len(r) for r in rows]
    if len(rows) < 2 or len(rows[0]) < 2:
        return None
    for grid, names in ((rows, refs), ([list(c) for c in zip(*rows, strict=True)],
                                       [list(c) for c in zip(*refs, strict=True)])):
        periods = [_period(glossary, h, year) for h in grid[0][1:]]
        if any(periods):
            return grid, names, [None, *periods]
    return None


def table_facts(block: Block, context: TableContext, glossary: Glossary,
                lineage: Lineage) -> tuple[list[Fact], list[str]]:
    """The facts one TABLE block states, and a warning for everything it could not read.

    Never raises on odd content: a table with no period header or no recognisable metric
    yields a warning and no facts.
    """
    where = f"{lineage.doc_id} {block.locator}"
    years = [m.period.period for t in context.headings for m in glossary.scan(t)
             if m.period is not None and m.period.period_type == "FY"]
    oriented = _oriented(block, glossary, years[-1] if years else None)
    if oriented is None:
        return [], [f"{where}: no column or row header names a period; table skipped"]
    grid, refs, periods = oriented
    layers = context.layers()
    context_metric = _mentioned(glossary, SlotKind.METRIC, layers)
    context_entity = _mentioned(glossary, SlotKind.ENTITY, layers)
    context_channel = _mentioned(glossary, SlotKind.CHANNEL, [context.caption, *reversed(context.headings)])
    units = DeclaredUnits.read([context.caption, *reversed(context.headings)], glossary)
    facts: list[Fact] = []
    warnings: list[str] = []
    recognised = 0
    for r, row in enumerate(grid[1:], start=1):
        label = row[0].strip()
        if not label or not any(cell.strip() for cell in row[1:]):
            continue
        named = _classify(glossary, label)
        recognised += named is not None
        metric = named.metric if named and named.metric else context_metric
        entity = named.entity if named and named.entity else context_entity
        channel = named.channel if named and named.channel else context_channel
        if named is None or metric in (None, _AMBIGUOUS) or entity in (None, _AMBIGUOUS):
            missing = "row label" if named is None else "metric" if metric in (None, _AMBIGUOUS) else "entity"
            warnings.append(f"{where}: row {label!r}: no {missing} the glossary recognises; row skipped")
            continue
        assert metric is not None and entity is not None  # narrowed by the check above
        channel = glossary.default_channel if channel in (None, _AMBIGUOUS) else channel
        expected = glossary.term(SlotKind.METRIC, metric).unit or ""
        declared = units.for_metric(metric, expected)
        if declared and declared != expected:
            warnings.append(f"{where}: row {label!r}: declared unit {declared} but {metric} is kept in "
                            f"{expected}; not converted, row skipped")
            continue
        for c, cell in enumerate(row[1:], start=1):
            period = periods[c]
            text = cell.strip()
            if period is None or not text or text.lower() in _BLANKS:
                continue
            if text.endswith("%") and expected != "PCT":
                warnings.append(f"{where}: {label}/{grid[0][c]}: a percentage for {metric}; cell skipped")
                continue
            try:
                value = parse_number(text.removesuffix("%"))
            except ValueError:
                warnings.append(f"{where}: {label}/{grid[0][c]}: {text!r} is not a number; cell skipped")
                continue
            ref = refs[r][c]
            locator = f"{block.locator},cell={ref}" if ref else f"{block.locator},row={label},col={grid[0][c].strip()}"
            facts.append(Fact(
                metric, entity, glossary.term(SlotKind.ENTITY, entity).geography or "", channel,
                period.period_type, period.period, value, expected, lineage.doc_id, locator,
                source_file_hash=lineage.source_file_hash, extractor_version=lineage.extractor_version,
                mapping_version=lineage.mapping_version, sensitivity=lineage.sensitivity,
            ))
    if not recognised:  # one warning for a table that is not a metric table at all, not one per row
        return [], [f"{where}: no row names a metric, entity or channel the glossary knows; table skipped"]
    if not facts and not warnings:
        warnings.append(f"{where}: no cell holds a figure; table skipped")
    return facts, warnings
