"""Facts from a parsed document's tables, with full lineage, and the rule that merges documents.

``extract_facts`` reads every TABLE block of one document (see ``table_facts`` for how a
table is read). ``primary_facts`` merges the results of several documents into one fact per
key, by this rule:

* A report whose title names one fiscal year (``ACME Group FY2025 Review``) *owns* the facts
  of that year (its FY column and its quarters); its columns for earlier years are
  *comparatives*. A document whose title names no fiscal year (a quarterly workbook) owns
  everything it states.
* For each fact key the owner's figure is kept. A comparative is kept only when no owner
  states the key, and then from the report closest after the period (the first report
  that published it; ``FY2023`` comes from the FY2024 review, not a later one).
* When the figures kept and dropped for a key differ (a restatement, or a typo) the kept one
  still wins by the rule above and a warning names both, so a person can look.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.facts.model import UNDATED, Fact, FactKey, format_number
from ragspine.facts.open_vocabulary import open_entity_code
from ragspine.ingestion.document_calendar import other_calendar
from ragspine.ingestion.document_company import stated_company
from ragspine.ingestion.fact_conflicts import balances, differs, same_figure_stating_unit, written_as_deduction
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.sentence_facts import sentence_facts
from ragspine.ingestion.table_facts import Lineage, TableContext, table_facts, units_in
from ragspine.ingestion.table_subject import PART_OF_COMPANY, about_an_investee, same_company, unit_note
from ragspine.ingestion.table_topic import leads_into_table, unit_note_after
from ragspine.lazy import LazyPattern
from ragspine.sensitivity import Sensitivity

EXTRACTOR_VERSION = "table-35"  # totals, 年度, quarters, captions, due spans, unit notes, kinds, PDF lines, dates
_LEAD_CHARS = 300
# the text after a table up to the next heading: an extract listing a table's paragraphs after it may set its lead
# last, after paragraphs of other matters; the bound only caps the work
_TEXT_AFTER_CHARS = 10_000
_PERIOD_LINE_CHARS = 60  # a line between a unit note and its table: "Year ended December 31,", "December 31,"
# Rows a PDF table's grid left out, as one paragraph: it ends in two or more figure cells ("(5) (178) 60",
# "— — 183"), where a sentence ends in words.
# What separates the words of a file name: "Brantwell_Preliminary_Results_2024", "brantwell-results".
_FILE_NAME_WORDS = LazyPattern(r"[\s_\-.]+")
_ROWS_LEFT_OUT = LazyPattern(r"[A-Za-z].*(?:\s+(?:\(?\$?\d[\d,]*(?:\.\d+)?\)?|[—–-])){2,}\s*$")


@dataclass(frozen=True, slots=True)
class ExtractionResult:
    """The facts one document states and what could not be read, as readable warnings.

    ``reporting_period`` is the fiscal year the document reports on (from its title), or
    None; ``primary_facts`` uses it to tell a report's own figures from its comparatives.
    """

    doc_id: str
    facts: tuple[Fact, ...]
    warnings: tuple[str, ...]
    reporting_period: Period | None = None


@dataclass(frozen=True, slots=True)
class MergedFacts:
    """One fact per key over several documents, and the conflicts met while merging."""

    facts: tuple[Fact, ...]
    warnings: tuple[str, ...]


def reporting_period(doc: ParsedDocument, glossary: Glossary) -> Period | None:
    """The single fiscal year a document's title names (``FY2025 Review`` -> FY2025), else None."""
    years = {m.period for m in glossary.scan(doc.title)
             if m.kind is SlotKind.PERIOD and m.period is not None and m.period.period_type == "FY"}
    return years.pop() if len(years) == 1 else None


