"""Facts from one parsed table: its axes read against the glossary, units as stated, each value from its own cell.

``table_axes`` finds the header rows and label columns wherever they are; each label and
header then names a metric, an entity, a channel or a period, so one reader covers the
layouts companies use: wide (metrics x periods), long (``Segment | Metric | FY2024 |
FY2025``), tidy (``Segment | Metric | Period | Value``), crosstab (entities x metrics for one
period), transposed (periods down the first column) and two-row headers (a merged period
over its metrics). Whatever a cell's row and column do not name comes from the table's
context: its headings (slide or sheet title), caption, the sentence before it, the document
metadata and title.

A wrong fact is worse than none, so the rules are strict:

* the context fills a slot only where the table has no axis of that kind: a caption naming
  net sales never relabels rows that name operating income;
* a row or column whose label the glossary cannot read is skipped, never given the
  context's meaning; two labels of one cell naming different codes of one kind skip it;
* two cells of one table giving different figures for one fact drop both;
* a figure is read from its own cell's text only (``(1,234)``, ``△1,234``, ``12.5%``);
* a unit is the one the cell, its labels, its headers, the caption or the title state
  (``単位：百万円`` -> ``JPY_M``), kept as stated; only a unit of another dimension (a
  percentage for a money metric) skips the cell. With no unit stated, the glossary's is used.

Where the glossary's hierarchy lets a table's total be checked against its parts, a
mismatch beyond rounding is a warning (never a correction). Every skip is a warning that
names the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from functools import lru_cache

from ragspine.facts.fiscal_dates import fiscal_year_closed_on
from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import Fact, FactKey, with_stated_date
from ragspine.facts.nendo import nendo_period
from ragspine.facts.open_vocabulary import (
    MAX_ROW_LABEL_CHARS,
    NOT_LINE_ITEM_HEADERS,
    is_open_code,
    label_of,
    open_entity_code,
    open_metric_code,
    stated_share_label,
    without_legal_form,
)
from ragspine.ingestion.document_company import COMPANY_NAME
from ragspine.ingestion.document_period import annual_report_year
from ragspine.ingestion.model import Block, BlockKind
from ragspine.ingestion.parsers._blocks import locator_value
from ragspine.ingestion.table_axes import (
    NOT_ACTUAL,
    NOTHING,
    PERIOD_HEADING,
    UNKNOWN,
    Named,
    TableShape,
    another_period_heading,
    body_cell_blank,
    clean_label,
    is_figure,
    name_of,
    names_ending_years,
    table_shape,
    year_ended_period,
)
from ragspine.ingestion.table_blocks import header_blocks
from ragspine.ingestion.table_caption_metric import names_the_item
from ragspine.ingestion.table_column_dates import column_dates, dates_inside_a_year, quarter_ends
from ragspine.ingestion.table_data_headings import names_a_data_block
from ragspine.ingestion.table_deducted_liabilities import deducted_liabilities
from ragspine.ingestion.table_grand_totals import shared_end, shared_start
from ragspine.ingestion.table_margin_amounts import margin_amount, states_amounts
from ragspine.ingestion.table_owners_share import owners_share, splits_off_noncontrolling
from ragspine.ingestion.table_percent_columns import common_size_columns
from ragspine.ingestion.table_quarters import (
    bare_quarter,
    is_ordinal,
    is_year_total,
    stacked_quarter,
    without_by_quarter,
)
from ragspine.ingestion.table_report_periods import names_part_of_year
from ragspine.ingestion.table_restated_scale import counts_things, restated_scale
from ragspine.ingestion.table_roll_forward import roll_forward
from ragspine.ingestion.table_share_columns import stated_share_columns
from ragspine.ingestion.table_shifted_headings import headings_into_label_column
from ragspine.ingestion.table_split_headings import headings_made_whole
from ragspine.ingestion.table_stated_years import is_stated_period, stated_years, year_ends_named_by_end
from ragspine.ingestion.table_subject import other_company, part_of_whole, same_company
from ragspine.ingestion.table_topic import lead_topic, table_topic, topic_after
from ragspine.ingestion.table_totals import is_bare_total, states_the_sum, total_of
from ragspine.ingestion.table_undated import (
    date_of,
    lone_date,
    names_a_period,
    states_no_period,
    without_due_buckets,
)
from ragspine.ingestion.table_unit_column import row_unit, unit_column
from ragspine.ingestion.table_year_changes import year_pair_changes
from ragspine.numbers.cells import CellNumber, normalise_cell, read_cell
from ragspine.numbers.units import ISO_4217, SCALES, currency_signs, table_currency, unit_dimension, units_in
from ragspine.sensitivity import Sensitivity

__all__ = ["DeclaredUnits", "Lineage", "TableContext", "table_facts", "unit_dimension", "units_in"]



_SEGMENT_SPLIT = re.compile(r"[;；\n]")
# A text whose one number is a year ("Common Stock Price Range 2018"), no date ("As of September 30, 2025").
_YEAR_ALONE = re.compile(r"\D*(?<!\d)(?:19|20)\d{2}(?!\d)\D*")
# Words naming part of a year beside it ("January–June 2023", "Six months 2023", "First half 2023"): such a
# cell dates its columns with a span the year's figure is not.
_YEAR_PART_WORDS = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(?:half|halves"
                           r"|quarters?|months?|weeks?|days?|[hq][1-4]|ytd|interim)\b|上半|下半|四半期|季度|半期|月")
# A per-share figure (earnings, dividends, book value per share) is never in the table's millions.
_PER_SHARE = re.compile(r"(?i:\bper\s+(?:\w+\s+){0,2}(?:share|ADS|unit)\d*\b|\bEPS\b)|1株当たり|一株当たり|每股")
# A number of shares, under a caption stating money ("(in thousands, except per share data)").
_SHARE_COUNT = re.compile(r"(?i)\bshares\s+outstanding\b|\bnumber\s+of\s+(?:\w+\s+){0,2}shares\b"
                          r"|\bweighted[\s-]+average\s+(?:\w+\s+){0,2}shares\b")
# A note stating the scale of share counts apart from the money's ("(shares in thousands, except per share data)").
_SHARES_SCALE = re.compile(r"(?i)\bshares?\s+(?:amounts?\s+)?in\s+(thousands|millions|billions)\b")
_SHARES_HEADER = re.compile(r"(?i)\s*shares\s*(?:\([^()]*\))?\s*")
_OPERATING_CASH = re.compile(r"(?i)^net\s+cash\s+(?:provided|used|generated|from)\b.*operating\s+activities")
_BALANCE_ITEM = re.compile(r"(?i)\b(?:receivables?|inventor(?:y|ies)|payables?|prepaid|accrued|deferred\s+revenue"
                           r"|other\s+(?:current\s+)?(?:assets|liabilities))\b")
_PERIOD_PART_WORDS = re.compile(r"quarter|half|month|week|ytd|year|period|季|半期|月")
_PART_OF_PERIOD = re.compile(rf"\d|{_PERIOD_PART_WORDS.pattern}")
# A header that is a scale and nothing else: "M", "(millions)", "'000".
_BARE_SCALE = re.compile(r"\(?\s*(?:m|mn|bn|k|millions?|thousands?|billions?|[’']000s?)\s*\)?", re.IGNORECASE)
_PERIOD_BOUNDARY = re.compile(r"\b(?:beginning|start|end|close)\s+of\s+(?:the\s+)?(?:period|year)\b")
_BASIC_OR_DILUTED = re.compile(r"(?i)\s*(?:basic|diluted|basic\s+and\s+diluted)\s*")
# A figure in the currency's hundredth ("Basic earnings per share (cents)", a UK report's "… per share (p)"): no unit
# code says it, so none is given.
_SUBUNIT = re.compile(r"(?i)\b(?:cents?|pence)\b|\bshare\s*\(\s*p\s*\)")
# A section of changes in balances (a cash-flow statement's working-capital lines), and the rows that close it.
_CHANGES_SECTION = re.compile(r"(?i:\bchanges?\s+in\b|\(increase\)|\(decrease\)|increase\s*\(decrease\)|"
                              r"decrease\s*\(increase\))|増減|增减|变动")
_SECTION_END = re.compile(r"(?i:net\s+cash|total\b|cash\s+(?:provided|used|generated))|合計|小計|合计|小计|净额")
_AMBIGUOUS = "<ambiguous>"
# The words of a unit note leaving percentages out of the table's money ("in millions, except percentages").
_PERCENT_WORDS = frozenset({"percentage", "percentages", "percent", "percents", "ratio", "ratios", "margin", "margins",
                            "rates"})
_BARE_YEAR = re.compile(r"(?:19|20)\d{2}")
_PART_OF_YEAR = re.compile(
    r"half|six\s+months|nine\s+months|three\s+months|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s*[-–—~]"
    r"|上半期|下半期|中間|四半期|上半年|半年|季度|[1-9]\s*[-–~～]\s*[1-9]\s*月")
_COMMA = re.compile(r"\s*[,，]\s*")
# A unit or currency statement written as "单位：元", "币种：人民币", "金额单位：万元": no heading of any row.
_UNIT_STATEMENT = re.compile(r"(?:金额|金額)?(?:单位|單位|単位|币种|幣種|通貨)\s*[:：]\s*[^\s:：]{1,12}")
_TOTAL = re.compile(r"(?i:total\b)|合計|合计|小計|小计")
# A payment schedule's last column, and a span of its years ("2021-2022", "2020 – 2024").
_THEREAFTER = re.compile(r"thereafter")
_YEAR_SPAN = re.compile(r"(?:19|20)\d{2}\s*[-–—]\s*(?:19|20)?\d{2}")
# A label's own note saying its figures count people or things ("Employees (persons)", "従業員数（人）").
_COUNT_NOTE = re.compile(r"(?i)[(（]\s*(?:persons?|people|employees|headcount|number|no\.|shares|stores|tonnes?"
                         r"|人|名|社|店|件|株)\s*[)）]")
# What a unit note leaves out of its unit ("(unit: JPY million, except employees)"); per-share figures are read apart.
_EXCEPT = re.compile(r"(?i)\bexcept\s+(?:for\s+)?([^)）;；]+)")
_EXCEPT_FILLER = re.compile(r"(?i)per[\s-]+share\w*|\b(?:data|amounts?|figures?|information|where|otherwise|noted"
                            r"|stated|indicated|and|or|the|as)\b")
# A word saying what a figure counts, written alone over every column ("Years" of life expectancy, "Days").
_COUNT_HEADING = re.compile(r"(?:number|no\.)\s+of\s+[a-z][a-z\s-]*")
_MEASURE_WORD = re.compile(r"(?i)(?:years?|months?|weeks?|days?|hours?|times|number|no\.)")
_UNIT_NOTE = re.compile(r"\s*[(（][^()（）]*[)）]")
# A heading naming only whose statements the columns are ("Consolidated", "Parent entity"), never what the rows are
_SCOPE_HEADING = re.compile(r"(?i)(?:consolidated|group|parent(?:\s+(?:entity|company))?|company)\s*[:：]?")
# A "%" closing a kind's words ("External valuation %"): the unit its figures are in, not a share or a change
_PERCENT_UNIT = re.compile(r"(?<=[^\W\d_])\s*%$")
_MAX_WARNINGS_PER_TABLE = 12
# A dash written for nil in a period's column: "—", "–", "-", "−", "―".
_NIL_DASHES = frozenset({"-", "–", "—", "−", "―"})

@dataclass(frozen=True, slots=True)
class DeclaredUnits:
    """The units a table's caption and title declare: per dimension, and per named metric.

    ``Unit: USD_M; GROSS_MARGIN in %`` declares money in USD_M for every money metric and PCT
    for GROSS_MARGIN alone; a segment naming a metric scopes its unit to that metric.
    """

    default: dict[str, str] = field(default_factory=dict)
    by_metric: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, texts: Sequence[str], glossary: Glossary, currency: str | None = None) -> DeclaredUnits:
        """Collect declarations from caption and title text (earlier texts win).

        ``currency`` is the one the document states, for a scale written without one.
        """
        declared = cls()
        for text in texts:
            for segment in _SEGMENT_SPLIT.split(text):
                units = units_in(segment, currency)
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
    """The text around a table that may name what its rows do not (most specific first).

    ``lead`` is the sentence before the table (``2024年3月期の連結損益計算書は次のとおり``).
    """

    headings: tuple[str, ...]
    caption: str
    doc_title: str
    doc_entity: str = ""
    lead: str = ""
    assumed_entity: str = ""  # used, with a warning, when neither the table nor its context names one
    note: str = ""  # a unit note beside the table, read for its unit only ("金額は百万円単位で表示", "(In millions)")
    # another table came first under the same heading: the heading may be about that one (a PDF page's
    # "Fiscal Year Ended January 31, 2018" over the next year's quarters too), so its year dates no quarter
    follows_table: bool = False
    # the text around the table was read with it (its lead sentence, its headings): a PDF page's table, cut from
    # the page by its layout, may have lost the lines over it that state its period, so it never reads as undated
    surroundings_read: bool = True
    # the text after the table up to the next heading, when no table follows it there: a lead set after its table
    text_after: str = ""

    def layers(self) -> list[str]:
        """Texts in the order they are consulted: innermost heading, caption, lead, metadata, title."""
        return [*reversed(self.headings), self.caption, self.lead, self.doc_entity, self.doc_title]


def _mentioned(glossary: Glossary, kind: SlotKind, texts: Sequence[str]) -> str | None:
    """The one code of ``kind`` the first informative text names; ``_AMBIGUOUS`` when it names several.

    A metric that may end a longer item's name ("Cost of *revenue*") leaves the text's metric unknown:
    ``_AMBIGUOUS``, not the metric of a wider text, whose figures these are not.
    """
    for text in texts:
        mentions = glossary.scan(text) if text else []
        found = [m for m in mentions if m.kind is kind and m.code
                 and not (kind is SlotKind.ENTITY and _inside_a_name(text, m.start, m.end, _own_words(glossary)))]
        if kind is SlotKind.METRIC and not all(names_the_item(text, m, mentions) for m in found):
            return _AMBIGUOUS
        codes = {m.code for m in found}
        if len(codes) == 1:
            return codes.pop()
        if codes:
            return _AMBIGUOUS
    return None


_CAPITALISED_BEFORE = re.compile(r"([A-Z][\w&.’'-]*)\s+$")
_CAPITALISED_AFTER = re.compile(r"^\s+([A-Z][a-z][\w&.’'-]*)")


def _own_words(glossary: Glossary) -> frozenset[str]:
    """The words of the home entity's names ("ACME" of "ACME Group"): the company's own name."""
    home = glossary.terms[SlotKind.ENTITY].get(glossary.home_entity)
    names = home.names.values() if home is not None else ()
    return frozenset(word.casefold() for name in names for word in name.split())


def _home_names_in(glossary: Glossary, text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes a name the home company goes by: its entity's names and aliases and the
    glossary's fillers (where a domain lists its company's name, ``みのり食品``).

    A Japanese name in kana (みのり食品株式会社) is read by a company-name pattern from its first
    kanji on (食品株式会社): a home name the match starts inside says whose it is. One inside the
    match ("Group" of "Kaede Group Inc.") says nothing.
    """
    home = glossary.home_entity
    term = glossary.terms[SlotKind.ENTITY].get(home)
    names = {normalize_text(n) for n in (term.names.values() if term is not None else ())}
    names |= {alias for alias, (kind, code) in glossary.aliases.items() if kind is SlotKind.ENTITY and code == home}
    names |= set(glossary.fillers)
    lowered = text.casefold()
    return [(at.start(), at.end()) for name in names if len(name) > 1 and len(lowered) == len(text)
            for at in re.finditer(re.escape(name), lowered)]


