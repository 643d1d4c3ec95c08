"""The shape of a table: its header rows, its label columns, and what each label or header names.

Nothing is assumed to sit in row 1 or column A. The body starts at the first row holding a
figure; the rows above it are headers (one, or several with a merged period over its metrics).
The label columns are the leading columns holding no figure in any body row (``Segment |
Metric`` in a long layout, ``Segment | Metric | Period`` in a tidy one). A blank under a
label (a merged segment cell) or right of a header (a merged period) repeats the text
before it. Each label and header is then read against the glossary as a metric, an entity,
a channel, an ``ENTITY/CHANNEL`` pair or a period; text that only states a unit or a generic
word (``Amount``, ``金額``) names nothing, and anything else is *unknown*: its row or column
is never given a meaning it does not state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.facts.fiscal_dates import (
    MONTH_NUMBERS,
    MONTH_PATTERN,
    fiscal_year_closed_on,
    named_fiscal_year,
    year_name_unsure,
)
from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.nendo import nendo_period
from ragspine.ingestion.table_report_periods import names_other_period, names_own_period
from ragspine.ingestion.table_totals import is_bare_total
from ragspine.ingestion.table_undated import is_due_heading
from ragspine.numbers.cells import is_blank, read_cell, strip_footnotes
from ragspine.numbers.units import units_in

# Header words over value columns (or label columns) that name no slot.
_GENERIC = frozenset({
    "amount", "amounts", "value", "values", "figure", "figures", "total amount", "item", "items", "line item",
    "metric", "metrics", "kpi", "indicator", "indicators", "description", "particulars",
    "segment", "segments", "entity", "division", "business", "period",
    "year", "fiscal year", "quarter", "channel", "unit", "units", "actual", "actuals", "reported",
    "金額", "金额", "数值", "數值", "数値", "项目", "項目", "科目", "指标", "指標", "期间", "期間", "年度", "区分",
    "セグメント", "分部", "板块", "业务", "事業", "渠道", "実績", "实际", "単位", "单位",
    "full year", "full-year", "全年", "全年度", "通期",  # the year's own figure: the period names it
})
# Words of a heading over period columns ("Years Ended September 30,", "As of December 31"): the
# periods themselves are in the header row below it.
_PERIOD_PHRASE = re.compile(
    r"(?:years?|months?|quarters?|weeks?|periods?)[\s-]+end(?:ed|ing)|(?<![a-z])as\s+(?:of|at)(?![a-z])|^\s*fiscal\s*$"
    r"|fiscal\s+years?|for\s+the\s+(?:fiscal\s+)?(?:years?|periods?|quarters?)|年度|期末|会计年度|事業年度"
    r"|^\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*\d{1,2}\s*,?\s*$")
# Words of a heading over columns that are not the stated figures of their periods (a plan, a
# change): such a heading is never a title or a heading over periods, so its columns stay skipped.
NOT_ACTUAL = re.compile(r"budget|plan|forecast|target|estimat|guidance|outlook|projected|pro\s*forma"
                        r"|(?<!ex)change|varian|growth|increase|decrease|%|adjust|without|計画|予想|予算|目標|预算|预测|计划|目标|増減|增减"
                        r"|变动|変動")
_DATE = re.compile(rf"(?<![a-z])(?:(?P<m1>{MONTH_PATTERN})\s+(?P<d1>\d{{1,2}}),?"
                   rf"|(?P<d2>\d{{1,2}})\s+(?P<m2>{MONTH_PATTERN}),?)\s*(?P<y>(?:19|20)\d{{2}})(?!\d)")
# A note in brackets saying a column holds planned figures, not stated ones.
_PLANNED = re.compile(r"forecast|plan|budget|target|estimat|guidance|outlook|project|pro\s*forma"
                      r"|予想|予算|計画|目標|見通し|预测|预算|计划|目标")
# A note in brackets saying a column holds figures as first reported, since restated beside them.
_SUPERSEDED = re.compile(r"调整前|調整前|重述前|追溯调整前|修正前|变更前|変更前|遡及(?:適用|処理)前|组合前"
                         r"|(?:as\s+)?previously\s+reported|as\s+originally|before\s+(?:restatement|adjustment)")
# Words after a period saying its column holds the stated figures, as "Actual" alone does: no kind of figure.
# A comparative restated under IFRS ("2024 restated", "FY2024 as restated") is the year's figure now stated.
_STATED_SUFFIX = re.compile(r"(?i)\s*(?:results?|actuals?|(?:as\s+)?restated|re-presented|実績|实际|实绩)\s*$")
# A date as Japanese and Chinese reports write it: 2025年3月31日 (現在, 末).
_CJK_DATE = re.compile(r"(?<!\d)(?P<y>(?:19|20)\d{2})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日")
# A 52- or 53-week period is a retailer's fiscal year ("52 weeks ended 30 Mar 2019"), not a part of one.
_FULL_YEAR_WEEKS = re.compile(r"(?<!\d)5[23][\s-]+weeks?(?![a-z])")
_YEAR_ENDED = re.compile(r"years?[\s-]+end(?:ed|ing)|fiscal\s+years?|for\s+the\s+(?:fiscal\s+)?years?"
                         r"|(?<!\d)5[23][\s-]+weeks?[\s-]+end(?:ed|ing)")
# "U.S. $ in thousands": the country's initials before the dollar are the currency's, like "US$". A code may run
# its scale on ("USDm", "DKKm").
_UNIT_WORDS = re.compile(r"(?<![a-z])u\.\s?s\.(?=\s*(?:\$|dollars?(?![a-z])))"
                         r"|[$€£¥]|us\$|hk\$|[’']000|(?<![a-z])(?:m|mn|bn|k|millions?|thousands?|billions?|in|dollars?"
                         r"|euros?|yen|(?:usd|eur|gbp|jpy|rmb|cny|dkk|sek|nok|chf|aud|cad|hkd|sgd|inr)(?:m|mn|bn|k)?)"
                         r"(?![a-z])|%|百万|十億|十亿|千万|[千万億亿円元]|単位|单位|單位")
# Words a unit note carries besides the unit ("(in millions, except per share data)", "金額").
_UNIT_FILLER = re.compile(r"(?<![a-z])(?:except|per|share|shares|data|amounts?|and|of|otherwise|stated|unless|noted"
                          r"|indicated|the)(?![a-z])|金額|金额")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
# A header over a column of the year each row's figure ends or falls due ("Last Fiscal Year of Expiration",
# "Expires", "Maturity"): its years are a fact about the row, never the period its figures are of.
_ENDING_YEAR_HEADER = re.compile(r"(?<![a-z])(?:expir\w*|matur\w*|due)(?![a-z])")
_LEADING_YEAR = re.compile(r"(?:19|20)\d{2}(?!\d)")
_SHORT_PERIOD = re.compile(r"months|weeks|quarter|half|季度|四半期|半期|か月|个月")


def another_period_heading(text: str) -> bool:
    """A heading over period columns naming a part of a year or another period than the report's.

    ``Nine Months Ended June 30,``, ``年初至报告期末``: the figures under it are no fiscal year's nor
    the report's own period's, so it is never a title the columns can do without.
    """
    norm = normalize_text(clean_label(text))
    return names_other_period(norm) or bool(_PERIOD_PHRASE.search(norm) and part_of_year(norm))


def part_of_year(norm: str) -> bool:
    """Whether a header names a part of a year (``12 weeks``, ``Six months``); 52 or 53 weeks are a whole one."""
    return bool(_SHORT_PERIOD.search(_FULL_YEAR_WEEKS.sub(" ", norm)))
_UNIT_NOTE = re.compile(r"[(（\[［][^()（）\[\]［］]*[)）\]］]")
_SEPARATORS = ("/", "|", "·", " - ")
# A header leading with its year and going on with the figure's name ("Fiscal 2019 Net Sales", "FY2019 Sales").
_PERIOD_LEAD = re.compile(r"(?P<lead>(?:fiscal\s+(?:year\s+)?|fy\s*)?(?:19|20)\d{2})\s+(?P<rest>.+)"
                          # 2025财年营业收入, 2025年3月期売上高: a CJK period runs into the figure's name
                          r"|(?P<cjk>(?:19|20)\d{2}\s*(?:财年|財年|会计年度|會計年度|年度|年\d{1,2}月期))\s*(?P<cjk_rest>.+)",
                          re.I)
# A header line ending on a word that cannot end a heading: its phrase goes on in the line below.
_CONTINUED = re.compile(r"\b(?:of|at|for|to|in|from|by|on|and|or|the|a|an)$", re.IGNORECASE)
# Words of figures that are not the period's stated ones: a restatement, a first report, an audit status.
_NOT_STATED = re.compile(r"restat|reported|recast|previous|original|revised|unaudited|audited|actual")


@dataclass(frozen=True, slots=True)
class Named:
    """What one label or header names; all None (and not ``unknown``) for a word that names nothing."""

    metric: str | None = None
    entity: str | None = None
    channel: str | None = None
    period: Period | None = None
    unknown: bool = False


NOTHING = Named()
UNKNOWN = Named(unknown=True)
PERIOD_HEADING = Named()  # a heading over periods: names nothing itself, the headers below it do


@dataclass(frozen=True, slots=True)
class TableShape:
    """Where a table's figures are and what names their rows and columns.

    ``header_rows`` are row indexes above the body; ``label_cols`` the leading columns that
    hold labels; ``row_labels[r]`` and ``col_headers[c]`` the texts (merges filled) naming a
    body row and a value column.
    """

    header_rows: tuple[int, ...]
    label_cols: int
    body_rows: tuple[int, ...]
    row_labels: dict[int, tuple[str, ...]]
    col_headers: dict[int, tuple[str, ...]]


# Note references after a label's words: "In-game net revenues (1)", "Diluted earnings per share (1,2)", "(2)(3)",
# "Diluted (a)(b)(c)".
_NOTE_NUMBERS = re.compile(r"(?<=[^\W\d_]|[)）.:])\s*(?:[(（](?:\d{1,2}(?:\s*,\s*\d{1,2})*|[a-h])[)）]\s*)+$")

# A year a PDF converter letter-spaced ("2 0 1 8" beside "2019"): the year, never a figure.
_SPACED_YEAR = re.compile(r"(1|2)\s(9|0)\s(\d)\s(\d)")

# A note number set as a plain digit glued to a word: "Current year1", "Order intake1", "per share5 (cents)", and
# to a word in capitals of five letters or more ("RESTATED3"; "B1", "CET1", "TIER1" stay names).
_GLUED_NOTE = re.compile(r"(?:(?<=[a-z]{3})|(?<=[A-Z]{5}))\d(?=\s|$|[,:;()])")

# What is left of a dot leader after a label ("Net sales .", "Systems . . ."): a dot set apart by a space ends no
# word, so it is no part of the name ("Inc." keeps its dot).
_DOT_LEADER = re.compile(r"(?:\s+\.+)+$")


def clean_label(text: str) -> str:
    """A label without footnote marks, note numbers, a dot leader's dots and surrounding space (``売上高※1`` ->
    ``売上高``, ``Net sales .`` -> ``Net sales``).

    A merged title a converter wrote twice into one cell (``Appropriation of earnings Appropriation
    of earnings``) is the title once.
    """
    cleaned = _once(_GLUED_NOTE.sub("", _NOTE_NUMBERS.sub("", strip_footnotes(text).strip())).strip())
    spaced = _SPACED_YEAR.fullmatch(cleaned)
    return "".join(spaced.groups()) if spaced else _DOT_LEADER.sub("", cleaned.rstrip(" `"))


def _once(text: str) -> str:
    """``text`` written twice over, separated by a space, as written once; any other text as it is."""
    half = len(text) // 2
    if len(text) % 2 == 1 and text[half] == " " and text[:half] == text[half + 1:] and " " in text[:half]:
        return text[:half]
    return text


def is_figure(text: str, glossary: Glossary) -> bool:
    """A cell holding a figure (a period written as a bare year is a label, not a figure)."""
    number = read_cell(text)
    if number is None:
        return False
    year_like = isinstance(number.value, int) and 1900 <= number.value <= 2100 and "," not in text
    return not (year_like and glossary.normalize_period(text) is not None)


def table_shape(rows: list[list[str]], glossary: Glossary) -> TableShape | None:
    """The header rows and label columns of a grid; None when no row holds a figure."""
    figures = [[is_figure(cell, glossary) for cell in row] for row in rows]
    first_figure = next((r for r, row in enumerate(figures) if any(row[1:])), None)
    if first_figure is None:
        return None
    # A row above the first figure is still body when its label names something (``REVENUE | n/a``).
    first_body = next((r for r in range(1, first_figure) if _names_something(glossary, rows[r][0])
                       and not any(glossary.normalize_period(clean_label(c)) for c in rows[r][1:] if c.strip())),
                      first_figure)
    label_cols = min(row.index(True) for row in figures[first_figure:] if any(row))
    label_cols = next((k for k in range(1, label_cols)
                       if names_ending_years(rows[:first_body], rows[first_body:], k)), label_cols)
    body = tuple(r for r in range(first_body, len(rows))
                 if any(not is_blank(cell) for cell in rows[r][label_cols:]))
    if label_cols == 0:
        return None  # a figure in the first column: no labels to read it by
    width = len(rows[0])
    headers = tuple(range(first_body))
    col_headers: dict[int, tuple[str, ...]] = {}
    filled = [[clean_label(rows[h][c]) for c in range(width)] for h in headers]
    # each column's lowest header as written, and whether it is a period
    lowest = [next((filled[i][c] for i in reversed(range(len(headers))) if filled[i][c]), "") for c in range(width)]
    periods = [bool(text) and glossary.normalize_period(text) is not None for text in lowest]
    for i in range(len(headers) - 1):  # a merged upper header spans the columns right of it
        for c in range(label_cols + 1, width):
            # but not from a column of another kind onto a period's (``Percent Change`` over ``Actual |
            # Constant`` ends before ``2018``), nor a heading broken off mid-phrase onto a heading of its
            # own (``Balance at Beginning of`` over ``Period`` goes on below, not over ``Balance at End``)
            left = filled[i][c - 1]
            stops = ((periods[c] and lowest[c - 1] and not periods[c - 1])
                     or (_CONTINUED.search(left) and filled[i + 1][c - 1] and lowest[c] and not periods[c]))
            if not filled[i][c] and not stops:
                filled[i][c] = filled[i][c - 1]
    for c in range(label_cols, width):
        col_headers[c] = tuple(filled[i][c] for i in range(len(headers)))
    if headers:
        col_headers = _split_period_phrases(col_headers, glossary)
    row_labels: dict[int, tuple[str, ...]] = {}
    previous = [""] * label_cols
    for r in body:
        labels = [clean_label(rows[r][k]) for k in range(label_cols)]
        for k in range(label_cols - 1):  # a merged outer label (the segment) covers the rows below it
            if not labels[k] and any(labels[k + 1:]):
                labels[k] = previous[k]
        previous = labels
        row_labels[r] = tuple(labels)
    return TableShape(headers, label_cols, body, row_labels, col_headers)


def names_ending_years(header_rows: Sequence[Sequence[str]], body_rows: Sequence[Sequence[str]], column: int) -> bool:
    """Whether a column is the year each row expires or falls due: its header says so, its cells are years."""
    cells = [row[column].strip() for row in body_rows if column < len(row) and not is_blank(row[column])]
    return (any(_ENDING_YEAR_HEADER.search(normalize_text(row[column])) for row in header_rows if column < len(row))
            and bool(cells) and all(_LEADING_YEAR.match(cell) for cell in cells))


def _split_period_phrases(col_headers: dict[int, tuple[str, ...]],
                          glossary: Glossary) -> dict[int, tuple[str, ...]]:
    """Headers of the last row that write a period and a kind of figure in one phrase, read as two rows.

    ``Fiscal 2019 Net Sales`` is ``Fiscal 2019`` over ``Net Sales``: every column gets one more
    header level (blank where its header is no such phrase), so the header levels above keep
    their row positions.
    """
    split = {c: _period_phrase(headers[-1], glossary) for c, headers in col_headers.items()}
    if not any(split.values()):
        return col_headers
    return {c: (*headers[:-1], *(split[c] or (headers[-1], ""))) for c, headers in col_headers.items()}


def _period_phrase(text: str, glossary: Glossary) -> tuple[str, str] | None:
    """``(period, kind)`` of a header that leads with a year and goes on with the figure's name, else None.

    Only where the whole phrase names nothing by itself, the lead reads as a period and the rest
    names a kind of figure: a rest naming a plan, a change, a restatement, a part of the year or
    a unit (``2019 Budget``, ``FY2019 Restated``, ``2019 Q1 Sales``, ``2019 €m``) keeps the header
    as it is.
    """
    match = _PERIOD_LEAD.fullmatch(text.strip())
    if match is None or name_of(glossary, text) is not UNKNOWN:
        return None
    lead, rest = match["lead"] or match["cjk"], (match["rest"] or match["cjk_rest"]).strip()
    if glossary.normalize_period(lead) is None or not re.search(r"[^\W\d_]", rest) or re.search(r"\d", rest):
        return None
    norm = normalize_text(rest)
    if NOT_ACTUAL.search(norm) or _NOT_STATED.search(norm) or _SHORT_PERIOD.search(norm) or _PERIOD_PHRASE.search(norm):
        return None
    named = name_of(glossary, rest)
    return (lead, rest) if named.metric or named.unknown else None


def _names_something(glossary: Glossary, text: str) -> bool:
    named = name_of(glossary, text)
    return bool(named.metric or named.entity or named.channel)


def name_of(glossary: Glossary, text: str) -> Named:
    """What one label or header names (see the module docstring)."""
    text = clean_label(text)
    if not text:
        return NOTHING
    nendo = nendo_period(glossary.fiscal_calendar, text)
    if nendo is not None:
        return Named(period=nendo)  # 2024年度: the year starting in 2024 (FY2025 for April-March named by its end)
    if any(_SUPERSEDED.search(normalize_text(note)) for note in _UNIT_NOTE.findall(text)):
        return UNKNOWN  # "2023年（调整前）", "2019 (as previously reported)": superseded by the restated column
    found = _whole(glossary, text)
    if found is None and any(_PLANNED.search(normalize_text(note)) for note in _UNIT_NOTE.findall(text)):
        return UNKNOWN  # "FY2026 (forecast)", "2026年3月期（予想）": never the year's stated figure
    if found is None and _total_naming_its_part(text):
        return UNKNOWN  # "Total (loan)": the bracket names what is totalled, no unit note, so no channel's total
    found = found or _whole(glossary, _UNIT_NOTE.sub(" ", text).strip())
    if found is not None:
        return found
    stated = _STATED_SUFFIX.sub("", text).strip()
    period = glossary.normalize_period(stated) if stated != text.strip() else None
    if period is not None:
        return Named(period=period)  # "FY2025 results", "2025年3月期実績": the year's stated figures
    norm = normalize_text(text)
    dated = _dated_period(glossary, norm)
    if dated is not None:
        return dated
    unitless = " ".join(_UNIT_WORDS.sub(" ", norm).split()).strip(" ,:：()（）")
    if unitless != norm.strip() and unitless:
        # "2019 €m", "2018 $'000", and with the word saying its figures are the stated ones: "2018 $'000 restated"
        period = glossary.normalize_period(_STATED_SUFFIX.sub("", unitless).strip())
        if period is not None:
            return Named(period=period)
    bare = " ".join(_UNIT_NOTE.sub(" ", norm).split())
    if not unitless or not bare or bare.strip(" :：") in _GENERIC or (units_in(text) and not _letters(unitless)):
        return NOTHING  # a unit note ("(in millions)", "単位：百万円") or a generic word
    if is_due_heading(bare):
        return NOTHING  # "Payments due by period" over "Less than 1 year | 1-3 years": the spans name what they are
    if _FULL_YEAR_WEEKS.fullmatch(bare.strip()):
        return NOTHING  # "53 WEEKS" under a year: the length of that fiscal year, not another period
    if names_other_period(norm):
        return UNKNOWN  # "年初至报告期末", "上年同期", "YTD": another period than the report's, never its figure
    if names_own_period(norm):
        return PERIOD_HEADING  # "本报告期": the period the report's title names
    if _PERIOD_PHRASE.search(norm) and not NOT_ACTUAL.search(norm):
        # a part of a year ("Nine Months Ended June 30," over "2025") makes its year column no fiscal year's
        return UNKNOWN if part_of_year(norm) else PERIOD_HEADING
    for sep in _SEPARATORS:
        if sep in text:
            left, right = (part.strip() for part in text.split(sep, 1))
            for first, second in ((left, right), (right, left)):
                entity = glossary.normalize(SlotKind.ENTITY, first)
                channel = glossary.normalize(SlotKind.CHANNEL, second)
                if entity and channel:
                    return Named(entity=entity, channel=channel)
    return UNKNOWN


# A remark on how a figure stands, not on what it is: "Total (restated)", "Total (unaudited)", "Total (continued)".
_STATUS_REMARK = re.compile(f"{_NOT_STATED.pattern}|{_PLANNED.pattern}|continued|cont'd")


def _total_naming_its_part(text: str) -> bool:
    """Whether a label is a total word with brackets of words naming what it totals ("Total (loan)", "Total
    (value)"), not a unit note, a period or a footnote ("Total (in millions)", "Total (2019)", "Total (1)")."""
    notes = _UNIT_NOTE.findall(text)
    return bool(notes) and is_bare_total(_UNIT_NOTE.sub(" ", text)) and all(
        _letters(note) and not units_in(note) and not any(char.isdigit() for char in note)
        and not _STATUS_REMARK.search(normalize_text(note)) for note in notes)


def _dated_period(glossary: Glossary, norm: str) -> Named | None:
    """The fiscal year a header's date closes: "Year ended May 31, 2019", "December 31, 2018", "30 June 2019".

    A year "ended" on a date names its fiscal year whatever the month; a bare date (a balance
    sheet's) only when it falls at the end of the glossary's fiscal year (or in the first week
    after it, for 52/53-week years), never in mid-year.
    """
    match = _DATE.search(norm)
    cjk = _CJK_DATE.search(norm) if match is None else None
    if match is None and cjk is None:
        year_only = set(_YEAR.findall(norm))
        if len(year_only) == 1 and _YEAR_ENDED.search(norm) and not part_of_year(norm):
            return Named(period=Period.fiscal_year(_named_year(glossary, int(year_only.pop()))))
        return None
    if len(set(_YEAR.findall(norm))) != 1 or part_of_year(norm):
        return None
    if match is not None:
        month = MONTH_NUMBERS[(match["m1"] or match["m2"])[:3]]
        day, year = int(match["d1"] or match["d2"]), int(match["y"])
    else:
        assert cjk is not None
        month, day, year = int(cjk["m"]), int(cjk["d"]), int(cjk["y"])
        if not 1 <= month <= 12:
            return None
    if _YEAR_ENDED.search(norm):
        if year_name_unsure(glossary.fiscal_calendar, year, month, day):
            return None
        return Named(period=Period.fiscal_year(_named_year(glossary, year)))
    closed = fiscal_year_closed_on(glossary.fiscal_calendar, year, month, day)
    return None if closed is None else Named(period=Period.fiscal_year(closed))


def year_ended_period(glossary: Glossary, text: str) -> Period | None:
    """The fiscal year a text names as a year ended on a date ("…, fiscal year ended March 31, 2025"), else None.

    Only a year "ended" (or a fiscal year) of one year, no part of a year: a caption or sentence
    naming a date alone, or two years, names no period here.
    """
    norm = normalize_text(text)
    if not _YEAR_ENDED.search(norm):
        return None
    named = _dated_period(glossary, norm)
    return named.period if named is not None else None


def _named_year(glossary: Glossary, end_year: int) -> int:
    """The name of the fiscal year ending in ``end_year``."""
    return named_fiscal_year(glossary.fiscal_calendar, end_year)


def _letters(unitless: str) -> bool:
    """Whether a header holds words besides its unit (``% change`` does, ``(in millions)`` does not)."""
    return bool(re.search(r"[^\W\d_]", _UNIT_FILLER.sub(" ", unitless)))


def _whole(glossary: Glossary, text: str) -> Named | None:
    if not text:
        return None
    metric = glossary.normalize(SlotKind.METRIC, text)
    if metric:
        return Named(metric=metric)
    entity = glossary.normalize(SlotKind.ENTITY, text)
    if entity:
        return Named(entity=entity)
    channel = glossary.normalize(SlotKind.CHANNEL, text)
    if channel:
        return Named(channel=channel)
    period = glossary.normalize_period(text)
    return Named(period=period) if period is not None else None


def body_cell_blank(text: str) -> bool:
    """A body cell that states no figure by convention (empty, dash, n/a): skipped without a warning."""
    return is_blank(text)
