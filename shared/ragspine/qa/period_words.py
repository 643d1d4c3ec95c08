"""Periods in the words people use, read onto the domain's fiscal calendar before slots are scanned.

``2025年3月期`` (the fiscal year ending March 2025), ``2025年3月期第3四半期``, "the year ended June
30, 2024" and "fiscal year ending December 31, 2023" are rewritten into the spellings the glossary's
period patterns read (``FY2025``, ``2025Q3``, ``FY2024``: never ``年度``, which a table header writes
by the year's start), each padded to its own length
so every span of the question keeps its place. A split year ("2018/2019", "2018/19") is the fiscal
year ending in its second year, named as the calendar names it: a table's ``2018/2019`` column is
read so at ingestion (``ingestion/table_stated_years.py``), and the question's words must meet it.
Ranges ("2019 to 2021", 2019年至2021年, FY2019–FY2021) name every fiscal year between their ends.
A year's end written beside it ("2018 year end", "year-end 2019", "year ended 2019") is that fiscal
year: the figures at its close are filed under it, and "end" is no word of a row ("At end of the year").
Half years (2024财年上半年, H1 2024) are not periods facts are kept in: they are reported as a
period the service cannot read, never as a name.

``2024年度`` names a year by the calendar year it starts in where the fiscal year ends in January to
March (the Japanese convention: 2024年度 is April 2024 to March 2025, 2025年3月期); for a glossary
naming such years by their end it is read as the next year's name (FY2025), and ``2024年度第3四半期``
as that year's quarter, each said in the answer (``PeriodReading``). Quarters named by their
months are read by ``month_periods``.
"""

from __future__ import annotations

import calendar as months_of_year
import re
import unicodedata
from datetime import date

from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import NENDO_PATTERN, named_fiscal_year
from ragspine.facts.glossary import Mention, Period, SlotKind
from ragspine.facts.nendo import nendo_period
from ragspine.lazy import LazyPattern
from ragspine.qa.month_periods import PeriodReading, may_name_months, months_of, read_months

MAX_RANGE_YEARS = 12  # a range longer than this is read as its two ends only

_MONTHS = {name.lower(): number for number, name in enumerate(months_of_year.month_name) if name}
_MONTHS.update({name.lower(): number for number, name in enumerate(months_of_year.month_abbr) if name})
_JA_FISCAL_END = LazyPattern(r"(?P<year>\d{4})\s*年\s*(?P<month>\d{1,2})\s*月\s*期"
                            r"(?:\s*の?\s*第\s*(?P<q>[1-4一二三四])\s*四半期)?")
_ENDED = LazyPattern(r"(?<![a-z])(?:(?:fiscal\s+)?year|twelve\s+months|12\s+months)\s+end(?:ed|ing)\s+(?:on\s+)?"
                    r"(?P<month>[a-z]{3,9})\.?\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})(?!\d)", re.IGNORECASE)
_NENDO = LazyPattern(r"(?<![\d/])" + NENDO_PATTERN)
# Opened by a lookahead on the first characters a match may have (a digit, h, f, s): case-insensitive,
# ``re`` would otherwise try both branches at every position.
# Every half-year wording holds one of these (上半年, 下期, H1 2024, first half of 2024).
HALF_STARTS = ("上", "下", "half", "h1", "h2")
_HALF_GUARD = r"(?=[\dhfs])"
# The year of an English half: "2025", "FY2025", "fiscal 2025", "(the) fiscal year 2025".
_HALF_OF_YEAR = r"(?:(?:the\s+)?(?:fiscal(?:\s+year)?\s*|fy\s*))?\d{4}"
_HALF = LazyPattern(_HALF_GUARD + r"(?:(?:(?:fy\s*)?\d{4}\s*(?:财年|財年|年度|年)?\s*"
                   r"(?:上半年|下半年|上半期|下半期|上期|下期))"
                   r"|(?<![a-z])(?:h[12]\s*(?:of\s+)?" + _HALF_OF_YEAR
                   + r"|(?:first|second)\s+half\s+(?:of\s+)?" + _HALF_OF_YEAR + r")(?!\d))",
                   re.IGNORECASE)
