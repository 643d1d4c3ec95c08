"""Figures a report states only in its text, read from sentences that state them plainly.

A report's paragraphs beside a table often state figures the table leaves out: "Depreciation
expense was $12,548 and $12,643 for the years ended December 31, 2019 and 2018, respectively",
"Revenue increased to $12.3 million in 2019 from $10.1 million in 2018". Such a figure becomes a
fact like a table's, cited by its paragraph and sentence, so the arithmetic the structured
channel does over table figures works when some inputs are in the text.

Only sentences of these plain shapes are read, and only when nothing is in doubt:

* a level: ``<metric> was|were|totaled|amounted to <figures> <periods>`` (one figure and year, or a list
  of each of the same length ending in "respectively"); the metric is the words before the verb in the
  same clause, none of them a number or a word of change;
* what the company itself recognized, recorded, incurred or capitalized: ``the Company recognized
  <figures> of <metric> <periods>, respectively`` and its two other orders (the metric of what was
  capitalized is named so: "capitalized stock-based compensation cost", not the cost);
* a level in each of several years: ``<metric> totaled <figure> in <year>, <figure> in <year> and …``;
* a move between two levels: ``<metric> increased|decreased|… to <figure> in <year> from <figure> in
  <year>``: both levels are stated; "increased by $X" states a change, never a level, and is not read.

Every figure carries its own unit: a dollar sign ("$", never "S$" or "A$") and a scale word read from
the sentence itself; a figure with neither is not read (a count or a rate is not told from its words
here), and a dollar figure with no scale word only beside tables that state no scale either (reports
often write the text's figures in the tables' thousands). Periods are fiscal years named by four
digits, with a date only when it ends a year as the tables read them (the glossary's year end, or a
date the tables' year columns name), in a glossary whose fiscal years are named by the year they end.
The facts are of the company the document's tables are about; a document whose tables give
no facts, or facts of several companies, gives none from its text. A metric the tables write as a
negative anywhere is not read from the text (a sentence states its size, "net cash used … was $10.4
million", where the table writes "(10.4)"). A table's figure wins over a sentence's for the same
key, and two sentences stating different figures for one key give neither.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.model import Fact, FactKey
from ragspine.facts.open_vocabulary import open_metric_code
from ragspine.ingestion.model import BlockKind, ParsedDocument
from ragspine.ingestion.table_facts import Lineage
from ragspine.lazy import LazyPattern
from ragspine.numbers.units import unit_dimension

_BARE = "USD"  # a dollar figure with no scale word: its unit is settled beside the tables (``_bare_dollar_unit``)
_SCALES = {"thousand": "USD_K", "million": "USD_M", "billion": "USD_B"}
_YEAR = r"(?:19|20)\d\d"
# "$12,548", "$95.1 million": a dollar sign not part of another currency's ("S$", "A$", "US$" are not read)
_FIGURE = r"(?<![A-Za-z$])\$\s?(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s+(thousand|million|billion)\b)?"
_FIGURE_LIST = rf"{_FIGURE}(?:\s*,\s*{_FIGURE})*,?\s+and\s+{_FIGURE}"
_YEAR_LIST = rf"{_YEAR}(?:\s*,\s*{_YEAR})*,?\s+and\s+{_YEAR}"
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DATE = rf"{_MONTH}\s+\d{{1,2}},\s+"
# "for the years ended December 31, 2019 and 2018", "during fiscal 2019", "in 2019", "as of June 30, 2019"
_PERIOD_WORDS = (rf"(?:for|during|in|as\s+of|at)\s+(?:the\s+)?(?:(?:fiscal\s+)?years?\s+ended\s+{_DATE}|"
                 rf"fiscal\s+(?:years?\s+)?|{_DATE})?")
_LEVEL_VERB = r"(?:was|were|totaled|totalled|amounted\s+to)"
_MOVE_VERB = r"(?:increased|decreased|rose|fell|grew|declined)"
_SUBJECT = r"(?P<subject>[A-Za-z][A-Za-z'’\- ,]{1,99}?)"
# "<periods>, <metric> were <figures>, respectively" or "<metric> [<periods>] were <figures> [<periods>], respectively"
_RESPECTIVELY = LazyPattern(
    rf"^(?:{_PERIOD_WORDS}(?P<years_before>{_YEAR_LIST}),?\s+)?(?:the\s+)?{_SUBJECT}\s+"
    rf"(?:{_PERIOD_WORDS}(?P<years_between>{_YEAR_LIST}),?\s+)?{_LEVEL_VERB}\s+(?P<figures>{_FIGURE_LIST}),?\s+"
    rf"(?:{_PERIOD_WORDS}(?P<years_after>{_YEAR_LIST}),?\s+)?respectively\b", re.IGNORECASE)
# "<metric> was <figure> in <year>"
_ONE_LEVEL = LazyPattern(
    rf"^(?:the\s+)?{_SUBJECT}\s+{_LEVEL_VERB}\s+(?P<figure>{_FIGURE})\s+{_PERIOD_WORDS}(?P<year>{_YEAR})(?![\d,])",
    re.IGNORECASE)
# "<metric> totaled $290.2 million in 2019, $239.6 million in 2018 and $190.4 million in 2017"
_IN_YEAR = rf"{_FIGURE}\s+in\s+(?:fiscal\s+)?{_YEAR}"
_PAIRS = LazyPattern(
    rf"^(?:the\s+)?{_SUBJECT}\s+{_LEVEL_VERB}\s+(?P<pairs>{_IN_YEAR}(?:\s*,\s*{_IN_YEAR})*,?\s+and\s+{_IN_YEAR})"
    rf"(?![\d,])", re.IGNORECASE)
# What the company itself recorded: "the Company recognized $0.3 million and $0.9 million of <metric> for the years
# ended …, respectively", "… recognized $0.3 million and $0.9 million, respectively, of <metric>", "… capitalized
# <metric> of $0.5 million and $0.1 million, respectively"
_RECORDER = r"(?:the\s+company|we)\s+(?P<verb>recogni[sz]ed|recorded|incurred|capitali[sz]ed)"
_METRIC = r"(?P<metric>[A-Za-z][A-Za-z'’\- ]{2,99}?)"
_RECORDED = (
    LazyPattern(rf"^(?:{_PERIOD_WORDS}(?P<years_before>{_YEAR_LIST}),?\s+)?{_RECORDER}\s+(?P<figures>{_FIGURE_LIST})\s+"
                rf"of\s+{_METRIC}\s+{_PERIOD_WORDS}(?P<years_after>{_YEAR_LIST}),?\s+respectively\b", re.IGNORECASE),
    LazyPattern(rf"^{_PERIOD_WORDS}(?P<years_before>{_YEAR_LIST}),?\s+{_RECORDER}\s+(?P<figures>{_FIGURE_LIST}),?\s+"
                rf"respectively,?\s+of\s+{_METRIC}\.?$", re.IGNORECASE),
    LazyPattern(rf"^{_PERIOD_WORDS}(?P<years_before>{_YEAR_LIST}),?\s+{_RECORDER}\s+{_METRIC}\s+of\s+"
                rf"(?P<figures>{_FIGURE_LIST}),?\s+respectively\b", re.IGNORECASE),
)
# "<metric> increased to <figure> in <year> from <figure> in <year>"
_MOVE = LazyPattern(
    rf"^(?:the\s+)?{_SUBJECT}\s+{_MOVE_VERB}\s+to\s+(?P<later>{_FIGURE})\s+{_PERIOD_WORDS}(?P<later_year>{_YEAR}),?"
    rf"\s+from\s+(?P<earlier>{_FIGURE})\s+{_PERIOD_WORDS}(?P<earlier_year>{_YEAR})(?![\d,])", re.IGNORECASE)
_ONE_FIGURE = LazyPattern(_FIGURE)
# A sentence ends at .!? before a capital or an opening bracket ("U.S. federal" stays whole)
_SENTENCE_END = LazyPattern(r"(?<=[.!?])\s+(?=[A-Z(“\"])")
_SPACES = LazyPattern(r"\s+")
_YEARS = LazyPattern(_YEAR)
_MONTH_NAMES = LazyPattern(_MONTH, re.IGNORECASE)
# Words that make the subject something other than a plain metric: a change, a part of another figure, a
# pronoun standing for a figure named elsewhere, a comparison.
_NOT_A_METRIC = LazyPattern(
    r"\b(?:increase[sd]?|decrease[sd]?|change[sd]?|growth|grew|rose|fell|declined?|higher|lower|impact|effect|"
    r"portion|part|which|of\s+which|it|this|that|these|those|each|respectively|approximately|about|"
    r"compared|excluding|including|net\s+of|per|percent|percentage|rate|ratio|average|total\s+of)\b",
    re.IGNORECASE)
# What may follow a figure's statement in its clause: its end, a part of it ("of which"), or its cause.
_CLAUSE_REST = LazyPattern(r"\s*[.:]?\s*$|,?\s+(?:of\s+which|primarily|mainly|largely|driven|due\s+to|reflecting|"
                           r"as\s+follows)\b", re.IGNORECASE)
# Where a clause ends inside a sentence: the next statement's subject starts after it.
_CLAUSE_END = LazyPattern(r";\s*|,\s+(?:and|while|whereas|but)\s+(?![$\d])|\s+(?:and|while|whereas|but)\s+(?=[a-z])")


class _Stated(NamedTuple):
    label: str
    year: int
    value: float
    unit: str
    sentence: int
    months: frozenset[str] = frozenset()  # the months of the dates its clause names ("December 31, 2019")


def sentence_facts(doc: ParsedDocument, table_facts: Sequence[Fact], *, glossary: Glossary,
                   lineage: Lineage) -> list[Fact]:
    """The facts ``doc``'s paragraphs state plainly that its tables do not (see the module's rules)."""
    entities = {fact.entity for fact in table_facts}
    if len(entities) != 1 or glossary.fiscal_calendar.named_by != "end":  # else "2019" may name no FY2019
        return []
    year_ends = _year_end_months(table_facts, glossary)
    if not year_ends:  # tables of no fiscal year: a sentence's year would stand apart from their figures
        return []
    entity = entities.pop()
    term = glossary.terms[SlotKind.ENTITY].get(entity)
    # a part of a company (a segment, a region): only the sentences under its tables' own headings are about it
    headings = ({block.heading_path for block in doc.blocks if block.kind is BlockKind.TABLE or block.rows}
                if term is not None and term.parent is not None else None)
    geography = next(fact.geography for fact in table_facts)
    taken = {fact.key for fact in table_facts}
    bare = _bare_dollar_unit(table_facts)
    # a row the table writes as a negative somewhere ("(10.4)" net cash used) is a size in the text: the signs differ
    negative = {fact.metric_code for fact in table_facts if fact.value < 0}
    found: dict[FactKey, Fact] = {}
    doubted: set[FactKey] = set()
    for block in doc.blocks:
        if block.kind not in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM) or block.rows:
            continue
        if headings is not None and block.heading_path not in headings:
            continue
        for stated in _stated_in(block.text):
            if not stated.months <= year_ends:  # a date the tables do not read as a year's end
                continue
            if _names_another_entity(stated.label, entity, glossary):  # "Japan revenue" beside the group's tables
                continue
            unit = stated.unit if stated.unit != _BARE else bare
            metric = _metric_code(stated.label, glossary)
            if unit is None or metric is None or metric in negative or not _unit_fits(metric, unit, glossary):
                continue
            period = Period.fiscal_year(stated.year)
            key = FactKey(metric, entity, glossary.default_channel, period.period_type, period.period)
            if key in taken or key in doubted:
                continue
            fact = Fact(metric, entity, geography, glossary.default_channel, period.period_type, period.period,
                        stated.value, unit,
                        lineage.doc_id, f"{block.locator},sentence={stated.sentence}",
                        source_file_hash=lineage.source_file_hash, extractor_version=lineage.extractor_version,
                        mapping_version=lineage.mapping_version, sensitivity=lineage.sensitivity)
            earlier = found.get(key)
            if earlier is not None and (earlier.value, earlier.unit) != (fact.value, unit):
                doubted.add(key)
                del found[key]
            elif earlier is None:
                found[key] = fact
    return list(found.values())


def _year_end_months(table_facts: Sequence[Fact], glossary: Glossary) -> frozenset[str]:
    """The months a date may name to be read as a fiscal year's end: the glossary's, and those of the columns the
    tables read as fiscal years ("col=December 31/2019"); empty when the tables read no fiscal year."""
    fiscal = [fact for fact in table_facts if fact.period_type == "FY"]
    if not fiscal:
        return frozenset()
    named = {month.lower() for fact in fiscal for month in _MONTH_NAMES.findall(fact.source_locator)}
    return frozenset(named | {_MONTHS[glossary.fiscal_calendar.end_month - 1]})


def _bare_dollar_unit(table_facts: Sequence[Fact]) -> str | None:
    """The unit of a dollar figure written with no scale ("$12,548"), or None when it is not read.

    Reports often write the text's figures in the tables' scale ("$12,548" meaning thousands): such a
    figure is read only beside tables that state no scale either, in their unit (dollars, or none stated).
    """
    units = {fact.unit for fact in table_facts}
    if not units <= {"", "USD"}:
        return None
    return "USD" if "USD" in units else ""


def _metric_code(label: str, glossary: Glossary) -> str | None:
    """The glossary's metric when it names the whole label, else the label's own open code."""
    text = normalize_text(label)
    whole = [m for m in glossary.scan(text) if m.kind is SlotKind.METRIC and m.code
             and m.start == 0 and m.end == len(text)]
    return whole[0].code if len(whole) == 1 else open_metric_code(label)


def _names_another_entity(label: str, entity: str, glossary: Glossary) -> bool:
    return any(m.kind is SlotKind.ENTITY and m.code not in (None, entity) for m in glossary.scan(normalize_text(label)))


def _unit_fits(metric: str, unit: str, glossary: Glossary) -> bool:
    """Whether a glossary metric is kept in money, as a sentence's dollar figure is (an open label is any unit)."""
    term = glossary.terms[SlotKind.METRIC].get(metric)
    expected = (term.unit or "") if term is not None else ""
    return not expected or unit_dimension(expected) == unit_dimension(unit)