def extract_facts(doc: ParsedDocument, *, glossary: Glossary, source_file_hash: str,
                  sensitivity: Sensitivity = Sensitivity.INTERNAL,
                  extractor_version: str = EXTRACTOR_VERSION) -> ExtractionResult:
    """Every fact the tables of ``doc`` state, each with its full lineage.

    Args:
        doc: A parsed document; only its TABLE blocks yield facts.
        glossary: Maps labels to metric, entity and channel codes and headers to periods;
            its version is stamped on each fact as ``mapping_version``.
        source_file_hash: The hash of the file's bytes (``sha256:…``).
        sensitivity: The level of the document, given to each of its facts.
        extractor_version: Stamped on each fact, so facts can be re-derived when it changes.

    Returns:
        The facts in document order, plus a warning for each table, row or cell skipped
        (a table with no recognisable metric yields a warning and no facts, never an error).
    """
    lineage = Lineage(doc.doc_id, source_file_hash, extractor_version, glossary.version, sensitivity)
    doc_entity = doc.metadata.get("entity", "")
    assumed = _assumed_entity(doc, glossary) if not doc_entity else ""
    facts: list[Fact] = []
    warnings: list[str] = []
    tables = 0
    pdf_tables = 0
    lead = ""  # the text just before a table, under the same heading (its period or unit, often)
    under_heading = 0  # tables read since the last heading
    previous_path: tuple[str, ...] | None = None  # the headings over the PDF table before
    for index, block in enumerate(doc.blocks):
        if block.kind is BlockKind.HEADING or block.kind is BlockKind.TITLE:
            lead = ""
            under_heading = 0
        elif block.kind in (BlockKind.PARAGRAPH, BlockKind.NOTE) and not block.rows:
            lead = block.text[-_LEAD_CHARS:]
        if block.kind is BlockKind.TABLE:
            tables += 1
            after = _text_after(doc, index)
            # a unit note right after the table, or in its leading sentence set after it
            note = _unit_note_after(doc, index) or unit_note_after(after)
            context = TableContext(block.heading_path, block.caption, doc.title, doc_entity,
                                   lead if lead != block.caption else "", assumed, note,
                                   follows_table=under_heading > 0, text_after=after)
            lead = ""
            under_heading += 1
            found, problems = table_facts(block, context, glossary, lineage)
            facts += found
            warnings += problems
        elif block.rows:
            pdf_tables += 1
            found, problems = _pdf_table_facts(block, doc, glossary, lineage, assumed, _unit_note_before(doc, index),
                                               follows_table=block.heading_path == previous_path)
            previous_path = block.heading_path
            facts += found
            warnings += problems
    facts = _without_other_calendar_parts(doc, glossary, facts, warnings)
    facts += sentence_facts(doc, facts, glossary=glossary, lineage=lineage)  # after the tables': a table's wins
    if pdf_tables and not tables and not facts and not warnings:
        warnings.append(f"{doc.doc_id}: {pdf_tables} tables, none names a metric, entity and period the glossary "
                        "knows; no facts extracted")
    elif not tables and not pdf_tables:
        warnings.append(f"{doc.doc_id}: no table; no facts extracted")
    return ExtractionResult(doc.doc_id, tuple(facts), tuple(warnings), reporting_period(doc, glossary))


def _without_other_calendar_parts(doc: ParsedDocument, glossary: Glossary, facts: list[Fact],
                                  warnings: list[str]) -> list[Fact]:
    """``facts`` without the quarters of a document whose fiscal year ends in another month than the glossary's.

    Its "Q3 FY2025" is another three months than the glossary's 2025Q3: never filed as that quarter.
    """
    month = other_calendar(doc, glossary.fiscal_calendar.end_month)
    if month is None:
        return facts
    kept = [f for f in facts if f.period_type in ("FY", UNDATED)]
    if len(kept) < len(facts):
        warnings.append(f"{doc.doc_id}: the document's fiscal year ends in month {month}, the glossary's in month "
                        f"{glossary.fiscal_calendar.end_month}: its quarters are other months than the glossary's; "
                        f"{len(facts) - len(kept)} quarter figures skipped")
    return kept


def _unit_note_after(doc: ParsedDocument, index: int) -> str:
    """The unit note the paragraph right after a table states ("なお、金額は百万円単位で表示している。"), else "".

    A unit note ending one of its lines ("(in thousands)") is read alone, not with the words
    around it (a metric named there would scope the unit to that metric). A line leading into a
    table ("The following table … (in millions):") is left out: it leads the next table, or, with
    none after it, this one, and ``unit_note_after`` reads it then.
    """
    following = doc.blocks[index + 1] if index + 1 < len(doc.blocks) else None
    if following is None or following.kind not in (BlockKind.PARAGRAPH, BlockKind.NOTE) or following.rows:
        return ""
    lines = [line for line in following.text[:_LEAD_CHARS].splitlines() if not leads_into_table(line)]
    note = next((found for line in lines if (found := unit_note(line))), "")
    if note:
        return note
    text = "\n".join(lines)
    return text if units_in(text) else ""