# An English half named in words the pattern above does not read ("the first half", "H1 of the
# year"): still a part of a year, so never answered with the year's figure.
_HALF_NAMED = LazyPattern(r"(?<![a-z\d])(?:(?:first|second)\s+half|h[12])(?![a-z\d])", re.IGNORECASE)
_SPLIT_YEAR = LazyPattern(r"(?<![\d/.])(?:fy\s?)?(?P<a>(?:19|20)\d{2})\s*/\s*(?P<b>(?:19|20)?\d{2})(?![\d/.])",
                          re.IGNORECASE)
# "2018 year end", "2019 fiscal year-end", "year-end 2019", "year ended 2019": the fiscal year named, at its close
_YEAR_END = LazyPattern(r"(?<![a-z\d])(?:fy\s?)?(?P<a>(?:19|20)\d{2})\s+(?:fiscal\s+)?year[\s-]?end(?![a-z])"
                        r"|(?<![a-z])year[\s-]?end(?:ed|ing)?\s+(?:fy\s?)?(?P<b>(?:19|20)\d{2})(?!\d)", re.IGNORECASE)
_CJK_Q = {"一": "1", "二": "2", "三": "3", "四": "4"}
RANGE_WORDS = frozenset({"から", "まで", "より", "期間"})  # a range's own words are never read as a name
_RANGE_BETWEEN = LazyPattern(r"^\s*(?:to|through|thru|until|-|–|—|~|〜|～|至|到|から|より|ー)\s*$")


def read_period_words(question: str, fiscal: FiscalCalendar) -> tuple[str, tuple[PeriodReading, ...]]:
    """``question`` (NFKC) with fiscal-year-end wording rewritten for the period patterns (same length),
    and the readings the answer states (a 年度 named by its start, a quarter's months) or asks back
    (months that are no fiscal quarter: ``PeriodReading.period`` None)."""
    text = unicodedata.normalize("NFKC", question)
    readings: tuple[PeriodReading, ...] = ()
    if may_name_months(text.lower()):
        text, readings = read_months(text, fiscal)
    if "年度" in text and fiscal.end_month <= 3:
        text, by_start = _read_by_start(text, fiscal)
        readings += by_start

    def japanese(match: re.Match[str]) -> str:
        year = _fiscal_year(fiscal, int(match["year"]), int(match["month"]), 1)
        if year is None:
            return match.group()
        quarter = match["q"]
        word = f"FY{year}" if quarter is None else f"{year}Q{_CJK_Q.get(quarter, quarter)}"
        return _padded(word, match.group())

    def ended(match: re.Match[str]) -> str:
        month = _MONTHS.get(match["month"].lower())
        year = _fiscal_year(fiscal, int(match["year"]), month, int(match["day"])) if month else None
        return match.group() if year is None else _padded(f"FY{year}", match.group())

    def split(match: re.Match[str]) -> str:
        start, end = int(match["a"]), match["b"]
        end_year = int(end) if len(end) == 4 else start // 100 * 100 + int(end)
        if end_year != start + 1:
            return match.group()  # "2017/2019" is no one year
        return _padded(f"FY{named_fiscal_year(fiscal, end_year)}", match.group())

    def year_end(match: re.Match[str]) -> str:
        return _padded(f"FY{match['a'] or match['b']}", match.group())

    text = _SPLIT_YEAR.sub(split, _ENDED.sub(ended, _JA_FISCAL_END.sub(japanese, text)))
    return _YEAR_END.sub(year_end, text), readings