def _stated_in(text: str) -> Iterable[_Stated]:
    """Every figure a paragraph's sentences state plainly, numbered by sentence from 1."""
    sentences = _SENTENCE_END.split(_SPACES.sub(" ", text).strip())
    for number, sentence in enumerate(sentences, start=1):
        for clause in _clauses(sentence):
            months = frozenset(month.lower() for month in _MONTH_NAMES.findall(clause))
            for stated in _read_clause(clause, number):
                yield stated._replace(months=months)


def _clauses(sentence: str) -> list[str]:
    """A sentence cut into statements: a clause ends after "respectively" or at a clause break after a figure."""
    clauses: list[str] = []
    start = 0
    for cut in _CLAUSE_END.finditer(sentence):
        if _ONE_FIGURE.search(sentence, start, cut.start()) is not None:  # a clause states a figure before its end
            clauses.append(sentence[start:cut.start()])
            start = cut.end()
    clauses.append(sentence[start:])
    return [clause.strip() for clause in clauses if clause.strip()]


def _read_clause(clause: str, sentence: int) -> list[_Stated]:
    match = _whole(clause, _RESPECTIVELY.search(clause))
    if match is not None:
        years_text = match["years_before"] or match["years_between"] or match["years_after"]
        if sum(1 for name in ("years_before", "years_between", "years_after") if match[name]) != 1:
            return []
        return _respectively(match["subject"], years_text, match["figures"], sentence)
    for recorded in _RECORDED:
        match = _whole(clause, recorded.search(clause))
        if match is not None:
            groups = match.groupdict()
            years_text = groups.get("years_before") or groups.get("years_after") or ""
            if groups.get("years_before") and groups.get("years_after"):
                return []
            # what was capitalized is not the cost itself: the verb stays in the metric's name
            subject = f"capitalized {match['metric']}" if match["verb"].lower().startswith("capital") \
                else match["metric"]
            return _respectively(subject, years_text, match["figures"], sentence)
    if "respectively" in clause.lower():
        return []
    match = _whole(clause, _MOVE.search(clause))
    if match is not None:
        later, earlier = _figures(match["later"]), _figures(match["earlier"])
        label = _label(match["subject"])
        if label is None or later is None or earlier is None or match["later_year"] == match["earlier_year"]:
            return []
        return [_Stated(label, int(match["later_year"]), *later[0], sentence),
                _Stated(label, int(match["earlier_year"]), *earlier[0], sentence)]
    match = _whole(clause, _PAIRS.search(clause))
    if match is not None:
        pairs = _figures(match["pairs"])
        years = [int(y) for y in _YEARS.findall(_ONE_FIGURE.sub(" ", match["pairs"]))]
        label = _label(match["subject"])
        if label is None or pairs is None or len(pairs) != len(years) or len(set(years)) != len(years):
            return []
        return [_Stated(label, y, v, u, sentence) for y, (v, u) in zip(years, pairs, strict=True)]
    match = _whole(clause, _ONE_LEVEL.search(clause))
    if match is not None and len(_ONE_FIGURE.findall(clause)) == 1 and len(_YEARS.findall(clause)) == 1:
        figure = _figures(match["figure"])
        label = _label(match["subject"])
        if label is None or figure is None:
            return []
        return [_Stated(label, int(match["year"]), *figure[0], sentence)]
    return []