def _text_after(doc: ParsedDocument, index: int) -> str:
    """The text between a table and the next heading, when no other table stands there, else "".

    A sentence there pointing forward ("… were as follows:") leads no table after it, so it is
    the lead of this one, set after it (see ``table_topic.topic_after``).
    """
    texts: list[str] = []
    size = 0
    for block in doc.blocks[index + 1:]:
        if block.kind is BlockKind.HEADING or block.kind is BlockKind.TITLE or size > _TEXT_AFTER_CHARS:
            break
        if block.kind is BlockKind.TABLE or block.rows:
            return ""
        texts.append(block.text)
        size += len(block.text)
    return "\n".join(texts)[:_TEXT_AFTER_CHARS]


def _unit_note_before(doc: ParsedDocument, index: int) -> str:
    """The unit note set above a PDF table under its heading ("(In millions)", "… as follows (in millions):"), or "".

    Walks back over the lines between the note and the table (a period heading such as "Year
    ended December 31,", a table of the same heading the note also covers, rows of figures the
    parser left between two tables of one statement) and stops at a heading or at a paragraph
    that is none of these nor ends with a unit note.
    """
    heading = doc.blocks[index].heading_path
    earlier = doc.blocks[max(0, index - 6):index]
    for at in range(len(earlier) - 1, -1, -1):
        block = earlier[at]
        if block.kind is BlockKind.HEADING or block.kind is BlockKind.TITLE or block.heading_path != heading:
            return ""
        if block.rows:
            continue  # an earlier table under the same note
        note = unit_note(block.text)
        if note:
            return note
        split_rows = at > 0 and bool(earlier[at - 1].rows) and bool(_ROWS_LEFT_OUT.search(block.text))
        if len(block.text) > _PERIOD_LINE_CHARS and not split_rows:  # rows between two tables: one statement
            return ""
    return ""


def _assumed_entity(doc: ParsedDocument, glossary: Glossary) -> str:
    """The entity a table naming none is about: the company the document states, or else the home entity.

    A document about a company the glossary does not know files its figures under that
    company, coded from its name (``company:…``), never under the home entity.
    """
    company = stated_company(doc)
    if not company:
        return _entity_in_file_name(doc, glossary) or glossary.home_entity
    whole = glossary.normalize(SlotKind.ENTITY, company)
    if whole:
        return whole
    home = glossary.terms[SlotKind.ENTITY].get(glossary.home_entity)
    if home is not None and any(same_company(company, name) for name in home.names.values()):
        return glossary.home_entity  # "Hoshizora Seiki Co., Ltd." for the home "Hoshizora Seiki Group"
    # A Latin name holding an entity's alias as a word (``ACME JP Co.``) is that entity; CJK has no
    # word edges, so 日本航空 holding 日本 is another company.
    named = glossary.entity_codes(company)
    if len(named) == 1 and company.isascii():
        return next(iter(named))
    return open_entity_code(company) or ""


def _entity_in_file_name(doc: ParsedDocument, glossary: Glossary) -> str:
    """The one glossary entity a file name names by one of its names or aliases, else "".

    ``Brantwell_Preliminary_Results_2024.pdf`` is Brantwell's though it states no company in capitals
    (which ``document_context`` reads as the company) nor on its cover: the underscores are the words'
    edges, so the name is read as the words ``Brantwell Preliminary Results 2024``. Two entities
    named ("Nordvik_vs_Brantwell") say nothing of which one a table is about.
    """
    words = " ".join(_FILE_NAME_WORDS.split(PurePath(doc.doc_id).stem))
    named = glossary.entity_codes(words)
    return next(iter(named)) if len(named) == 1 else ""