def _read_by_start(text: str, fiscal: FiscalCalendar) -> tuple[str, tuple[PeriodReading, ...]]:
    """``text`` with each ``N年度`` of a year ending in January to March read as the year starting in N."""
    readings: list[PeriodReading] = []
    first_month = fiscal.end_month % 12 + 1

    def by_start(match: re.Match[str]) -> str:
        start = int(match["year"])
        period = nendo_period(fiscal, match.group())  # the one reading of 年度, as a table's header is read
        if period is None or period.period.partition("Q")[0] == str(start):
            return match.group()  # the glossary names the year by its start too: nothing to read
        quarter = match["q"]
        if quarter is None:
            word, months = f"FY{period.period}", months_of(start, first_month, 12)
        else:
            first = start * 12 + first_month - 1 + 3 * (int(_CJK_Q.get(quarter, quarter)) - 1)
            word, months = period.period, months_of(first // 12, first % 12 + 1, 3)
        readings.append(PeriodReading(match.group().strip(), period, months))
        return _padded(word, match.group())

    return _NENDO.sub(by_start, text), tuple(readings)


def half_year(question: str, written: str | None = None) -> str | None:
    """The half-year wording a question uses (facts are kept by year and quarter only), or None.

    ``written`` is the question as the user wrote it when ``question`` is its rewriting (same length):
    the words are quoted from it (2025年3月期上期, not the 2025年度 it was read as).
    """
    text = unicodedata.normalize("NFKC", question)
    match = _HALF.search(text)
    if match is None:
        return None
    said = unicodedata.normalize("NFKC", written) if written is not None else text
    return (said if len(said) == len(text) else text)[match.start():match.end()].strip()


def unread_half(question: str) -> str | None:
    """The English half-year words of a question ``half_year`` cannot read with a year, or None."""
    match = _HALF_NAMED.search(unicodedata.normalize("NFKC", question))
    return match.group() if match is not None else None


def with_ranges(norm: str, mentions: list[Mention], periods: dict[Period, None]) -> dict[Period, None]:
    """``periods`` with every fiscal year between two named years joined by a range word ("2019 to 2021")."""
    years = [m for m in mentions if m.kind is SlotKind.PERIOD and m.period is not None
             and m.period.period_type == "FY"]
    if len(years) < 2:
        return periods
    ranged: dict[Period, None] = {}
    for first, second in zip(years, years[1:], strict=False):
        assert first.period is not None and second.period is not None
        start, end = int(first.period.period), int(second.period.period)
        if start < end <= start + MAX_RANGE_YEARS and _RANGE_BETWEEN.match(norm[first.end:second.start]):
            ranged.update({Period.fiscal_year(y): None for y in range(start, end + 1)})
    if not ranged:
        return periods
    merged = dict(periods)
    merged.update(ranged)
    return dict(sorted(merged.items(), key=lambda item: (item[0].period_type, item[0].period)))


def _fiscal_year(fiscal: FiscalCalendar, year: int, month: int | None, day: int) -> int | None:
    if month is None or not 1 <= month <= 12 or not 1900 <= year <= 2999:
        return None
    try:
        return fiscal.fiscal_year_of(date(year, month, min(day, 28)))
    except ValueError:
        return None


def _padded(word: str, original: str) -> str:
    """``word`` padded with spaces to the length of ``original`` (spans of the question keep their place)."""
    return word + " " * (len(original) - len(word)) if len(word) <= len(original) else original


_ORDINAL = r"(?:first|second|third|fourth|1st|2nd|3rd|4th)"
_ORDINAL_QUARTERS = LazyPattern(rf"(?<![a-z]){_ORDINAL}(?:\s*(?:,|and|or|&|vs\.?|versus)\s*(?:the\s+)?{_ORDINAL})*"
                                r"\s+(?:fiscal\s+)?quarters?(?![a-z])", re.IGNORECASE)
_QUARTER_NUMBER = LazyPattern(r"(?<![a-z0-9])q\s?(?P<q>[1-4])(?![0-9])|第\s*(?P<cjk>[1-4一二三四])\s*(?:四半期|季度|季)"
                              r"|(?<![0-9第])(?P<bare>[1-4一二三四])\s*季度", re.IGNORECASE)
_ORDINAL_NUMBER = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_ORDINAL_WORD = LazyPattern(_ORDINAL, re.IGNORECASE)
_QUARTER_RANGE = LazyPattern(r"(?:quarters?|q\s?[1-4]|季度|四半期|" + _ORDINAL + r")\s*"
                             r"(?:to|through|thru|-|–|—|~|〜|～|至|到|から|ー)\s*"
                             r"(?:the\s+)?(?:q\s?[1-4]|第|[1-4一二三四]\s*(?:季度|四半期)|" + _ORDINAL + ")",
                             re.IGNORECASE)

_YEARS_AND = r"(?:19|20)\d{2}(?:\s*(?:,|and|or|&|vs\.?|versus)\s*(?:19|20)\d{2})+(?!\d)"
_CJK_YEARS_AND = r"(?:19|20)\d{2}\s*年?度?(?:\s*(?:和|与|及|跟|、|,)\s*(?:19|20)\d{2}\s*年?度?)+"
# One quarter written once for every year listed beside it: "Q4 2019 and 2018", "the fourth quarter of 2019
# and 2018", 2019年和2018年第四季度 (the quarter before the years in English, after them in Chinese).
_SHARED_QUARTER = LazyPattern(rf"(?:(?<![a-z0-9])q\s?[1-4]|{_ORDINAL}\s+(?:fiscal\s+)?quarter)\s*(?:of\s+)?"
                              rf"(?:the\s+)?(?:fiscal\s+(?:year\s+)?)?(?P<en>{_YEARS_AND})"
                              rf"|(?P<cjk>{_CJK_YEARS_AND})\s*的?\s*(?:第\s*[1-4一二三四]\s*(?:季度|季)|q\s?[1-4](?![0-9]))",
                              re.IGNORECASE)
_YEAR_DIGITS = LazyPattern(r"(?:19|20)\d{2}")


def _years_sharing_one_quarter(question: str) -> set[int]:
    """The years a quarter written once is shared by ("Q4 2019 and 2018": 2019 and 2018), or none."""
    match = _SHARED_QUARTER.search(question)
    if match is None:
        return set()
    return {int(year) for year in _YEAR_DIGITS.findall(match["en"] or match["cjk"])}


def quarters_named(question: str) -> tuple[tuple[int, ...], str]:
    """The quarter numbers a question names, in its order ("the second and first quarter": 2, 1), and its words."""
    text = unicodedata.normalize("NFKC", question)
    found: list[tuple[int, int, str]] = []  # (position, number, words)
    for match in _ORDINAL_QUARTERS.finditer(text):
        found += [(match.start() + word.start(), _ORDINAL_NUMBER[word.group().lower()], match.group())
                  for word in _ORDINAL_WORD.finditer(match.group())]
    for match in _QUARTER_NUMBER.finditer(text):
        digit = match["q"] or match["cjk"] or match["bare"]
        digit = _CJK_Q.get(digit, digit)
        found.append((match.start(), int(digit), match.group().strip()))
    found.sort()
    numbers = tuple(dict.fromkeys(number for _, number, _ in found))
    return numbers, (found[0][2] if found else "")


def without_quarter_words(text: str) -> str:
    """``text`` with the quarters it names ("the third quarter and fourth quarter", "Q4") blanked, same length.

    Such words name periods (``with_quarters`` reads them into the question's years, or asks back the
    ones it cannot), so they are never words of a row the question names.
    """
    for pattern in (_ORDINAL_QUARTERS, _QUARTER_NUMBER):
        text = pattern.sub(lambda match: " " * len(match.group()), text)
    return text


_QUARTER_FILLER = LazyPattern(rf"{_ORDINAL}|quarters?|q\s?[1-4]|and|of|the|四半期|季度|第|[1-4一二三四]|と|和|及|の|\s",
                              re.IGNORECASE)


def only_quarter_words(name: str) -> bool:
    """Whether ``name`` is nothing but quarter words ("第二季度", "四半期と第"): no name a question is asked back."""
    return bool(_QUARTER_NUMBER.search(name) or re.search("四半期|季度|quarter", name, re.IGNORECASE)) \
        and not _QUARTER_FILLER.sub("", unicodedata.normalize("NFKC", name))


# A share whose whole is the year the quarter is of: "as a percentage of the total revenue that year",
# "… of the full year", "… of the total revenue in fiscal 2018", 占全年营业收入的比例, 通期に占める割合.
_YEAR_AS_WHOLE = LazyPattern(
    r"(?:percentage|percent|proportion|share|fraction|ratio)\s+of\s+(?:the\s+)?(?:(?:year's|annual|full[\s-]year)\b"
    r"|total\b[^?.]*?\b(?:(?:that|the|this|same)\s+(?:fiscal\s+)?year|full[\s-]year|(?:in|for|of)\s+(?:the\s+)?"
    r"(?:fiscal\s+(?:year\s+)?|fy\s*)?(?:19|20)\d{2}))"
    r"|占(?:当年|全年|该年|本年|年度)|(?:通期|年間)(?:の[^。？?]*?)?に占める",
    re.IGNORECASE)


def year_as_whole(question: str, periods: dict[Period, None]) -> dict[Period, None]:
    """``periods`` with the fiscal year of their one quarter added, where the question divides by that year.

    "The revenue in the first quarter of fiscal 2018 as a percentage of the total revenue that year"
    is 2018Q1 over FY2018: the year is the whole, no fifth quarter. Only for one quarter of one year.
    """
    quarters = [p for p in periods if p.period_type == "Q"]
    if len(quarters) != 1 or len(periods) != 1 or not _YEAR_AS_WHOLE.search(unicodedata.normalize("NFKC", question)):
        return periods
    year = quarters[0].period.partition("Q")[0]
    return {**periods, Period("FY", year): None}


def with_quarters(question: str, periods: dict[Period, None]) -> tuple[dict[Period, None], str | None]:
    """``periods`` with the quarters the question names read into its years, or the quarter words it cannot read.

    "The second and first quarter in fiscal 2019" is 2019Q2 and 2019Q1, never the year 2019:
    each year named (no quarter of it read) takes every quarter named. A quarter named with no
    year, across a range ("Q1 to Q3"), or beside quarters of several years is returned as a
    period the service cannot read (asked back), so no year's figure answers a quarter's question.
    One quarter written once before a list of bare years ("Q4 2019 and 2018", 2019年和2018年第四季度
    with the quarter after them) is that quarter of each year, as "December 31, 2019 and 2018" is
    that date of each; a year written apart ("Q4 2019 and fiscal 2018") stays unread.
    """
    numbers, words = quarters_named(question)
    read = {int(p.period.partition("Q")[2]) for p in periods if p.period_type == "Q"}
    if not numbers:
        return periods, None
    if _QUARTER_RANGE.search(unicodedata.normalize("NFKC", question)):  # "Q1 to Q3": not only its two ends
        return periods, words
    if set(numbers) <= read and not any(p.period_type == "FY" for p in periods):
        return periods, None
    years = list(dict.fromkeys(int(p.period.partition("Q")[0]) for p in periods if p.period_type in ("FY", "Q")))
    shared = len(numbers) == 1 and set(years) == _years_sharing_one_quarter(unicodedata.normalize("NFKC", question))
    if not years or (len(years) > 1 and read and not shared):  # "Q4 2031 and fiscal 2030": 2030's quarter is not said
        return periods, words
    return {Period("Q", f"{year}Q{number}"): None for year in years for number in numbers}, None