def _whole(clause: str, match: re.Match[str] | None) -> re.Match[str] | None:
    """``match`` when the clause ends after it or goes on to a part or a cause of the figures, else None: words
    after the figures may say what they are ("…, respectively, associated with the amortization of …")."""
    if match is None or _CLAUSE_REST.match(clause, match.end()) is None:
        return None
    return match


def _respectively(subject: str, years_text: str, figures_text: str, sentence: int) -> list[_Stated]:
    """Each figure of a list with the year in the same place of the list of years; none when the lists differ."""
    years = [int(y) for y in _YEARS.findall(years_text)]
    figures = _figures(figures_text)
    label = _label(subject)
    if label is None or figures is None or len(figures) != len(years) or len(set(years)) != len(years):
        return []
    return [_Stated(label, year, value, unit, sentence) for year, (value, unit) in zip(years, figures, strict=True)]


def _figures(text: str) -> list[tuple[float, str]] | None:
    """Each figure of a list with its unit; a scale written only on the last applies to all ("$1 and $2 million")
    only when no other figure states one; None when the figures' scales differ."""
    read = [(_number(m[1]), m[2].lower() if m[2] else "") for m in _ONE_FIGURE.finditer(text)]
    scales = {scale for _, scale in read}
    if len(scales) > 1:
        return None
    scale = scales.pop() if scales else ""
    unit = _SCALES.get(scale, _BARE)
    return [(value, unit) for value, _ in read]


def _number(text: str) -> float:
    """A figure as written: ``12,548`` an int, ``95.1`` a float (a fact keeps the source's own form)."""
    plain = text.replace(",", "")
    return float(plain) if "." in plain else int(plain)


def _label(subject: str) -> str | None:
    """The metric a subject names, or None when its words name something other than one plain metric."""
    words = subject.strip(" ,")
    if not words or _NOT_A_METRIC.search(words) or "," in words or len(words.split()) > 12:
        return None
    return words[:1].upper() + words[1:]