def _pdf_table_facts(block: Block, doc: ParsedDocument, glossary: Glossary, lineage: Lineage, assumed: str,
                     note: str = "", *, follows_table: bool = False) -> tuple[list[Fact], list[str]]:
    """The facts of a table read from a PDF page, only when every cell checked out against the page text.

    The text left of the first column header (``USD millions``) is the table's caption. A table
    the glossary does not map gives nothing and no warning (a filing has hundreds of tables for
    search only); one it maps but whose cells did not check out gives no facts and one warning.
    A table naming no entity is about the company the document states, as any other table,
    unless its heading or caption names a part of the company (``Walmart U.S. Segment``, ``Health
    Care Business (18.4% of consolidated sales)``) or says it holds an investee's statements
    (``Summarized financial information``): a part the glossary does not know gives no facts,
    never the company's figures. A heading that is another company's name (``Hemlock
    Semiconductor Group (“HSG”)``) files the table under that company (see ``table_facts``).
    ``note`` is the unit note set above the table.
    """
    caption = block.rows[0][0]
    part = next((text for text in (*block.heading_path[-1:], caption)
                 if PART_OF_COMPANY.search(text) or about_an_investee(text)), "")
    context = TableContext(block.heading_path, caption, doc.title, doc.metadata.get("entity", ""),
                           assumed_entity="" if part else assumed, note=note, follows_table=follows_table,
                           surroundings_read=False)
    found, problems = table_facts(block, context, glossary, lineage)
    if not found:
        if part and assumed:
            whose = "another company's statements" if about_an_investee(part) else "a part of the company"
            return [], [f"{lineage.doc_id} {block.locator}: its heading names {whose} ({part!r}) the glossary does "
                        "not know as an entity; no facts taken from it (add it as an entity to read them)"]
        return [], []
    if block.cell_check:
        return [], [f"{lineage.doc_id} {block.locator}: the table's cells do not check out against the page text "
                    f"({block.cell_check}); no facts taken from it"]
    return found, problems


def _year(fact: Fact) -> int:
    """The calendar year of a fact's period (``2024`` or ``2024Q3`` -> 2024)."""
    return int(fact.period[:4])


def primary_facts(results: Iterable[ExtractionResult], glossary: Glossary | None = None) -> MergedFacts:
    """One fact per key over several documents, by the ownership rule of this module's docstring.

    A balance of money (a metric of ``glossary`` that is not additive) that one document writes with a
    minus sign and another at its size is kept at its size, whichever document owns it: a net-debt
    reconciliation deducts cash as ``(521.7)``, the balance sheet states it, and cash is 521.7.
    Facts come out in the order their documents and tables were given.
    """
    deducted = balances(glossary)
    best: dict[FactKey, tuple[tuple[int, int], int, Fact]] = {}
    seen: dict[FactKey, list[Fact]] = {}
    order = 0
    for result in results:
        own = result.reporting_period
        for fact in result.facts:
            order += 1
            if own is None or _year(fact) == int(own.period):
                rank = (0, 0)
            else:  # a comparative: the nearest later report first; earlier-than-period last
                gap = int(own.period) - _year(fact)
                rank = (1, gap if gap > 0 else 10_000 - gap)
            seen.setdefault(fact.key, []).append(fact)
            current = best.get(fact.key)
            if current is None or (rank < current[0] and not same_figure_stating_unit(fact, current[2])
                                   and not written_as_deduction(fact, current[2], deducted)) \
                    or same_figure_stating_unit(current[2], fact) or written_as_deduction(current[2], fact, deducted):
                best[fact.key] = (rank, current[1] if current else order, fact)
    warnings = []
    for key, (_, _, kept) in best.items():
        others = [f for f in seen[key] if differs(kept, f)]
        for other in others:
            warnings.append(
                f"{'/'.join(key)}: {kept.source_doc_id} ({kept.source_locator}) says "
                f"{format_number(kept.value)} {kept.unit}, {other.source_doc_id} ({other.source_locator}) says "
                f"{format_number(other.value)} {other.unit}; kept {kept.source_doc_id}"
            )
    kept_facts = [fact for _, _, fact in sorted(best.values(), key=lambda item: item[1])]
    return MergedFacts(tuple(kept_facts), tuple(warnings))