def _inside_a_name(text: str, start: int, end: int, own: frozenset[str] = frozenset()) -> bool:
    """Whether an entity's word is part of a longer proper name ("Hemlock Semiconductor *Group*", "*South* Korean").

    Such a name is another company or place: a table under it is never the glossary entity's. The
    company's own name beside it ("ACME *Japan*") is the company's part of that name, not another's.
    """
    before = _CAPITALISED_BEFORE.search(text[:start])
    after = _CAPITALISED_AFTER.match(text[end:])
    return any(m is not None and m.group(1).casefold() not in own for m in (before, after))


def _context_period(glossary: Glossary, texts: Sequence[str]) -> Period | None | str:
    """The one period the first text naming any states; ``_AMBIGUOUS`` when it names several.

    Only a period written as one (``FY2025``, ``2025年3月期``, ``fiscal year 2024``, ``2024Q3``)
    counts: a bare year in a sheet name ("results 30 06 2023") or a text about part of a year
    ("January–June 2023", "half-year", "上半期") gives no fiscal year.
    """
    for text in texts:
        if not text:
            continue
        # 2024年度 is the year starting in 2024, whatever the glossary's own reading of the words
        found = {nendo_period(glossary.fiscal_calendar, m.raw) or m.period for m in glossary.scan(text)
                 if m.kind is SlotKind.PERIOD and m.period and not _BARE_YEAR.fullmatch(m.raw.strip())}
        if any(p.period_type == "FY" for p in found) and _PART_OF_YEAR.search(normalize_text(text)):
            return _AMBIGUOUS
        if len(found) == 1:
            return found.pop()
        if found:
            return _AMBIGUOUS
        ended = year_ended_period(glossary, text)  # "…, fiscal year ended March 31, 2025": its year is bare
        if ended is not None:
            return ended
    return None


class _Namer:
    """``name_of`` with a per-table cache, and bare quarters (``Q3``) dated by the title's year."""

    def __init__(self, glossary: Glossary, year: str | None) -> None:
        self.glossary = glossary
        self.year = year
        self.cache: dict[str, Named] = {}

    def __call__(self, text: str) -> Named:
        found = self.cache.get(text)
        if found is None:
            found = name_of(self.glossary, text)
            if found.unknown and self.year and text.strip():
                quarter = self.glossary.normalize_period(f"{self.year}{text.strip()}")
                if quarter is not None and quarter.period_type == "Q":
                    found = Named(period=quarter)
            self.cache[text] = found
        return found


@dataclass(slots=True)
class _Cell:
    """The slots one value cell's row labels and column headers name."""

    metric: str | None = None
    entity: str | None = None
    channel: str | None = None
    period: Period | None = None
    conflict: str = ""

    def add(self, named: Named) -> None:
        for slot in ("metric", "entity", "channel", "period"):
            new = getattr(named, slot)
            old = getattr(self, slot)
            if new is not None and old is not None and new != old:
                self.conflict = f"its labels name two {slot}s"
            elif new is not None:
                setattr(self, slot, new)


@lru_cache(maxsize=4096)
def _units_of(text: str, currency: str | None) -> tuple[str, ...]:
    """``units_in`` once per distinct label or header (tables repeat them on every row)."""
    return tuple(units_in(text, currency)) if text else ()


def _scale_only(unit: str) -> str:
    """A unit code without its currency (``USD_K`` -> ``K``): a count of shares stated in thousands."""
    currency, _, scale = unit.partition("_")
    return scale if currency in ISO_4217 else unit


def _joined(texts: Sequence[str]) -> str:
    """Labels as a locator value: joined by ``/``, commas (the locator's separator) made spaces."""
    text = "/".join(dict.fromkeys(t for t in texts if t))
    return locator_value(_COMMA.sub(" ", text).strip())


def table_facts(block: Block, context: TableContext, glossary: Glossary,
                lineage: Lineage) -> tuple[list[Fact], list[str]]:
    """The facts one table states, and a warning for everything it could not read.

    Never raises on odd content: a table whose axes cannot be read yields a warning naming
    the table and the reason, and no facts.
    """
    where = f"{lineage.doc_id} {block.locator}"
    rows = headings_made_whole(headings_into_label_column(block.rows))
    if len(rows) < 2 or len(rows[0]) < 2:
        return [], [f"{where}: fewer than two rows or columns; table skipped"]
    refs = [list(r) for r in block.cell_refs] if block.cell_refs else None
    shape = table_shape(rows, glossary)
    if shape is None:
        return [], [f"{where}: no cell holds a figure under a label; table skipped"]
    years = [m.period.period for t in (() if context.follows_table else context.headings) for m in glossary.scan(t)
             if m.period is not None and m.period.period_type == "FY"]
    namer = _Namer(glossary, years[-1] if years else None)
    blocks = header_blocks(rows, shape.header_rows, shape.label_cols, lambda cell: is_figure(cell, glossary),
                           lambda cell: _names_a_period(cell, glossary))
    if len(blocks) == 1:
        return _TableReader(block, context, glossary, lineage, shape, rows, refs, namer).read()
    return _blocks_read(block, context, glossary, lineage, blocks, rows, refs, namer)


def _names_a_period(text: str, glossary: Glossary) -> bool:
    """Whether a header cell names a period the glossary reads (``FY 2019 (%)``)."""
    return any(m.kind is SlotKind.PERIOD and m.period is not None for m in glossary.scan(text))


def _blocks_read(block: Block, context: TableContext, glossary: Glossary, lineage: Lineage,
                 blocks: Sequence[tuple[int, int]], rows: list[list[str]], refs: list[list[str]] | None,
                 namer: _Namer) -> tuple[list[Fact], list[str]]:
    """Each block of a grid whose headers are set again read as its own table; two blocks disagreeing drop the fact."""
    facts: dict[FactKey, Fact] = {}
    dropped: set[FactKey] = set()
    warnings: list[str] = []
    for start, end in blocks:
        part = rows[start:end]
        shape = table_shape(part, glossary)
        if shape is None:
            continue
        reader = _TableReader(block, context, glossary, lineage, shape, part, refs[start:end] if refs else None, namer)
        reader.block_title = _block_title(part, shape)
        found, problems = reader.read()
        warnings += [w for w in problems if w not in warnings]
        for fact in found:
            kept = facts.setdefault(fact.key, fact)
            if kept.value != fact.value:
                warnings.append(f"{fact.source_locator} and {kept.source_locator} give two figures for one fact; "
                                "both dropped")
                dropped.add(fact.key)
    return [fact for key, fact in facts.items() if key not in dropped], warnings


def _block_title(rows: Sequence[Sequence[str]], shape: TableShape) -> str:
    """The one text a block's header rows write alone on a row (``Fiscal 2018``), named in its facts' locators."""
    for h in shape.header_rows:
        written = [cell.strip() for cell in rows[h][shape.label_cols:] if cell.strip()]
        if len(written) == 1:
            return clean_label(written[0])
    return ""


def _count_beside_money(left: str, right: str) -> bool:
    """Whether a column headed by a bare scale (``M``, ``'000``: a count) is set beside one headed by money."""
    return bool(_BARE_SCALE.fullmatch(left.strip())) and any(unit != "PCT" for unit in units_in(right, None))


def _lowest(headers: Sequence[str]) -> str:
    """A column's lowest header line written."""
    return next((text for text in reversed(headers) if text), "")


def _open_metric(labels: Sequence[str], names: list[Named], line_item_cols: set[int]) -> list[Named]:
    """A row's names, its one unknown label read as a metric of the document's own when no other label names one.

    Two unknown labels in one row (an unknown segment beside an unknown line item) stay unknown:
    which is the metric is not certain. A label naming a metric beside an unknown one (a long
    layout's segment column) leaves it unknown too, and so does a label under a header naming
    something else than line items ("Name", "Segment").
    """
    unknown = [i for i, n in enumerate(names) if n.unknown]
    if len(unknown) != 1 or unknown[0] not in line_item_cols or any(n.metric for n in names):
        return names
    code = open_metric_code(labels[unknown[0]], longest=MAX_ROW_LABEL_CHARS)
    if code is None:
        return names
    return [Named(metric=code) if i == unknown[0] else n for i, n in enumerate(names)]


def _one_after_another(spans: Iterable[str]) -> bool:
    """Whether spans of years (``2020 – 2024``, ``2025-29``) run in order, each starting after the last ends."""
    ends = []
    for span in spans:
        first, last = (int(y) for y in re.findall(r"\d+", span)[:2])
        ends.append((first, first - first % 100 + last if last < 100 else last))
    return all(first <= last for first, last in ends) and all(
        later[0] > earlier[1] for earlier, later in zip(ends, ends[1:], strict=False))


def _words_within(section: str, label: str) -> bool:
    """Whether a label already says its section's words ("Total net sales" under "Net sales:")."""
    said = set(re.findall(r"\w+", label.lower()))
    return set(re.findall(r"\w+", section.lower())) <= said


def _line_item_header(glossary: Glossary, text: str) -> bool:
    """Whether a header over a label column lets its unknown labels be line items (not "Name", "Segment")."""
    named = name_of(glossary, text)
    return normalize_text(text).strip(" :：") not in NOT_LINE_ITEM_HEADERS and not (named.entity or named.channel)


# A header ending in a word that leads on ("Balance at Beginning of" over "Period (1/1/19)"): one header set
# on two lines, never a title over the columns.
_BROKEN_OFF = re.compile(r"(?i)(?<![^\W\d_])(?:of|at|in|for|to|from|and|the|by|on|as)\s*$")
# Header words saying a column is a whole year's.
_WHOLE_YEAR = re.compile(r"(?:years?|5[23][\s-]*weeks?|twelve\s+months|12\s+months)[\s-]+end(?:ed|ing)|fiscal\s+year"
                         r"|年度|财年|会计年度|事業年度")
# A column of balances at the start of a period: the period before's closing figures, never this period's.
_OPENING = re.compile(r"(?<![a-z])(?:beginning|opening|start)(?![a-z])")
# A benefit or share plan is a thing a table is about, not a plan figure ("Combined Pension Plan",
# "Employee Stock Purchase Plan").
_NAMED_PLANS = re.compile(r"(?<![a-z])(?:pension|benefits?|retirement|savings|incentive|stock|option|purchase"
                          r"|compensation|equity|award|ownership)\s+plans?(?![a-z])")


class _TableReader:
    """Reads the value cells of one table whose shape is known."""

    def __init__(self, block: Block, context: TableContext, glossary: Glossary, lineage: Lineage,
                 shape: TableShape, rows: list[list[str]], refs: list[list[str]] | None, name: _Namer) -> None:
        self.block, self.context, self.glossary, self.lineage = block, context, glossary, lineage
        self.shape, self.rows, self.refs, self.name = shape, rows, refs, name
        self.where = f"{lineage.doc_id} {block.locator}"
        self.warnings: list[str] = []
        self.assumed = False
        self.other_company: str | None = None
        self.row_periods: dict[int, Period] = {}  # body rows dated by a period row above them
        self.row_written: dict[int, tuple[str, ...]] = {}  # a balance row's labels with their date, for its locator
        self.row_dates_written: dict[int, str] = {}  # a date row's text as written over the rows it dates, for locators
        self.unheaded: set[int] = set()  # columns of a roll-forward whose kind no header states
        # columns dated kind by kind: one date heads them and a column of another kind of figure of the same rows
        self.dated_by_kind: set[int] = set()
        self.share_cols: dict[int, tuple[str, str]] = {}  # "% of Total" beside a kind: (the kind, the share's words)
        # columns of January or February year ends the text around names by their end: fiscal years of the report's
        self.named_by_report: set[int] = set()
        self.total_parts: dict[int, tuple[int, ...]] = {}  # a bare total row's rows above it, back to a heading
        self.headed_by: dict[int, str] = {}  # a body row's section heading as written, its unit note kept
        self.row_headed: set[int] = set()  # body rows under a heading on a row of its own (not a column header's)
        self.own_labels: dict[int, tuple[str, ...]] = dict(shape.row_labels)  # before sections qualify them
        self.unread_rows: dict[int, str] = {}  # rows a section shows are not what their own label says, and why
        self.block_title = ""  # one block of a grid whose headers are set again: its title, for its locators
        self.line_items = False  # no row names a glossary entity or channel (set with the sections)
        self.money_unit_conflict = ""  # why the caption's currency and the cells' cannot both hold, if they cannot
        self.over_table = ""  # a date written once over the whole table: read as its period, not a column's header
        self.stated_date: date | None = None  # that date where it ends no fiscal year: on each undated fact's locator
        self.schedule_cols: set[int] = set()  # a payment schedule's year columns: no fiscal year's figures
        # columns of a change between two years or each of its own date, named by it: of no fiscal year
        self.change_cols: dict[int, str] = {}
        self.inside_year_cols: dict[int, str] = {}  # columns of a day inside a year beside a year end's: undated
        self.schedule_rows: set[int] = set()  # the same schedule set down the rows: its years and Thereafter
        self.quarter_cols: dict[int, int] = {}  # quarter columns (Q1 … Q4) beside rows of fiscal years
        self.nil_cells: dict[int, set[int]] = {}  # rows of each column whose dash states nil (``_nil_dash``)
        self.unit_col: int | None = None  # a tidy table's column of each row's unit (单位, Unit)
        self.currency = self._stated_currency()
        # a common-size statement's columns: "100.0 %" over bare shares of it (``table_percent_columns``)
        self.percent_cols = common_size_columns(rows, shape.body_rows, shape.col_headers)
        self.restated_unit = ""  # the money unit the text beside the table writes its figures with, if any
        self.deducted: frozenset[tuple[int, int]] = frozenset()  # liabilities written in brackets as a deduction

    def _stated_currency(self) -> str | None:
        """The one currency the table and the text around it state (``$`` in its cells, ``€m``), else None.

        A scale written alone ("(in millions)") is in that currency; with none stated, or two, it
        stays a scale alone: no currency is assumed from the domain. A dollar the caption names
        ("in thousand NT dollars") is what a bare ``$`` in the cells means; a caption naming a
        currency the cells contradict leaves the table without a money unit.
        """
        context = self.context
        cells = [cell for row in self.rows for cell in row]
        currency, conflict = table_currency(cells, [*self.block_caption(), *context.headings],
                                            [context.lead, context.note], self.glossary.currency)
        self.money_unit_conflict = conflict
        return currency

    def warn(self, text: str) -> None:
        if len(self.warnings) < _MAX_WARNINGS_PER_TABLE:
            self.warnings.append(f"{self.where}: {text}")

    def read(self) -> tuple[list[Fact], list[str]]:
        self.deducted = deducted_liabilities(self.rows, self.shape)  # by the rows' own labels, before sections
        self.shape = replace(self.shape, row_labels=self._qualified_by_sections())
        shape, glossary, context = self.shape, self.glossary, self.context
        header_names = self._header_names()
        self.change_cols = year_pair_changes(self.shape.col_headers)
        dates = column_dates(self.shape.col_headers)
        # a date closing the year among the quarter-ends of that year heads a quarter, no fiscal year's figure
        if not any(n.period for names in header_names.values() for n in names) or quarter_ends(dates):
            self.change_cols = self.change_cols or dates
        elif not self.change_cols:  # a day's balance inside a year beside a year end: read as of its own date
            self.change_cols = self.inside_year_cols = dates_inside_a_year(self.shape.col_headers, self._closes_a_year)
        self.schedule_cols = self._schedule_year_columns(header_names) | set(self.change_cols)
        header_names = {c: names for c, names in header_names.items() if c not in self.schedule_cols}
        if not self.row_periods and not any(n.period for names in header_names.values() for n in names):
            self._date_roll_forward()
            shape = self.shape
        open_cols = self._line_item_columns()
        row_names = {r: _open_metric(labels, [self._row_name(label) for label in labels], open_cols)
                     for r, labels in shape.row_labels.items()}
        self.schedule_rows = self._schedule_year_rows(row_names)
        self.quarter_cols = self._quarters_beside_year_rows(header_names, row_names)
        self.unit_col = unit_column(shape.col_headers, self.rows, shape.body_rows)  # a tidy table's 单位 column
        header_names = {c: [] if c in self.quarter_cols else names for c, names in header_names.items()}
        named = [n for r, names in row_names.items() if r not in self.schedule_rows for n in names]
        named += [n for names in header_names.values() for n in names]
        named += [Named(period=period) for period in self.row_periods.values()]
        # a schedule's rows name when its columns' figures fall due: each column is then a kind of figure
        if not self.schedule_rows and not any(n.metric or n.entity or n.channel or n.period for n in named):
            return [], [f"{self.where}: no row or column names a metric, entity, channel or period the glossary "
                        "knows; table skipped"]
        # a grid of years by quarters names no metric: its caption or heading names the one it states
        if not (self.schedule_rows or self.quarter_cols) and not any(n.metric or n.entity or n.channel for n in named):
            return [], [f"{self.where}: no row names a metric, entity or channel the glossary knows; table skipped"]
        has = {slot: any(getattr(n, slot) for n in named) for slot in ("metric", "entity", "channel", "period")}
        layers = context.layers()
        near = [context.caption, *reversed(context.headings), context.lead]
        fallback = _Cell(
            metric=None if has["metric"] else _mentioned(glossary, SlotKind.METRIC, layers),
            entity=None if has["entity"] else _mentioned(glossary, SlotKind.ENTITY, layers),
            channel=None if has["channel"] else _mentioned(glossary, SlotKind.CHANNEL, near),
        )
        if fallback.entity not in (None, _AMBIGUOUS):
            entity = fallback.entity
            fallback.entity = self._company_holding(entity) or self._company_consolidated(entity, layers) or entity
        # columns each stating their own time (a date, a change between two years) take no period from around them
        stated_apart = has["period"] or bool(self.change_cols)
        spanning_year = None if stated_apart else self._spanning_period()
        context_period = None if stated_apart else (_context_period(glossary, near) or self._label_column_period()
                                                    or (spanning_year and spanning_year[0]) or self._title_period())
        if spanning_year is not None and context_period == spanning_year[0]:  # the year heads no column
            self.over_table = spanning_year[1]
            header_names = {c: names for c, names in self._header_names().items() if c not in self.schedule_cols}
        undated = False
        if not has["period"] and context_period is None and context.surroundings_read:
            over = self._written_over_table()
            written = lone_date([*over, *self._context_texts()])
            if self._states_no_period(written):
                closed = self.name(written).period if written else None
                undated = closed is None
                context_period = Period.none_stated() if undated else closed
                if undated:
                    self.stated_date = date_of(written) if written else None
                    ending = f", only {written!r}, which ends no fiscal year" if written else ""
                    self.warn(f"no period in its headers, labels or context{ending}: its facts are undated")
                spanning = next((t for t in over if written and written in normalize_text(t)), "")
                if spanning:  # the date over every column is the table's, no column's own header
                    self.over_table = spanning
                    header_names = {c: names for c, names in self._header_names().items()
                                    if c not in self.schedule_cols}
        if not has["period"] and not isinstance(context_period, Period):
            return [], [f"{self.where}: no period in its headers, labels or context; table skipped"]
        table_units = [u for c in range(shape.label_cols) for h in shape.header_rows
                       for u in units_in(self.rows[h][c], self.currency)] + self._unit_note_rows()
        declared = DeclaredUnits.read([*self.block_caption(), *reversed(context.headings), context.lead,
                                       context.note], glossary, self.currency)
        self._declare_restated_scale(declared, table_units)
        if self.money_unit_conflict:
            self.warn(self.money_unit_conflict)
        facts: dict[FactKey, Fact] = {}
        dropped: set[FactKey] = set()
        partly: set[int] = set()  # rows whose cells under a column naming a part of them could not be read
        rows_of: dict[int, list[FactKey]] = {}
        expiry_cols = self._ending_year_columns()
        skipped_cols = {c for c, names in header_names.items() if any(n.unknown for n in names)} | self.unheaded
        shares = self._share_columns()
        qualifiers = self._column_qualifiers(skipped_cols - expiry_cols, header_names,
                                             has["period"] or context_period is not None, undated)
        for c in sorted(skipped_cols - set(qualifiers) - expiry_cols):
            self.warn(f"column {'/'.join(shape.col_headers[c])!r}: a header the glossary does not read; column skipped")
        for c in sorted(expiry_cols):
            self.warn(f"column {'/'.join(shape.col_headers[c])!r}: the year each row expires or falls due, "
                      "no figure; column skipped")
        for c in sorted(self.schedule_cols):  # the year as written names when its figures fall due: "2021: Leases"
            if c in self.change_cols:  # "2019 and 2018" under "Change": "change from 2018 to 2019: Facilities"
                qualifiers[c] = self.change_cols[c]
                self.warn(f"column {'/'.join(shape.col_headers[c])!r}: a change between two years or a date of "
                          "its own; its figures are read as of it, of no fiscal year")
                continue
            qualifiers[c] = shape.col_headers[c][-1]
            self.warn(f"column {'/'.join(shape.col_headers[c])!r}: a year of a payment schedule, not a fiscal "
                      "year; its figures are read as falling due then, of no fiscal year")
        skipped_cols |= expiry_cols | self.schedule_cols | ({self.unit_col} if self.unit_col is not None else set())
        for r in shape.body_rows:
            names = row_names[r]
            labels = shape.row_labels[r]
            if r in self.schedule_rows:
                self._read_schedule_row(r, qualifiers, header_names, facts, dropped, fallback, context_period,
                                        table_units, declared)
                continue
            if any(n.unknown for n in names):
                unknown = next(label for label, n in zip(labels, names, strict=True) if n.unknown)
                self.warn(f"row {unknown!r}: no row label the glossary recognises; row skipped")
                continue
            if r in self.unread_rows:
                self.warn(f"row {_joined(labels)!r}: {self.unread_rows[r]}; row skipped")
                continue
            for c in shape.col_headers:
                text = self.rows[r][c]
                if (c in skipped_cols and c not in qualifiers) or c in shares or (
                        body_cell_blank(text) and not self._nil_dash(r, c, header_names)):
                    continue
                if undated and not any(shape.col_headers[c]):
                    continue  # undated, a column no header names could be of any period
                cell = _Cell()
                column = header_names.get(c, [])  # a schedule's year column names nothing but its qualifier
                quarter = self._quarter_row(r, labels, context_period) if c in qualifiers else None
                if quarter is not None:  # "Fourth Quarter" under 2019 and "High": the kind's figure of 2019Q4
                    column = [n for n in column if not n.unknown]
                    names = [Named(metric=open_metric_code(qualifiers[c]))]
                elif c in qualifiers:
                    qualified = self._qualified_metric(qualifiers[c], labels, names, r, c)
                    if qualified is None:
                        partly.add(r)
                        continue
                    column = [n for n in column if not n.unknown]
                    names = [Named(metric=qualified) if n.metric else n for n in names]
                    if not any(n.metric for n in names):  # a bare total: its channel word was no channel
                        names = [Named(metric=qualified)]
                elif (kind := self._glossary_kind_of_open_row(c, labels, names, column)) is not None:
                    names = [Named(metric=kind) if n.metric else n for n in names]
                    column = [n for n in column if not n.metric]
                if (not cell.entity and not any(n.entity for n in (*names, *column)) and labels
                        and is_bare_total(labels[-1]) and (why := self._total_of_some_parts(row_names))):
                    self.warn(f"row {_joined(labels)!r}: a total of some of an entity's parts ({why}), not its figure; "
                              f"cell {_joined(shape.col_headers[c])!r} skipped")
                    continue
                if c in self.quarter_cols:  # FY2024 beside Q2: the second quarter of that year
                    names = [self._quarter_of(n, self.quarter_cols[c]) for n in names]
                dated = [Named(period=self.row_periods[r])] if r in self.row_periods else []
                if c in self.inside_year_cols:  # its date names it; the year end beside it dates none of its cells
                    dated = [Named(period=Period.none_stated())]
                if quarter is not None:
                    dated = [Named(period=quarter)]
                for n in (*names, *column, *dated):
                    cell.add(n)
                names = row_names[r]
                fact = self._fact(r, c, cell, fallback, context_period, table_units, declared)
                if fact is None:
                    continue
                self._keep(fact, facts, dropped)
                rows_of.setdefault(r, []).append(fact.key)
        if undated:
            dropped |= self._partly_read(partly, rows_of)
        found = [fact for key, fact in facts.items() if key not in dropped]
        self._check_totals(found)
        if not found and not self.warnings:
            self.warn("no cell holds a figure; table skipped")
        return found, self.warnings

    def _quarter_row(self, r: int, labels: Sequence[str], context_period: Period | None | str) -> Period | None:
        """The quarter a row labelled with a quarter alone is, of the year over it; None for any other row.

        A share-price table sets its quarters down the rows (``Fourth Quarter``) under a year's row
        (``2019:``) or the table's one year, its columns naming kinds (``High``, ``Low``): each cell
        is that kind's figure of the quarter, never a line item "high: fourth quarter" of the year.
        """
        quarter = bare_quarter(labels[-1], self.glossary.fiscal_calendar.end_month) if labels else None
        if quarter is None:
            return None
        year = self.row_periods.get(r) or (context_period if isinstance(context_period, Period) else None)
        if year is None or year.period_type != "FY":
            return None
        period = self.glossary.normalize_period(f"{year.period}Q{quarter}")
        return period if period is not None and period.period_type == "Q" else None

    def _nil_dash(self, r: int, c: int, header_names: dict[int, list[Named]]) -> bool:
        """Whether a dash in a period's column states nil: the row gives a figure for another period.

        "Preferred stock disposition | (9.9) | — | —" under 2019, 2018, 2017: nothing was disposed of
        in 2018 and 2017, a figure of 0 (a change from 2018 is −9.9). A dash beside no figure of the
        row's other periods, or under a kind of figure (a price, a term) rather than a period, says
        nothing is stated, and stays unread.
        """
        if normalise_cell(self.rows[r][c]) not in _NIL_DASHES or not self._names_period(c, header_names):
            return False
        if not any(c2 != c and self._names_period(c2, header_names) and read_cell(self.rows[r][c2]) is not None
                   for c2 in self.shape.col_headers):
            return False
        self.nil_cells.setdefault(c, set()).add(r)
        return True

    @staticmethod
    def _names_period(c: int, header_names: dict[int, list[Named]]) -> bool:
        names = header_names.get(c, [])
        return any(n.period for n in names) and not any(n.unknown or n.metric for n in names)

    def _partly_read(self, partly: set[int], rows_of: dict[int, list[FactKey]]) -> set[FactKey]:
        """The facts of an undated table's rows whose part columns were not read (a glossary row under ``Current``).

        With no period to hold it apart, the row's remaining figure (its ``Total``) would answer a
        question naming one of its parts ("gross carrying amount of current receivables"): the
        row gives none.
        """
        doomed: set[FactKey] = set()
        for r in sorted(partly & set(rows_of)):
            self.warn(f"row {_joined(self.shape.row_labels[r])!r}: its columns name parts of it the glossary's metric "
                      "cannot carry, and the table states no period; row skipped")
            doomed.update(rows_of[r])
        return doomed

    def _states_no_period(self, date: str) -> bool:
        """Whether no cell of the table and no text around it writes a period but ``date`` (``table_undated``).

        Every cell counts, not only the headers and the body's labels: a date on a row of its own
        between two blocks ("June 30, 2018" over the year before's rows) dates the rows below it.
        """
        # the years a row expires or falls due, and a payment schedule's years, date none of its figures
        ending = self._ending_year_columns() | self.schedule_cols
        headers = [h for c, headers in self.shape.col_headers.items() if c not in ending for h in headers]
        # the header over the rows ("Fiscal Year" over spans, "Quarters Ended" beside dates) names what they are
        axis = set(self.shape.header_rows) if self.schedule_rows or self.change_cols else set()
        cells = [cell for r, row in enumerate(self.rows) if r not in self.schedule_rows
                 for c, cell in enumerate(row) if c not in ending and not (r in axis and c < self.shape.label_cols)]
        # a period word around a table whose every column states its own time ("Quarterly results") dates none
        context = [] if self.change_cols else self._context_texts()
        return states_no_period(headers, cells, context, besides=date)

    def _closes_a_year(self, day: date) -> bool:
        """Whether ``day`` closes a fiscal year of the glossary's calendar (or the week after, a 52/53-week year's)."""
        return fiscal_year_closed_on(self.glossary.fiscal_calendar, day.year, day.month, day.day) is not None

    def _ending_year_columns(self) -> set[int]:
        """Value columns headed as the year each row expires or falls due ("Last Fiscal Year of Expiration")."""
        header_rows = [self.rows[h] for h in self.shape.header_rows]
        body_rows = [self.rows[r] for r in self.shape.body_rows]
        return {c for c in self.shape.col_headers if names_ending_years(header_rows, body_rows, c)}

    def _context_texts(self) -> list[str]:
        context = self.context
        return [*context.headings, context.caption, context.lead, context.doc_title]

    def _written_over_table(self) -> list[str]:
        """Header texts over the whole table: those of the label columns, and one text spanning every value column."""
        texts = [clean_label(self.rows[h][k]) for h in self.shape.header_rows for k in range(self.shape.label_cols)]
        heads = list(self.shape.col_headers.values())
        for i in range(len(self.shape.header_rows)):
            spanning = {headers[i] for headers in heads}
            if len(spanning) == 1 and len(heads) > 1:
                texts.append(spanning.pop())
        return [t for t in texts if t]

    def _unit_note_rows(self) -> list[str]:
        """The units of a header row whose one written cell is a unit note: the whole table's.

        "(in millions)" set in one cell of its own row over several value columns is the table's
        unit, like a caption: filled rightwards as a merged header it would reach only the columns
        from its cell on, and the columns left of it would state none.
        """
        found: list[str] = []
        if len(self.shape.col_headers) < 2:
            return found
        for h in self.shape.header_rows:
            written = [cell for cell in self.rows[h][self.shape.label_cols:] if cell.strip()]
            if len(written) != 1:
                continue
            named = self.name(written[0])
            if not (named.metric or named.entity or named.channel or named.period or named.unknown):
                found += units_in(written[0], self.currency)
        return found

    def _date_roll_forward(self) -> None:
        """Rows of a roll-forward dated by its balance rows (``ingestion/table_roll_forward.py``)."""
        shape = self.shape
        headed = {c for c, headers in shape.col_headers.items() if any(headers)}
        if not headed:
            return  # no column says what it holds (a statement of equity whose headers the PDF lost)
        labels = [(r, shape.row_labels[r][-1]) for r in shape.body_rows if r in shape.row_labels]
        dated = roll_forward(labels, self.glossary.fiscal_calendar)
        if not dated:
            return
        relabelled = dict(shape.row_labels)
        for r, (period, words) in dated.items():
            self.row_periods[r] = period
            if words is not None:
                relabelled[r] = (*shape.row_labels[r][:-1], words)
                self.row_written[r] = shape.row_labels[r]
        self.shape = replace(shape, row_labels=relabelled)
        # Dated by rows, a column is only what its header says: one without a header (beside "Shares") is unread.
        self.unheaded = set(shape.col_headers) - headed

    def _share_columns(self) -> set[int]:
        """Columns headed ``%`` beside a column of the same upper headers (``$ | %`` under one year): shares of it.

        Both name the same row and period; the ``%`` column states the row's share of the total,
        never the row's own figure, so it gives no facts (else the two would conflict and both go).
        """
        heads = self.shape.col_headers
        found = set()
        for c, headers in heads.items():
            if not headers or headers[-1].strip() != "%":
                continue
            if any(d != c and other and other[:-1] == headers[:-1] and other[-1].strip() not in ("%", "")
                   for d, other in heads.items()):
                found.add(c)
        return found

    def _schedule_year_columns(self, header_names: dict[int, list[Named]]) -> set[int]:
        """The year columns of a payment schedule: ``Total | 2020 | 2021-2022 | Thereafter``, a Total by four years.

        Such a column holds the payments due in that year (or span of years), counted from the
        balance date, never the figures of that fiscal year, and a wrong period is worse than
        none. A schedule is told by a ``Thereafter`` column beside its years, or by a ``Total``
        column beside four or more consecutive years. Its other columns (the ``Total``, the
        ``Thereafter``) are still read, undated where nothing else states a period.
        """
        heads = self.shape.col_headers
        years = {c: int(p.period) for c in sorted(header_names) for n in header_names[c]
                 if (p := n.period) is not None and p.period_type == "FY"}
        spans = {c for c, headers in heads.items() if headers and _YEAR_SPAN.fullmatch(headers[-1].strip())}
        thereafter = any(_THEREAFTER.fullmatch(clean_label(normalize_text(h))) for headers in heads.values()
                         for h in headers)
        total = any(_TOTAL.fullmatch(h.strip()) for headers in heads.values() for h in headers if h)
        ordered = [years[c] for c in sorted(years)]
        consecutive = len(ordered) >= 4 and all(b == a + 1 for a, b in zip(ordered, ordered[1:], strict=False))
        if (thereafter and (years or spans)) or (total and consecutive):
            return set(years) | spans
        return set()

    def _schedule_year_rows(self, row_names: dict[int, list[Named]]) -> set[int]:
        """The rows of a payment schedule set down the table: ``2021 | 138 | 6`` … ``Thereafter | 577 | 35``.

        As with a schedule's columns, a row's year is when its figures fall due, counted from
        the balance date, not the fiscal year they are of. Told the same way: a ``Thereafter``
        row below the years (or spans of years), or a ``Total`` row below four or more
        consecutive years in ascending order. The year rows and the ``Thereafter`` row are
        returned; each of their cells is read as the column's kind qualified by the row's words.
        """
        labels = {r: self.shape.row_labels[r][-1] for r in self.shape.body_rows if self.shape.row_labels.get(r)}
        years = {r: int(p.period) for r, names in row_names.items() if r in labels for n in names
                 if (p := n.period) is not None and p.period_type == "FY" and len(names) == 1}
        spans = {r for r, label in labels.items() if _YEAR_SPAN.fullmatch(label.strip())}
        after = {r for r, label in labels.items() if _THEREAFTER.fullmatch(clean_label(normalize_text(label)))}
        total = any(_TOTAL.match(label.strip()) for label in labels.values())
        ordered = [years[r] for r in sorted(years)]
        consecutive = len(ordered) >= 4 and all(b == a + 1 for a, b in zip(ordered, ordered[1:], strict=False))
        dated = set(years) | spans
        if after and dated and min(after) > max(dated):
            return dated | after
        if total and consecutive:
            return dated | after
        if len(spans) >= 2 and not years and _one_after_another(labels[r] for r in sorted(spans)):
            return spans  # spans of years down the rows, each after the last: when its figures fall due or expire
        return set()

    def _total_of_some_parts(self, row_names: dict[int, list[Named]]) -> str:
        """Why the rows' total is of some of an entity's parts only, else "": the rows are glossary
        entities that are not all the children of one parent, or the text over them says they are a part.

        A bare ``Total`` under ``China | North America | Europe`` sums three of the group's four
        regions; one under every segment of "Overseas net sales by segment" sums their overseas
        sales. Neither is a figure of the group, nor of any entity.
        """
        named = {n.entity for names in row_names.values() for n in names if n.entity}
        if not named:
            return ""
        word = next((w for text in [*self.block_caption(), *self.context.headings[-1:], self.context.lead]
                     if text and (w := part_of_whole(text))), "")
        if word:
            return f"the text over the table says {word!r}"
        terms = self.glossary.terms[SlotKind.ENTITY]
        parents = {terms[e].parent for e in named if e in terms}
        if len(parents) != 1 or None in parents:
            return "its rows are no one entity's parts"
        parent = parents.pop()
        levels = {terms[e].level for e in named if e in terms}  # a group's segments and its regions apart
        level = levels.pop() if len(levels) == 1 else None
        siblings = {code for code, term in terms.items() if term.parent == parent and (level is None
                                                                                     or term.level == level)}
        return "" if siblings <= named else f"its rows are not all the parts of {parent}"

    def _quarters_beside_year_rows(self, header_names: dict[int, list[Named]],
                                   row_names: dict[int, list[Named]]) -> dict[int, int]:
        """Columns of bare quarters beside rows that are all fiscal years: ``Fiscal year | Q1 | … | Q4``, ``FY2024``.

        Each cell is that quarter of its row's year. Only where every value column is a quarter
        (or a ``Total``, the year's own figure) and every body row a fiscal year alone: a quarter
        column beside rows of line items is dated by nothing here.
        """
        heads = self.shape.col_headers
        end_month = self.glossary.fiscal_calendar.end_month
        quarters = {c: q for c, headers in heads.items() if headers and (q := bare_quarter(headers[-1], end_month))}
        others = [c for c in heads if c not in quarters]
        if len(quarters) < 2 or any(not is_year_total(heads[c][-1]) for c in others if heads[c]):
            return {}
        if any(n.period or n.metric or n.entity for c in quarters for n in header_names.get(c, [])):
            return {}  # the column names more than its quarter
        rows = [row_names.get(r, []) for r in self.shape.body_rows]
        if not rows or not all(len(names) == 1 and names[0].period is not None
                               and names[0].period.period_type == "FY" for names in rows):
            return {}
        return quarters

    def _quarter_of(self, named: Named, quarter: int) -> Named:
        """A row's fiscal year made the quarter its column names (``FY2024`` under ``Q2`` is ``2024Q2``)."""
        if named.period is None:
            return named
        period = self.glossary.normalize_period(f"{named.period.period}Q{quarter}")
        return Named(period=period) if period is not None else UNKNOWN

    def _read_schedule_row(self, r: int, qualifiers: dict[int, str], header_names: dict[int, list[Named]],
                           facts: dict[FactKey, Fact], dropped: set[FactKey], fallback: _Cell,
                           context_period: Period | None | str, table_units: list[str],
                           declared: DeclaredUnits) -> None:
        """A schedule row's cells: each the column's kind falling due when the row says (``2021: Operating Leases``).

        A column the glossary reads as one of its metrics cannot carry a due year (the metric
        has no such part) and is not read.
        """
        when = self.shape.row_labels[r][-1]
        for c in self.shape.col_headers:
            text = self.rows[r][c]
            if body_cell_blank(text):
                continue
            if c not in qualifiers:
                if any(n.metric for n in header_names.get(c, [])):
                    self.warn(f"row {when!r}: when a glossary metric falls due is no part of it; "
                              f"cell {_joined(self.shape.col_headers[c])!r} skipped")
                continue
            metric = open_metric_code(f"{when}: {qualifiers[c]}")
            if metric is None:
                continue
            cell = _Cell()
            cell.add(Named(metric=metric))
            for n in header_names.get(c, []):
                if not n.unknown and not n.metric:
                    cell.add(n)
            fact = self._fact(r, c, cell, fallback, context_period, table_units, declared)
            if fact is None:
                continue
            self._keep(fact, facts, dropped)

    def _column_qualifiers(self, skipped: set[int], header_names: dict[int, list[Named]],
                           dated: bool, undated: bool = False) -> dict[int, str]:
        """Columns headed by a line item's kind the glossary does not read ("Net Sales", "Fair Value").

        Under a period (its own upper header, or the table's context), such a column states that
        kind of figure for each row of the document's own labels: "Americas" under "Fiscal Year
        2018 / Net Sales" is ``Net Sales: Americas`` of 2018. Headers of a share, a change or a
        plan (``% of Total``, ``Change``, ``Budget``) stay skipped. In an undated table (no period
        word anywhere) a header's digits are no part of a period: an aging bucket ``1–90 days past
        due`` qualifies its rows too.
        """
        found: dict[int, str] = {}
        measures = self._measure_header_levels()
        apart = self._header_lines_telling_columns_apart()
        for c in skipped:
            headers = self.shape.col_headers[c]
            periods = any(n.period for n in header_names[c])
            # a date the glossary's calendar does not close, read as the year it writes, is the period, no kind
            kind_lines = [i for i, h in enumerate(headers) if h and h != self.over_table and i not in measures
                          and not (periods and is_stated_period(h))]
            if not any(self.name(headers[i]).unknown for i in kind_lines):
                continue
            # the whole of the kind's lines: "Fair" over "Value" is "Fair Value", though "Value" alone names nothing
            levels = [i for i in kind_lines if self.name(headers[i]).unknown
                      or (i in apart and self._ends_a_kind(headers, i, measures))]
            unknown = [headers[i] for i in levels]
            if not unknown or not (periods or dated) or (len(set(unknown)) > 1 and not self._one_phrase(levels)):
                continue
            # a kind set on two header rows ("Revised Preliminary" over "Allocation") is one kind, read as one text
            text = " ".join(dict.fromkeys(unknown))
            # a long header is a title, not a kind of figure; its unit note ("(in thousand NT dollars)") not counted
            if (NOT_ACTUAL.search(normalize_text(_PERCENT_UNIT.sub("", text.strip()))) or open_metric_code(text) is None
                    or another_period_heading(text)
                    or len(_UNIT_NOTE.sub(" ", text).strip()) > 40
                    or (_PERIOD_PART_WORDS if undated else _PART_OF_PERIOD).search(self._kind_words(text, undated))):
                continue  # "Q1", "First Quarter", "2019 vs 2018": a part of a period, never a kind of figure
            # the kind of figure without its unit note: the unit is read from the header, and a unit's words
            # ("thousand") in a label would read as a number no fact states
            found[c] = _UNIT_NOTE.sub(lambda note: "" if units_in(note.group(), self.currency) else note.group(),
                                      text).strip()
        # "% of Total" beside "Net Sales" under one year: the row's stated share of that kind's whole
        self.share_cols = stated_share_columns({c: self.shape.col_headers[c] for c in skipped}, found)
        return found | {c: kind for c, (kind, _) in self.share_cols.items()}

    def _title_period(self) -> Period | None:
        """The one fiscal year an annual report's title names (``…2024年年度报告（摘录）``) or the one quarter
        a title names, else None.

        Read last, after the headings, caption and the sentence before the table: the period a
        report is of is the period of its tables that state none. A half-year or interim report's
        title names the year its part is of, never the year's figures.
        """
        year = annual_report_year(self.context.doc_title, self.glossary)
        if year is not None:
            return year
        stated = _context_period(self.glossary, [self.context.doc_title])
        return stated if isinstance(stated, Period) and stated.period_type == "Q" else None

    def _one_phrase(self, levels: Sequence[int]) -> bool:
        """Whether the texts of these header rows go together in every value column: one phrase set on lines.

        ``Revised Preliminary`` is always over ``Allocation``: one kind broken over two rows, as is
        ``Unrealized`` over ``Gains`` and over ``Losses``. ``Cost`` under ``Men`` in one column and
        under ``Women`` in another is two kinds crossed, and which is the figure's is not certain.
        """
        written = {tuple(headers[i] if i < len(headers) else "" for i in levels)
                   for headers in self.shape.col_headers.values()}
        # a line is crossed only where one of its texts sits under two texts of a line above; a line the same
        # over every column ("Ground" over "Leases" beside "Building" over "Leases") ends each kind, crossing none
        same = {lower for lower in range(len(levels)) if len({texts[lower] for texts in written}) == 1}
        return all(len({texts[upper] for texts in written if texts[lower] == text}) == 1
                   for lower in range(len(levels)) if lower not in same for upper in range(lower)
                   for text in {texts[lower] for texts in written})

    def _header_lines_telling_columns_apart(self) -> set[int]:
        """Header lines whose texts differ between the value columns (``Cost | Gains | Losses | Value``).

        A line the same over every column (``£m``, ``Actual``) says nothing of which kind a column is.
        """
        heads = list(self.shape.col_headers.values())
        return {i for i in range(min((len(h) for h in heads), default=0)) if len({h[i] for h in heads}) > 1}

    def _ends_a_kind(self, headers: Sequence[str], i: int, measures: set[int]) -> bool:
        """Whether header line ``i`` is a plain word finishing the kind a line above it begins (``Value`` under
        ``Fair``): it names nothing alone, and is no unit note, date or heading over periods (``Period (1/1/19)``,
        ``(in thousands)``, ``Payments due by period`` over ``1 to 3 years``).
        """
        header = headers[i]
        return (all(word.isalpha() for word in header.split()) and self.name(header) == NOTHING
                and not units_in(header, self.currency)
                and any(self.name(h).unknown for k, h in enumerate(headers[:i]) if h and k not in measures))

    def _label_column_period(self) -> Period | None:
        """The one period a header row writes over the label column (``2019 | £m | £m``), when no column names one.

        Set in the corner over the row labels, the year heads the whole table as a caption would.
        """
        found = {p for h in self.shape.header_rows for k in range(self.shape.label_cols)
                 if (p := self.name(clean_label(self.rows[h][k])).period) is not None}
        return found.pop() if len(found) == 1 else None

    def _spanning_period(self) -> tuple[Period, str] | None:
        """The one fiscal year a header row writes in its one cell over the value columns, and that cell's text.

        ``Common Stock Price Range 2018`` centred over ``Low | High`` (a converter keeps it in one
        cell, so it reaches no column left of its own) dates the whole table as a caption would, and
        no column apart.
        """
        if len(self.shape.col_headers) < 2:
            return None
        found: dict[Period, str] = {}
        for h in self.shape.header_rows:
            written = [cell for cell in self.rows[h][self.shape.label_cols:] if cell.strip()]
            # a date over it is the undated reading's; a part of the year is no year's figure
            if len(written) == 1 and _YEAR_ALONE.fullmatch(written[0]) and not _YEAR_PART_WORDS.search(written[0]):
                found |= {m.period: clean_label(written[0]) for m in self.glossary.scan(written[0])
                          if m.kind is SlotKind.PERIOD and m.period is not None}
        if len(found) != 1:
            return None
        year, text = found.popitem()
        return (year, text) if year.period_type == "FY" else None

    def _measure_header_levels(self) -> set[int]:
        """Header rows writing one measure word over every value column (``Years`` under ``Men | Women``).

        Such a row says what every figure counts, like a unit note, and tells no column apart:
        it is no kind of figure of its own, so the kind each column names above it is read.
        """
        heads = list(self.shape.col_headers.values())
        if len(heads) < 2:
            return set()
        alike = {i for i in range(len(heads[0]))
                 if len({h[i] for h in heads}) == 1 and _MEASURE_WORD.fullmatch(heads[0][i].strip())}
        # "Number of Restaurants" in one cell of the top row: merged over the columns, what each of them counts
        written = [h[0] for h in heads if h and h[0].strip()]
        counted = len(written) == 1 and _COUNT_HEADING.fullmatch(normalize_text(written[0]).strip()) is not None
        return alike | ({0} if counted else set())

    @staticmethod
    def _kind_words(text: str, undated: bool) -> str:
        """A header's words that may name a part of a period; an undated schedule's due span ("1-3 years") is none.

        A balance at the period's start or end ("Balance at End of Period") is a point of the period the
        table states, a kind of figure, not a part of a period.
        """
        norm = _PERIOD_BOUNDARY.sub(" ", normalize_text(text))
        return without_due_buckets(norm) if undated else norm

    def _qualified_metric(self, header: str, labels: Sequence[str], names: Sequence[Named], r: int,
                          c: int) -> str | None:
        """The open metric of a row's label under a column naming its kind; None for a glossary row (two metrics).

        A bare ``Total`` row of line items is the total of the column's kind ("Total net sales").
        """
        if c in self.share_cols and labels and is_bare_total(labels[-1]):
            return None  # the whole's share of itself
        if labels and is_bare_total(labels[-1]) and not any(n.metric for n in names) and self.line_items:
            if not self._sums_its_parts(r, [c]):
                return None
            # under a section heading row it is the section's total of the column's kind, not the whole column's
            section = self.headed_by.get(r, "").rstrip(":：").strip() if r in self.row_headed else ""
            if section:
                self.row_written[r] = (*labels[:-1], f"{section}: {labels[-1].strip().rstrip(':：')}")
            return open_metric_code(f"{header}: {total_of(section, labels[-1])}" if section
                                    else total_of(header, labels[-1]))
        metrics = [(label, n.metric) for label, n in zip(labels, names, strict=True) if n.metric]
        if len(metrics) == 1 and c in self.change_cols:
            # a change between two years, or a figure of a date inside a year, is none of the glossary's periods'
            # figures, even of a row it reads ("Revenue"): named by the row's own words with the column's
            return open_metric_code(f"{header}: {clean_label(metrics[0][0])}")
        if len(metrics) != 1 or not is_open_code(metrics[0][1] or ""):
            return None
        if c in self.dated_by_kind:
            # the same date heads another kind of figure of these rows (their balance): the kind is a word of
            # the row's own name, so a question naming the row alone is never answered with the kind's figure
            section, colon, item = metrics[0][0].rpartition(": ")
            return open_metric_code(f"{section}{colon}{header} of {item}")
        if c in self.share_cols:
            return open_metric_code(stated_share_label(f"{header}: {metrics[0][0]}", self.share_cols[c][1]))
        return open_metric_code(f"{header}: {metrics[0][0]}")

    def _glossary_kind_of_open_row(self, c: int, labels: Sequence[str], names: Sequence[Named],
                                   column: Sequence[Named]) -> str | None:
        """A row of the document's own words under a column the glossary reads as a metric, as that kind of the row.

        "Teekay LNG" under "Revenues" beside "Income from vessel operations": each column states its kind of
        figure for the row, a segment's revenues here, as a column the glossary does not read does
        (``revenues: teekay lng``). Read as the glossary's metric the cell would name two metrics, and it
        would be no figure of the company's own revenue anyway. Only where the row names one open metric and
        nothing else, and exactly one header line of the column names the glossary metric and no other slot.
        """
        metrics = [(label, n.metric) for label, n in zip(labels, names, strict=True) if n.metric]
        if len(metrics) != 1 or not is_open_code(metrics[0][1] or "") or any(n.entity or n.channel for n in names):
            return None
        glossary_metrics = {n.metric for n in column if n.metric}
        if len(glossary_metrics) != 1 or any(is_open_code(m or "") for m in glossary_metrics):
            return None
        heads = [clean_label(h) for h in self.shape.col_headers[c] if h and self.name(clean_label(h)).metric]
        if len(heads) != 1 or (named := self.name(heads[0])).entity or named.channel or named.period:
            return None
        return open_metric_code(f"{heads[0]}: {clean_label(metrics[0][0])}")

    def _qualified_by_sections(self) -> dict[int, tuple[str, ...]]:
        """Row labels the glossary does not read, each qualified by the heading it sits under.

        A section heading is a row with a label and no value ("Net sales:", "Current income tax
        expense (benefit):"); a heading over the label column ("Revenue from external customers
        by country", "OPERATING REVENUES") heads every row until the first section. A row the
        glossary cannot read is a line item of its heading: "Malaysia" under "Net sales:" is
        ``Net sales: Malaysia``, "Federal" under "Deferred income tax expense:" is ``Deferred
        income tax expense: Federal`` (a question may still name the row by its own words, see
        ``qa/label_words.py``). A row without a label closing a section is that section's total where
        it sums the section's rows (``_unlabelled_total_of``).
        Rows the glossary reads keep their code, except under a heading of changes: "Accounts
        payable" under a cash-flow statement's "Changes in operating assets and liabilities:"
        is a change, never the balance, so every row there is qualified until a net or total row.
        """
        shape = self.shape
        last = shape.label_cols - 1
        qualified = dict(shape.row_labels)
        section, heading_row = self._label_column_heading(), -1
        # a heading set as a row of its own over the body, its value cells blank, heads its rows as a section does
        last_header = self.rows[shape.header_rows[-1]] if shape.header_rows else []
        own_row = bool(section and last_header) and not any(cell.strip() for cell in last_header[shape.label_cols:])
        written = self._label_column_heading_written() if section else ""  # the heading with its unit note
        row_period = self._period_row_over_body()
        stated_rows = self._stated_year_rows()
        date_written = ""
        line_items = self.line_items = self._rows_are_line_items()
        repeated_headers = False
        parts: list[int] = []  # the rows since the last heading, period row or total: what a bare total sums
        items: list[int] = []  # every line item since the last period row or grand total, subtotals aside
        headings = [section] if section else []  # the sections' headings over ``items``: what a grand total is of
        for r, row in enumerate(self.rows):
            labels = shape.row_labels.get(r)
            if labels is None:
                text = clean_label(row[last])
                if r in stated_rows:  # "June 30, 2019" over its block, among the header rows too
                    row_period, date_written, section, heading_row, parts = stated_rows[r], text, "", -1, []
                    items, headings = [], []
                    continue
                # a heading between a date row and the body heads the body's rows, though it stands among the headers
                if (text and (r not in shape.header_rows or date_written)
                        and all(not cell.strip() for cell in row[shape.label_cols:])):
                    dated = self.name(text).period
                    parts = []
                    if dated is not None:  # "December 31, 2019" over the rows it dates: a period, not a section
                        row_period, section, heading_row, items, headings = dated, "", -1, [], []
                        continue
                    if names_a_data_block(text):  # "Balance Sheet Data:": a statement's rows follow, unqualified
                        section, heading_row = "", -1
                        continue
                    # a heading set on two lines ("… used in" over "earnings per share ($M)") is one heading
                    joined = heading_row == r - 1 and text[:1].islower()
                    section = f"{section} {text}".rstrip(":：").strip() if joined else text.rstrip(":：").strip()
                    headings = [*headings[:-1], section] if joined else [*headings, section]
                    written = f"{written} {text}" if joined else text
                    heading_row = r
                continue
            if row_period is not None:
                self.row_periods[r] = row_period
                if date_written:
                    self.row_dates_written[r] = date_written
            if section:
                self.headed_by[r] = written
                if heading_row >= 0 or own_row:
                    self.row_headed.add(r)
            label = labels[last]
            if not any(labels):
                if not any(read_cell(cell) for cell in row[shape.label_cols:]):
                    # headers set again inside the body ("As of December 31, 2018" over a second block): the rows
                    # below are read under the first headers, so a bare total there is given no subject
                    repeated_headers = True
                if section:
                    subject = self._unlabelled_total_of(section, r, parts)
                    if subject == "subtotal":  # the section goes on below it: the subtotal stands for its rows
                        parts = [r]
                        continue
                    if subject:
                        qualified[r] = (*labels[:last], section)
                    section, parts = "", []  # a total closes its section, proved or not
                elif (line_items and not repeated_headers and parts and r == len(self.rows) - 1
                      and states_the_sum(self.rows, r, parts, self._read_columns()) and (topic := self._topic())):
                    # the last row, unlabelled, summing every row above it: the grand total of what the table lists
                    qualified[r] = (*labels[:last], total_of(topic, "Total"))
                continue
            if is_bare_total(label) and line_items:
                self.total_parts[r] = () if repeated_headers else tuple(parts)
                # "Total" under "Net sales:" is total net sales (its locator keeps "Net sales: Total"), where it is
                # the sum of the section's rows: without indentation a grand total reads as the last section's
                if section and self._caption_over_table(r, section, items, parts, headings):
                    section = ""  # "Assets" over the deferred costs a lead names: the table's total, not all assets
                if section and self._sums_its_parts(r, self._read_columns()):
                    qualified[r] = (*labels[:last], total_of(section, label))
                    self.row_written[r] = (*labels[:last], f"{section}: {label.strip().rstrip(':：')}")
                # the table's grand total; a PDF page's table is given no sentence before it, so its heading may
                # stand paragraphs above, over other tables: it names nothing there
                elif not section and self._sums_its_parts(r, self._read_columns()) and (topic := self._topic()):
                    qualified[r], self.row_written[r] = (*labels[:last], total_of(topic, label)), labels
                elif not repeated_headers and items != parts and (subject := self._grand_total_of(r, items, headings)):
                    qualified[r], self.row_written[r] = (*labels[:last], total_of(subject, label)), labels
                    items, headings = [], []
                section, parts = "", []
                continue
            elif section and _CHANGES_SECTION.search(section):
                if _SECTION_END.match(label):
                    section = ""  # "Net cash provided by operating activities" closes the changes
                else:
                    qualified[r] = (*labels[:last], f"{section}: {label}")
            elif section and _words_within(label, section):
                section = ""  # "Income tax expense (benefit)" after "Deferred income tax expense (benefit):"
            elif (section and self.name(label).unknown and not _words_within(section, label)
                  and open_metric_code(f"{section}: {label}") is not None):  # a heading too long keeps the row's own
                qualified[r] = (*labels[:last], f"{section}: {label}")
                if _TOTAL.match(label):
                    section = ""  # a total closes its section
            parts = [] if _TOTAL.match(label) else [*parts, r]
            items = items if _TOTAL.match(label) else [*items, r]
        self._rows_of_share_sections(qualified)
        return self._cash_flow_components(qualified)

    def _stated_year_rows(self) -> dict[int, Period]:
        """Rows of their own writing a date the glossary's calendar does not close, each dating the block below it.

        "June 30, 2019" over one block and "June 30, 2018" over the next (a December glossary): each
        is the year it writes, by the rules columns so dated follow (``table_stated_years``: two or
        more, one year each, the same time of year, a January or February year as written unless the text
        around names such years by their start); the first may stand
        among the header rows. Only where no header names a period and no such row is read the
        glossary's way: the two readings never mix.
        """
        shape = self.shape
        last = shape.label_cols - 1
        written: dict[int, list[str]] = {}
        for r, row in enumerate(self.rows):
            text = clean_label(row[last])
            if r in shape.row_labels or not text or any(cell.strip() for cell in row[shape.label_cols:]):
                continue
            if self.name(text).period is not None:
                return {}
            if is_stated_period(text):
                written[r] = [text]
        if any(self.name(h).period for headers in shape.col_headers.values() for h in headers):
            return {}
        return stated_years(written, self.glossary.fiscal_calendar, self._text_around())

    def _rows_of_share_sections(self, qualified: dict[int, tuple[str, ...]]) -> None:
        """Rows under a heading of share counts that keep a label of another figure: left unread.

        "Basic earnings per share" under "Weighted average number of shares used in earnings per
        share (shares, millions)" is the number of shares basic EPS divides by, not the EPS: where
        the heading is too long to qualify the row, its own label would name the wrong figure. Where
        it qualifies the row ("Weighted average shares (millions): Basic earnings per share") the label
        still names the per-share figure, so a question asking basic EPS would be answered with the
        count: a row whose own label names a per-share figure and no count of shares is left unread
        too, where it comes before any plain count of the section ("Basic") and its cells write no
        money. Without indentation a section of counts runs on unclosed: "Net income per basic share"
        after the counts "Basic" and "Diluted", or written "$3.57", is the per-share figure. A row
        stating its own unit ("… (cents per share)") says what it is, whatever heads it.
        """
        counted = False  # a plain count given under the heading: the per-share rows after it are their figures
        previous: tuple[str, int] | None = None
        for r, heading in sorted(self.headed_by.items()):
            if previous is None or previous != (heading, r - 1):
                counted = False
            previous = (heading, r)
            own = self.own_labels.get(r, ("",))[-1]
            per_share = bool(_PER_SHARE.search(own))
            before_counts, counted = not counted, counted or not per_share
            if not _SHARE_COUNT.search(heading) or r not in qualified:
                continue
            label = qualified[r][-1]
            states_its_unit = bool(_SUBUNIT.search(own) or units_in(own, self.currency))  # "(cents per share)"
            if not label or states_its_unit or _SHARE_COUNT.search(own):
                continue
            if heading.rstrip(":：").strip() not in label and not _SHARE_COUNT.search(label):
                self.unread_rows[r] = f"under {heading!r}, a count of shares its label does not name"
            elif per_share and before_counts and not currency_signs(self.rows[r][self.shape.label_cols:]):
                self.unread_rows[r] = f"under {heading!r}, a count of shares its label names as a per-share figure"

    def _topic(self) -> str:
        """What the table lists, as the text around it names it (``table_topic``), else "".

        A PDF page's table is given no sentence before it, so its heading may stand paragraphs
        above, over other tables: it names nothing there. A lead set after the table is read last.
        """
        context = self.context
        headings = context.headings if self.block.kind is BlockKind.TABLE and not context.follows_table else ()
        return table_topic(context.lead, context.caption, headings) or topic_after(context.text_after)

    def _unlabelled_total_of(self, section: str, r: int, parts: Sequence[int]) -> str:
        """What unlabelled row ``r`` under ``section`` is: its total (the section), a subtotal, or "" (unproved).

        A row without a label is the section's total only where its figures are the sum of the
        section's rows in every read column, and no later unlabelled row sums it with the rows
        after it: "3,635" under "Current" summing receivables and their allowance, before other
        receivables and "19,738", is a subtotal, never the current total. Either way but the
        total, the row gives no fact under the section's name, with a warning saying why.
        """
        columns = self._read_columns()
        if not any(read_cell(self.rows[r][c]) for c in columns):
            return ""  # headers set again, or a blank row: no figure to file
        text = " / ".join(self.rows[r][c].strip() for c in columns)
        if not parts or not states_the_sum(self.rows, r, parts, columns):
            self.warn(f"unlabelled row ({text}) under {section!r}: not the sum of the section's rows; row skipped")
            return ""
        following: list[int] = []
        for below in range(r + 1, len(self.rows)):
            labels = self.shape.row_labels.get(below)
            if labels is None or (any(labels) and is_bare_total(labels[-1])):
                break  # a heading or a total ends the section
            if not any(labels):
                if following and states_the_sum(self.rows, below, [r, *following], columns):
                    self.warn(f"unlabelled row ({text}) under {section!r}: a subtotal of part of the section, "
                              "not its total; row skipped")
                    return "subtotal"
                break
            following.append(below)
        return section

    def _caption_over_table(self, r: int, section: str, items: Sequence[int], parts: Sequence[int],
                            headings: Sequence[str]) -> bool:
        """Whether ``section``, the one heading over every row down to bare total row ``r``, the table's last, is a
        caption saying where its rows stand rather than what they are.

        A sentence leading into the table that names what it lists without the heading's words says so: under
        "The balances of deferred contract costs … were as follows:", "Assets" over "Other assets" and "Total"
        says the costs are carried as assets, and the total is the costs', never total assets. A lead naming
        the heading's words ("Revenue by type" over "Revenue:") leaves the heading the rows' subject, and so
        does a title alone: it may name the statement the heading is a part of ("連結貸借対照表" over "流動負債").
        """
        if len(headings) != 1 or list(items) != list(parts) or r != max(self.shape.row_labels):
            return False
        context = self.context
        topic = lead_topic(context.lead, context.caption) or topic_after(context.text_after)
        return bool(topic) and not _words_within(section, topic)

    def _grand_total_of(self, r: int, items: Sequence[int], headings: Sequence[str]) -> str:
        """What bare total row ``r`` totals when it states the sum of every line item above it (``items``), its
        sections' subtotals aside: the words its sections' headings begin with, else the table's topic, else the
        words they end with; "" if none names it or its figures are not that sum (``table_grand_totals``)."""
        if not items or not states_the_sum(self.rows, r, items, self._read_columns()):
            return ""
        return shared_start(headings) or self._topic() or shared_end(headings)

    def _read_columns(self) -> list[int]:
        """The value columns whose every header the glossary reads (a change or share column is not summed)."""
        return [c for c, names in self._header_names().items() if not any(n.unknown for n in names)]

    def _sums_its_parts(self, r: int, columns: Sequence[int]) -> bool:
        """Whether bare total row ``r`` states the sum of the rows above it, back to a heading or total."""
        return states_the_sum(self.rows, r, self.total_parts.get(r, ()), columns)

    def _rows_are_line_items(self) -> bool:
        """Whether no row names a glossary entity or channel: a bare ``Total`` then totals line items.

        Under rows of channels (``Online | Stores | Total``) or entities the total is the glossary's
        channel or the group, read as before; under line items it is the total of their subject.
        """
        for labels in self.shape.row_labels.values():
            for label in labels:
                if label and not is_bare_total(label):
                    named = self.name(label)
                    if named.entity or named.channel:
                        return False
        return True

    def _period_row_over_body(self) -> Period | None:
        """The period a header row over the body states alone in its label column ("December 31, 2019").

        Headings of the body's rows may stand between it and the body ("December 31, 2019" over
        "Finite-lived intangible assets" over the first block's line items): the date still heads
        the rows below them, as the same date set again over a later block heads that block's.
        """
        shape = self.shape
        if not shape.header_rows or not shape.body_rows or shape.header_rows[-1] != shape.body_rows[0] - 1:
            return None
        for h in reversed(shape.header_rows):
            row = self.rows[h]
            if any(cell.strip() for cell in row[shape.label_cols:]):
                return None  # the columns' own headers: a date above them is the table's, read as before
            if (period := self.name(clean_label(row[shape.label_cols - 1])).period) is not None:
                return period
        return None

    def _cash_flow_components(self, labels: dict[int, tuple[str, ...]]) -> dict[int, tuple[str, ...]]:
        """Balance items in a table with an operating cash-flow total are its components, never the balances.

        A cash-flow summary without a "changes in" heading (``Accounts receivable (313)`` above
        ``Net cash provided by operating activities``) states the change in receivables: the row
        is read as ``Net cash provided by operating activities: Accounts receivable``. So does a
        statement's closing schedule of those changes below the total (a PDF table's grid keeps no
        heading row of its own to say so): a cash-flow statement states no balance but cash's.
        """
        last = self.shape.label_cols - 1
        total = next((r for r in sorted(labels) if _OPERATING_CASH.search(labels[r][last])), None)
        if total is None:
            return labels
        head = labels[total][last]
        qualified = dict(labels)
        for r in sorted(labels):
            label = labels[r][last]
            if _BALANCE_ITEM.search(label) and ": " not in label:
                qualified[r] = (*labels[r][:last], f"{head}: {label}")
        return qualified

    def _label_column_heading_written(self) -> str:
        """The label column's heading as written, its unit note kept; one set on two lines is one heading.

        ``Profit … used in`` over ``earnings per share ($M)``: a lower line starting in lower case
        goes on with the line above it, as a section heading set on two lines does in the body.
        """
        last = self.shape.label_cols - 1
        texts = [t for t in (clean_label(self.rows[h][last]) for h in self.shape.header_rows) if t]
        if not texts:
            return ""
        if len(texts) > 1 and texts[-1][:1].islower():
            return f"{texts[-2]} {texts[-1]}"
        return texts[-1]

    def _label_column_heading(self) -> str:
        """The text over the label column naming what its rows are parts of ("Net sales", "OPERATING REVENUES"), or "".

        Unit notes, generic words, period headings, dates and headers naming other kinds of
        labels ("Segment", "Country") head nothing.
        """
        # "单位：元 币种：人民币 项目": a PDF reader joins the unit line over the table to the corner's header word
        text = _UNIT_STATEMENT.sub(" ", self._label_column_heading_written()).strip()
        if (not text or re.search(r"\d", text) or not _line_item_header(self.glossary, text)
                or names_a_data_block(text) or _SCOPE_HEADING.fullmatch(text)):
            return ""
        if names_a_period(text) and column_dates(self.shape.col_headers):
            return ""  # "Quarters Ended" beside "July 27, 2019 | April 27, 2019": what the dates end, over no rows
        named = self.name(text)
        if named.unknown or named.metric:
            return (_UNIT_NOTE.sub(" ", text) if units_in(text) else text).strip(" :：")
        return ""

    def _line_item_columns(self) -> set[int]:
        """The label columns whose headers allow line items (every one but those naming other things)."""
        allowed = set()
        for k in range(self.shape.label_cols):
            texts = [clean_label(self.rows[h][k]) for h in self.shape.header_rows]
            if all(_line_item_header(self.glossary, text) for text in texts):
                allowed.add(k)
        return allowed

    def block_caption(self) -> list[str]:
        return [self.context.caption, *self._title_rows()]

    def _text_around(self) -> list[str]:
        """The text around the table that may say how its document names its years."""
        context = self.context
        return [*context.headings, context.caption, context.lead, context.text_after, context.doc_title]

    def _title_rows(self) -> list[str]:
        """Header rows that span every value column with one text the glossary does not read (a title)."""
        titles = []
        for i, h in enumerate(self.shape.header_rows):
            texts = {headers[i] for headers in self.shape.col_headers.values()}
            if len(texts) == 1 and len(self.shape.col_headers) > 1:
                text = texts.pop()
                if (text and self.name(text).unknown and not _BROKEN_OFF.search(text)
                        and not another_period_heading(text)):
                    titles.append(text)
            elif i < len(self.shape.header_rows) - 1:  # one merged text written in a middle column
                written = {clean_label(self.rows[h][c]) for c in self.shape.col_headers} - {""}
                text = written.pop() if len(written) == 1 else ""
                if (len(text.split()) >= 2 and self.name(text).unknown and not _BROKEN_OFF.search(text)
                        and not NOT_ACTUAL.search(_NAMED_PLANS.sub(" ", normalize_text(text)))):
                    titles.append(text)
        return titles

    def _header_names(self) -> dict[int, list[Named]]:
        titles = set(self._title_rows()) | {self.over_table}
        names: dict[int, list[Named]] = {}
        for c, headers in self.shape.col_headers.items():
            names[c] = [self.name(h) for h in headers if h not in titles]
            centred = [p for h in self._centred_period_headings(c, dates=True) if (p := self.name(h).period)]
            if not any(n.period for n in names[c]) and len(set(centred)) == 1:
                # "As of December 31, 2019" centred over "Amortized Cost" and the kinds right of it: it dates this
                # column as it dates theirs, and the column's own headers still name its kind
                names[c] = [Named(period=centred[0]), *names[c]]
            if not any(n.period for n in names[c]) and not any(_OPENING.search(normalize_text(h)) for h in headers):
                # "Fiscal Year Ended" over "April 27, 2019", or beside it in the label column of its row (a
                # balance at the beginning of the year is the year before's: it is not dated so)
                around = (*self._row_headings(), *self._spanning_period_headings(),
                          *self._centred_period_headings(c), *headers)
                joined = self.name(" ".join(dict.fromkeys(h for h in around if h)))
                if joined.period is not None:
                    names[c] = [Named(period=joined.period) if n.unknown or n == Named() else n for n in names[c]]
        names = self._stacked_quarters(names, titles)
        if not any(n.period for column in names.values() for n in column):
            written = {c: [h for h in headers if h not in titles] for c, headers in self.shape.col_headers.items()}
            # headers naming nothing (a unit note) tell no kind of figure apart
            kinds = {c: [h for h, n in zip(texts, names[c], strict=True) if n != Named()]
                     for c, texts in written.items()}
            stated = stated_years(written, self.glossary.fiscal_calendar, self._text_around(), kinds)
            if len(set(stated.values())) < len(stated):  # a year written over two kinds' columns
                self.dated_by_kind = set(stated)
            self.named_by_report = {c for c in stated if year_ends_named_by_end(written[c], self._text_around())}
            for c, period in stated.items():
                names[c] = [Named(period=period) if is_stated_period(h) else n for h, n in zip(written[c], names[c],
                                                                                             strict=True)]
        return self._years_beside_parts_of_years(names)

    def _years_beside_parts_of_years(self, names: dict[int, list[Named]]) -> dict[int, list[Named]]:
        """No fiscal year for a bare year beside columns of parts of years (``12 Weeks Ended`` over the others).

        A quarterly table heads its quarters once, merged over several columns: the column the
        heading's text does not sit over is a quarter too, its ``2019`` no fiscal year's figure.
        Columns whose own headers say a whole year (``Year Ended``, ``Fiscal Year``) keep theirs.
        """
        headers = [h for c in self.shape.col_headers for h in self.shape.col_headers[c]]
        headers += [clean_label(self.rows[h][k]) for h in self.shape.header_rows for k in range(self.shape.label_cols)]
        if not any(names_part_of_year(h) for h in headers if h):
            return names
        return {c: [UNKNOWN if n.period and not any(_WHOLE_YEAR.search(normalize_text(h))
                                                    for h in self.shape.col_headers[c]) else n for n in column]
                for c, column in names.items()}

    def _stacked_quarters(self, names: dict[int, list[Named]], titles: set[str]) -> dict[int, list[Named]]:
        """Columns of ``First`` … ``Fourth`` over ``Quarter`` under the one fiscal year over them (``table_quarters``).

        The last quarter's ordinal, filled rightwards as a merged header, is no header of the
        ``Total`` column beside it. Not where headers are set again inside the body (a second
        year's block below the first): its rows would be read under the first year's quarters.
        """
        year = self._year_over_columns()
        if year is None:  # the year's row read as the caption (a row of one cell over a sheet's table)
            # "2024年分季度主要财务数据": a caption of a table by quarter still names the quarters' year
            stated = _context_period(self.glossary, [without_by_quarter(t) for t in
                                                     (self.context.caption, *reversed(self.context.headings))])
            if not isinstance(stated, Period):  # the sentence before the table ("2025年3月期 セグメント別売上高")
                stated = _context_period(self.glossary, [without_by_quarter(self.context.lead)])
            year = stated if isinstance(stated, Period) and stated.period_type == "FY" else None
        if year is None and not self._headers_repeated_in_body():
            return self._quarters_under_their_years(names)
        if year is None or self._headers_repeated_in_body():
            return names
        read = dict(names)
        # "First" over "Quarter", or a quarter written whole (Q2, 第2四半期) under the year over the table: its
        # own header row, caption or sheet title, a heading's only for the first table under it
        near = [without_by_quarter(t) for t in (self.context.caption, self.context.lead,
                *(() if self.context.follows_table else reversed(self.context.headings)))]
        whole = self._year_over_columns() is not None or isinstance(_context_period(self.glossary, near), Period)
        end_month = self.glossary.fiscal_calendar.end_month
        quarters = {c: stacked_quarter(headers) or (bare_quarter(headers[-1], end_month) if headers and whole else None)
                    for c, headers in self.shape.col_headers.items()}
        if not any(quarters.values()):
            return names
        for c, headers in self.shape.col_headers.items():
            quarter = quarters[c]
            if quarter is None and len(headers) == len(self.shape.header_rows):
                read[c] = [NOTHING if is_ordinal(h) and not self.rows[row][c].strip() else self.name(h)
                           for h, row in zip(headers, self.shape.header_rows, strict=True) if h not in titles]
                if _TOTAL.fullmatch(headers[-1].strip()) and not any(n.period for n in read[c]):
                    read[c].append(Named(period=year))  # the year's total, the year stated over the table
                continue
            period = self.glossary.normalize_period(f"{year.period}Q{quarter}") if quarter else None
            if period is not None:
                read[c] = [Named(period=period) if n.unknown or n == Named() or n.period == year else n
                           for n in names[c]]
        return read

    def _quarters_under_their_years(self, names: dict[int, list[Named]]) -> dict[int, list[Named]]:
        """Blocks of quarters each under its own fiscal year (``FY2025`` merged over ``Q1 … Q4``, then ``FY2024``
        over its own): each column is that quarter of the year over it. Only where every value column is one."""
        end_month = self.glossary.fiscal_calendar.end_month
        read = {}
        for c, headers in self.shape.col_headers.items():
            quarter = bare_quarter(headers[-1], end_month) if len(headers) >= 2 else None
            years = {n.period for h in headers[:-1] if (n := self.name(h)).period is not None}
            year = years.pop() if len(years) == 1 else None
            if quarter is None or year is None or year.period_type != "FY":
                return names
            period = self.glossary.normalize_period(f"{year.period}Q{quarter}")
            if period is None:
                return names
            read[c] = [Named(period=period) if n.unknown or n == Named() or n.period == year else n
                       for n in names[c]]
        return read

    def _year_over_columns(self) -> Period | None:
        """The fiscal year one header row states in its only written cell (merged over the columns, so centred),
        or in every cell alike (a spreadsheet's merged cell, which the reader fills across the columns it spans)."""
        found = set()
        for h in self.shape.header_rows:
            written = list(dict.fromkeys(clean_label(cell) for cell in self.rows[h][self.shape.label_cols:]
                                         if cell.strip()))
            period = self.name(written[0]).period if len(written) == 1 else None
            if period is not None and period.period_type == "FY":
                found.add(period)
        return found.pop() if len(found) == 1 else None

    def _headers_repeated_in_body(self) -> bool:
        """Whether a body row without labels or figures writes text over the value columns (headers set again)."""
        for r in self.shape.body_rows:
            cells = self.rows[r][self.shape.label_cols:]
            if (not any(self.shape.row_labels.get(r, ("x",))) and not any(read_cell(c) for c in cells)
                    and any(c.strip() for c in cells)):
                return True
        return False

    def _spanning_period_headings(self) -> list[str]:
        """Period headings written alone in one cell of a header row ("Years Ended" centred over three dates).

        Such a heading was merged across the columns; filled rightwards it would reach only the
        columns from its cell on, so it heads every value column.
        """
        found = []
        for h in self.shape.header_rows:
            written = [clean_label(cell) for cell in self.rows[h][self.shape.label_cols:] if cell.strip()]
            if len(written) == 1 and self.name(written[0]) is PERIOD_HEADING:
                found.append(written[0])
        return found

    def _centred_period_headings(self, c: int, *, dates: bool = False) -> list[str]:
        """Period headings centred over column ``c`` from the right ("Years Ended" over the 2nd of three dates).

        A merged heading is written in its middle cell and filled rightwards; the columns left of
        a row's first written cell got nothing from it. When that first cell is a period heading
        with at least as many blank cells on its right (before the next heading) as on its left,
        it is centred over them all and heads the left ones too; a heading with fewer blank cells
        on its right than on its left ("Years Ended" right beside "2019 vs. 2018") heads only its own.
        With ``dates``, the headings so centred that name a period themselves ("As of December 31, 2019").
        """
        found = []
        for h in self.shape.header_rows:
            cells = self.rows[h]
            written = [k for k in range(self.shape.label_cols, len(cells)) if cells[k].strip()]
            if not written or c >= written[0]:
                continue
            first = written[0]
            right = (written[1] if len(written) > 1 else len(cells)) - first - 1
            named = self.name(clean_label(cells[first]))
            if first - self.shape.label_cols <= right and (
                    named.period is not None if dates else named is PERIOD_HEADING):
                found.append(clean_label(cells[first]))
        return found

    def _row_name(self, label: str) -> Named:
        """What a body row's label names: words of a period heading beside figures are a line item's own.

        "Balance at the beginning of the fiscal year" heads no periods: its row states figures.
        """
        named = self.name(label)
        if (named.unknown and splits_off_noncontrolling(self.shape.row_labels.values())
                and (owners := owners_share(clean_label(label), self._own_names()))):
            by_owners = self.name(owners)
            named = by_owners if by_owners.metric else named
        return UNKNOWN if named is PERIOD_HEADING else named

    def _own_names(self) -> list[str]:
        """The names of the company the table is about: the one its document states, else the home entity's."""
        assumed = self.context.assumed_entity
        if is_open_code(assumed):
            return [label_of(assumed)]
        home = self.glossary.terms[SlotKind.ENTITY].get(self.glossary.home_entity)
        return list(home.names.values()) if home is not None else []

    def _row_headings(self) -> list[str]:
        """Header rows' label-column words that head the periods of their row ("Fiscal Year ended | June 1, 2019")."""
        found = []
        for h in self.shape.header_rows:
            text = " ".join(clean_label(self.rows[h][k]) for k in range(self.shape.label_cols)).strip()
            if text and self.name(text) is PERIOD_HEADING:
                found.append(text)
        return found

    def _keep(self, fact: Fact, facts: dict[FactKey, Fact], dropped: set[FactKey]) -> None:
        """``fact`` into ``facts`` by its key; a second, different figure for a key drops both, with a warning."""
        kept = facts.get(fact.key)
        if kept is not None and kept.value != fact.value:
            self.warn(f"{fact.source_locator} and {kept.source_locator} give two figures for one fact; both dropped")
            dropped.add(fact.key)
        facts.setdefault(fact.key, fact)

    def _fact(self, r: int, c: int, cell: _Cell, fallback: _Cell, context_period: Period | None | str,
              table_units: list[str], declared: DeclaredUnits) -> Fact | None:
        glossary = self.glossary
        row_text = _joined((self.row_dates_written.get(r, ""), *self.row_written.get(r, self.shape.row_labels[r])))
        col_text = _joined(self.shape.col_headers[c])
        if self.block_title and self.block_title not in self.shape.col_headers[c]:
            col_text = f"{self.block_title}/{col_text}"  # two blocks' "First/Quarter" cells stay apart
        what = f"{row_text}/{col_text}"
        if cell.conflict:
            self.warn(f"{what}: {cell.conflict}; cell skipped")
            return None
        metric = cell.metric or fallback.metric
        entity = cell.entity or fallback.entity
        if entity is None:
            entity = self._stated_company()
        if entity is None and self.context.assumed_entity:
            entity = self.context.assumed_entity
            if not self.assumed and not is_open_code(entity):
                self.assumed = True
                self.warn(f"no entity stated in the table, its context or the document: assumed {entity}"
                          if entity == self.glossary.home_entity else
                          f"no entity stated in the table or its context: {entity}, the company its document states")
        channel = cell.channel or fallback.channel
        period = cell.period or (None if isinstance(context_period, str) else context_period)
        missing = [slot for slot, value in (("metric", metric), ("entity", entity), ("period", period))
                   if value in (None, _AMBIGUOUS)]
        if missing == ["metric"] and is_bare_total(self.shape.row_labels[r][-1]) and self.line_items:
            self.warn(f"row {row_text!r}: a total of no section, heading or column whose rows it sums; "
                      f"cell {col_text!r} skipped")
            return None
        if missing:
            self.warn(f"row {row_text!r}: no {missing[0]} the glossary recognises; cell {col_text!r} skipped")
            return None
        assert metric is not None and entity is not None and period is not None and not isinstance(period, str)
        channel = glossary.default_channel if channel in (None, _AMBIGUOUS) else channel
        number = read_cell(self.rows[r][c]) or (CellNumber(0, False) if r in self.nil_cells.get(c, ()) else None)
        if number is None:
            self.warn(f"{what}: {self.rows[r][c]!r} is not a number; cell skipped")
            return None
        if (r, c) in self.deducted:  # a balance sheet's liability in brackets: the layout deducts it, it is its size
            number = replace(number, value=abs(number.value))
        term = glossary.terms[SlotKind.METRIC].get(metric)
        expected = (term.unit or "") if term is not None else ""
        if (unit_dimension(expected) == "ratio" and not (number.percent or c in self._percent_columns())
                and self._states_amounts(r, table_units, declared)):
            # a note keeping percentages out of the money leaves which the row's figures are unsaid
            excepted = bool(self._excepted_words() & _PERCENT_WORDS)
            amount = None if excepted else margin_amount(glossary, metric, self.shape.row_labels[r][-1])
            if amount is None:
                self.warn(f"{what}: an amount, but {metric} is a ratio; cell skipped")
                return None
            metric, term = amount, glossary.terms[SlotKind.METRIC][amount]
            expected = term.unit or ""
        unit = self._unit(r, c, metric, expected, number.percent or c in self.percent_cols, table_units, declared)
        if unit is None:
            return None
        if self.money_unit_conflict and unit_dimension(unit) == "money":
            unit = ""  # the caption's currency and the cells' disagree: no money unit rather than a wrong one
        if term is None:  # a label of the document's own: the unit it states, whatever its dimension
            pass
        elif unit_dimension(unit) != unit_dimension(expected):
            self.warn(f"{what}: stated in {unit} but {metric} is kept in {expected}; not converted, cell skipped")
            return None
        ref = self.refs[r][c] if self.refs else ""
        cell_ref = f",cell={ref}" if ref else ""
        if c in self.named_by_report:
            col_text = f"{col_text} (fiscal {period.period})"  # the report's own name, said beside its date
        locator = f"{self.block.locator}{cell_ref},row={row_text},col={col_text}"
        if self.stated_date is not None and period.undated:
            locator = with_stated_date(locator, self.stated_date)
        entity_term = glossary.terms[SlotKind.ENTITY].get(entity)
        geography = (entity_term.geography or "") if entity_term is not None else ""
        return Fact(metric, entity, geography, channel,
                    period.period_type, period.period, number.value, unit, self.lineage.doc_id, locator,
                    source_file_hash=self.lineage.source_file_hash, extractor_version=self.lineage.extractor_version,
                    mapping_version=self.lineage.mapping_version, sensitivity=self.lineage.sensitivity)

    def _company_holding(self, entity: str) -> str | None:
        """The company, unknown to the glossary, whose name holds the glossary entity the context names.

        "日本航空の…" names Japan Airlines, not the entity aliased 日本: its figures go to the company. A name
        that is the entity's own, whole or with its legal form (``キリンホールディングス株式会社`` for the
        entity aliased キリンホールディングス), is that entity.
        """
        names = [self._named_company()]
        if is_open_code(self.context.assumed_entity):
            names.append(label_of(self.context.assumed_entity))
        for name in names:
            if not name or self._names_entity(name) == entity:
                continue
            if entity in {m.code for m in self.glossary.scan(name) if m.kind is SlotKind.ENTITY}:
                return open_entity_code(name)
        return None

    def _company_consolidated(self, entity: str, layers: Sequence[str]) -> str | None:
        """Another company whose results the text naming the home entity's word is about, else None.

        "楓光学株式会社の2025年3月期の連結業績": 連結 (consolidated), an alias of the home group, describes
        the named company's own consolidated figures; they are never the home group's.
        """
        if entity != self.glossary.home_entity:
            return None
        home = self.glossary.terms[SlotKind.ENTITY].get(entity)
        own = list(home.names.values()) if home is not None else []
        text = next((t for t in layers if t and _mentioned(self.glossary, SlotKind.ENTITY, [t]) == entity), "")
        own_spans = _home_names_in(self.glossary, text)
        match = next((m for m in COMPANY_NAME.finditer(text)
                      if not any(start <= m.start() < end for start, end in own_spans)), None)
        if match is None:
            return None  # no company's name, or only the home company's as the text writes it (みのり食品株式会社)
        name = match.group(0).strip()
        if any(same_company(name, o) for o in own) or self._names_entity(name):
            return None
        return open_entity_code(name)

    def _names_entity(self, name: str) -> str | None:
        """The glossary entity a company's whole name is, as written or without its legal form, else None."""
        return (self.glossary.normalize(SlotKind.ENTITY, name)
                or self.glossary.normalize(SlotKind.ENTITY, without_legal_form(name)))

    def _named_company(self) -> str:
        """The first company name the text around the table holds, or "".

        A heading or caption that is a company's name ("Hemlock Semiconductor Group (“HSG”)", an
        equity investee's) comes first, unless it is the document's own company.
        """
        context = self.context
        home = self.glossary.terms[SlotKind.ENTITY].get(self.glossary.home_entity)
        own = [*(home.names.values() if home is not None else ()), label_of(context.assumed_entity)]
        for text in (*context.headings[-1:], context.caption):
            name = other_company(text)
            if name and not any(same_company(name, o) for o in own) and not self._names_entity(name):
                return name
        texts = [context.caption, context.lead, *context.headings, context.doc_title]
        return next((m.group(0).strip() for t in texts if t for m in [COMPANY_NAME.search(t)] if m), "")

    def _stated_company(self) -> str | None:
        """The company the text around the table says it is about, when the glossary does not name it.

        Coded from its own name (``company:キリンホールディングス``), so its figures are never
        filed under the home entity and a question naming it finds them.
        """
        if self.other_company is None:
            named = self._named_company()
            home = self.glossary.terms[SlotKind.ENTITY].get(self.glossary.home_entity)
            if named and home is not None and any(same_company(named, name) for name in home.names.values()):
                named = ""  # the home company's own name with its legal form ("Hoshizora Seiki Co., Ltd.")
                self.other_company = self.glossary.home_entity
            else:
                self.other_company = (self._names_entity(named) or open_entity_code(named) or "") if named else ""
            if is_open_code(self.other_company):
                self.warn(f"the table is about {named.strip()!r}, which the glossary does not name; "
                          f"its rows without an entity are filed under {self.other_company}")
        return self.other_company or None

    def _unit(self, r: int, c: int, metric: str, expected: str, percent: bool, table_units: list[str],
              declared: DeclaredUnits) -> str | None:
        """The unit a cell is stated in: its own %, then its labels and headers, the table's, the caption's."""
        if percent:
            if not is_open_code(metric) and unit_dimension(expected) != "ratio":
                self.warn(f"{_joined(self.shape.row_labels[r])}/{_joined(self.shape.col_headers[c])}: "
                          f"a percentage for {metric}; cell skipped")
                return None
            return "PCT"
        if self.unit_col is not None:  # the row's own unit cell, before any unit around the table
            own_unit = row_unit(self.rows[r][self.unit_col], self.currency)
            if own_unit is None:
                self.warn(f"{_joined(self.shape.row_labels[r])}: unit {self.rows[r][self.unit_col]!r} is a scaled "
                          "count with no unit code; cell skipped")
                return None
            if own_unit:
                return own_unit
        headers = self.shape.col_headers[c]
        if any(_count_beside_money(_lowest(headers), _lowest(other)) for other in self.shape.col_headers.values()):
            # "M" beside "$M": a count in millions, which no unit code states, so never given as a plain number
            self.warn(f"{_joined(self.shape.row_labels[r])}: column {_joined(headers)!r} is a scaled count with no "
                      "unit code; cell skipped")
            return None
        if any(_SUBUNIT.search(text) for text in (*self.shape.row_labels[r], *self.shape.col_headers[c])):
            return ""
        stated = [u for text in (*self.shape.row_labels[r], *self.shape.col_headers[c])
                  for u in _units_of(text, self.currency)]
        own = (*self.shape.row_labels[r], *self.shape.col_headers[c])
        if not stated and (any(_COUNT_NOTE.search(text) for text in own) or self._excepted(own)):
            # "Employees (persons)" under "(¥ million)", or under "(unit: JPY million, except employees)":
            # a count, never the table's money
            return expected if unit_dimension(expected) not in ("money", "ratio") else ""
        for units in (stated, self._section_units(r), table_units):
            same = [u for u in units if unit_dimension(u) == unit_dimension(expected)]
            if same or units:
                chosen = (same or units)[0]
                if self._share_column(c):
                    return _scale_only(chosen)
                # a count of shares takes no currency, not even from its own label's note ("Shares (000)")
                if units is table_units or self._own_label_per_share(r) or self._share_count(r):
                    return self._per_share_unscaled(r, chosen)
                return chosen
        wanted = unit_dimension(expected)
        found = declared.for_metric(metric, expected) or next(
            (u for u in declared.by_metric.values() if expected and unit_dimension(u) == wanted), None)
        if found and found == self.restated_unit and any(counts_things(text) for text in self.shape.row_labels[r]):
            return ""  # the text's money scale is no unit of a count ("Headcount" beside "$18.4 million")
        # A money cell whose document states no unit keeps none (""): no currency is assumed for it.
        return self._per_share_unscaled(r, found) if found else ("" if wanted == "money" else expected)

    def _declare_restated_scale(self, declared: DeclaredUnits, table_units: list[str]) -> None:
        """A table stating no money unit takes the scale the text beside it writes its figures with."""
        stated = [*table_units, *declared.default.values(), *declared.by_metric.values()]
        if self.unit_col is not None or any(unit_dimension(u) == "money" for u in stated):
            return
        cells = [self.rows[r][c] for r in self.shape.body_rows for c in range(self.shape.label_cols, len(self.rows[r]))]
        scale = restated_scale(cells, [self.context.lead, self.context.text_after])
        if scale:
            declared.default["money"] = self.restated_unit = f"{self.currency}_{scale}" if self.currency else scale

    def _excepted(self, labels: Sequence[str]) -> bool:
        """Whether a unit note around the table leaves these labels out of its unit ("…, except employees")."""
        said = {w.lower() for label in labels for w in re.findall(r"[^\W\d_]{3,}", label)}
        return bool(self._excepted_words() & said)

    def _excepted_words(self) -> set[str]:
        """The words a unit note around the table leaves out of its unit: "…, except employees" -> {employees}."""
        corner = [self.rows[h][k] for h in self.shape.header_rows for k in range(self.shape.label_cols)]
        words: set[str] = set()
        for text in (*self.block_caption(), *self.context.headings, self.context.lead, self.context.note, *corner):
            for match in _EXCEPT.finditer(text or ""):
                words |= {w.lower() for w in re.findall(r"[^\W\d_]{3,}", _EXCEPT_FILLER.sub(" ", match.group(1)))}
        return words

    def _states_amounts(self, r: int, table_units: list[str], declared: DeclaredUnits) -> bool:
        """Whether row ``r`` states amounts of the table's money (``table_margin_amounts``): the table states
        money and the row's figures not marked ``%`` all lie beyond what a margin in percent reaches."""
        labels = self.shape.row_labels[r]
        units = [*table_units, *self._section_units(r),
                 *(u for label in labels for u in _units_of(label, self.currency))]
        if not (any(unit_dimension(u) == "money" for u in units) or "money" in declared.default):
            return False
        skipped = self._percent_columns() | set(self.change_cols) | self.schedule_cols
        return states_amounts(self.rows[r][c] for c in self.shape.col_headers
                              if c not in skipped and c < len(self.rows[r]))

    def _percent_columns(self) -> set[int]:
        """The columns of percentages: a common-size column, or one whose header states % ("% of revenue")."""
        return self.percent_cols | {c for c, headers in self.shape.col_headers.items()
                                    if any(unit_dimension(u) == "ratio"
                                           for h in headers for u in _units_of(h, self.currency))}

    def _section_units(self, r: int) -> list[str]:
        """The units the heading over row ``r`` states beside its words (``earnings per share ($M)``).

        Such a heading says what its rows are and in what unit, ahead of the table's unit; a
        heading that is only a unit note (``(in millions)``) is the table's, read as such.
        """
        heading = self.headed_by.get(r, "")
        if not heading or self.name(heading) is NOTHING:
            return []
        return list(_units_of(heading, self.currency))

    def _own_label_per_share(self, r: int) -> bool:
        """Whether the row's own label (not the heading it sits under) names a per-share figure."""
        return any(_PER_SHARE.search(text) for text in self.own_labels.get(r, ()))

    def _share_column(self, c: int) -> bool:
        """A column of share counts ("Shares", "Number of Shares (thousands)"): its scale is no money's."""
        return any((_SHARE_COUNT.search(text) or _SHARES_HEADER.fullmatch(text)) and not _PER_SHARE.search(text)
                   for text in self.shape.col_headers[c])

    def _share_count(self, r: int) -> bool:
        """A row of shares: its label names a count of shares, or the heading it sits under does and its own label
        names no per-share figure ("Net income per diluted share" after the share counts, the section not closed)."""
        return (any(_SHARE_COUNT.search(text) and not _PER_SHARE.search(text) for text in self.shape.row_labels[r])
                or bool(_SHARE_COUNT.search(self.headed_by.get(r, ""))) and not self._own_label_per_share(r))

    def _between_share_counts(self, r: int) -> bool:
        """A row set between two share counts: the dilutive shares of an EPS reconciliation.

        "Stock options and other dilutive securities" between "Weighted-average common shares
        outstanding - basic" and "- diluted" is a number of shares, whatever its label says.
        """
        body = [row for row in self.shape.body_rows if any(not body_cell_blank(c) for c in self.rows[row][1:])]
        if r not in body:
            return False
        at = body.index(r)
        return 0 < at < len(body) - 1 and self._share_count(body[at - 1]) and self._share_count(body[at + 1])

    def _shares_scale(self) -> str:
        """The scale a note around the table states for share counts ("shares in thousands"), else "".

        A note saying "(Tabular amounts in millions)" over the section and "(shares in thousands,
        except per share data)" over the table gives money one scale and the counts of shares another.
        """
        context = self.context
        # the text after the table too: its lead sentence, set after it, may carry the note
        for text in (*self.block_caption(), *reversed(context.headings), context.lead, context.note,
                     context.text_after):
            match = _SHARES_SCALE.search(text or "")
            if match is not None:
                return {"thousands": "K", "millions": "M", "billions": "B"}[match.group(1).lower()]
        return ""

    def _per_share_unscaled(self, r: int, unit: str) -> str:
        """A per-share row keeps the currency but never the table's scale ("in millions, except per share data")."""
        currency, _, scale = unit.partition("_")
        if currency in ISO_4217 and (self._share_count(r) or self._between_share_counts(r)):
            return self._shares_scale() or scale  # a number of shares: its own note's scale, else the caption's
        per_share = any(_PER_SHARE.search(text) for text in self.shape.row_labels[r])
        if scale and _BASIC_OR_DILUTED.fullmatch(self.shape.row_labels[r][-1]):
            return ""  # "Basic", "Diluted" alone: earnings per share or a number of shares, never the caption's money
        if scale and currency in ISO_4217 and per_share:
            return currency
        return "" if per_share and unit in SCALES else unit  # a scale alone: the per-share figure states no unit

    def _check_totals(self, facts: list[Fact]) -> None:
        """Warn where an entity's figure differs from the sum of all its children's beyond rounding."""
        glossary = self.glossary
        by_key = {(f.metric_code, f.entity, f.channel, f.period, f.unit): f for f in facts}
        for (metric, entity, channel, period, unit), total in by_key.items():
            term = glossary.terms[SlotKind.METRIC].get(metric)
            children = glossary.children(entity)
            if term is None or not term.additive or not children:
                continue
            parts = [by_key.get((metric, child, channel, period, unit)) for child in children]
            if any(p is None for p in parts):
                continue
            values = [Decimal(str(p.value)) for p in parts if p is not None]
            places = max(-min(v.as_tuple().exponent for v in [*values, Decimal(str(total.value))]), 0)  # type: ignore[operator]
            tolerance = Decimal(len(values)) * Decimal(5) / Decimal(10) ** (places + 1)
            if abs(sum(values) - Decimal(str(total.value))) > tolerance:
                self.warn(f"{metric} {entity} {period}: the parts sum to {sum(values)} but the table states "
                          f"{total.value} ({total.source_locator}); kept as stated")
