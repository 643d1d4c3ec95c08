"""Arithmetic over periods with no period named: over every fiscal year the documents state for the row.

"What is the average Selling, general and administrative?", "What was the change in closing
cash?", "the total unrecognized tax benefit across all 3 years": an average, a sum or a change is
over periods, so the last completed fiscal year a lookup assumes cannot answer it. The periods are
then every fiscal year stated for the one metric, entity and channel asked (at least two; for a
change exactly two, since three or more leave which two open), or for two rows each averaged ("the
difference between the average investment income and average financing costs"), when both state
the same years. A sum is read so only when the words say it runs over the years ("across all 3
years", "altogether", "for both FYs"): "the total revenue" asks one year's total. "The difference in net
profit between both FYs" (or "between the two years") is the change between the two years stated,
not a gap between two rows. The computed line names the years and cites every figure; the assumed
year is dropped, as it is for a count.

One fiscal year stated (``only_stated_year``): a question naming no period, about rows the documents
state for one fiscal year only ("the gross carrying amount" of a table dated 30 June 2019 alone), is
answered for that year, and the assumption says so; the last completed fiscal year a lookup assumes
has no figure of these rows to give. Only where every row asked, for every company asked, is stated
for that same one year and for no other period (no quarter, no undated figure: an undated figure is
read by its own rule), so no choice of year is left open.

Not read so: a count ("how many …", see ``counting.py``); a change word that is the row's own
("Net change in cash balance"); a sum of a row whose every stated figure is negative (a deduction
written in parentheses, where the sum may be meant by size or signed and the sum's line says only
one: the assumed year's "no data" line stands instead of a guess). An average or a change of such
a row is read: its line states both readings, signed and by size (``arithmetic.py``, ``structured.py``).

One year named for a figure that needs two (``year_before_named``): "What is the 2019 average free
cash flow?" is the average of the 2019 and 2018 figures (the year's opening and closing, as
``AVG(X)`` reads a balance), "the difference between 2019 average A and 2019 average B" the gap of
two such averages, and "the percentage change in audit-related fees in 2019" is 2019 against 2018.
Read so only when the documents state the year before for every row asked; an average only when
the year stands right before "average" ("the 2019 average"), since "the average … in 2019" may be
a mean of that year's quarters or months. A "total" right after "average" ("the 2019 average total
amounts falling due") says what is averaged, no sum over the years. Two years each standing before
"average" with a change asked ("the change between 2018 and 2019 average free cash flow") are read
the same way: each year's average with the year before it, so 2017, 2018 and 2019 are looked up.

A change across a range of years (``asks_range_ends``): "the increase in research and development
funding from 2017 to 2019", 2017年至2019年的变化, 2017年から2019年までの増減 is between the range's two
ends; the years inside it are not inputs. Read so only when the question writes the range itself
(its ends joined by "to", 至, から…) and asks nothing else of it (an average or a sum over the range
uses every year).
"""

from __future__ import annotations

from dataclasses import replace

from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.facts.ports import FactStore
from ragspine.lazy import LazyPattern
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.render import ONLY_YEAR_STATED
from ragspine.qa.slots import Slots
from ragspine.sensitivity import Sensitivity

# Opened by a lookahead on the first characters a match may have: ``re`` tries no branch elsewhere.
_HOW_MANY = LazyPattern(r"(?=[h几多い])(?:(?<![a-z])how many(?![a-z])|几个|多少个|いくつ)")
_COUNT = r"(?:\d+|two|three|four|five)"
_EVERY_YEAR = LazyPattern(rf"(?<![a-z])(?:(?:all|both)\s+(?:{_COUNT}\s+)?(?:fiscal\s+)?(?:years|periods|fys)"
                         rf"|the\s+{_COUNT}[\s-]+years?(?:\s+period)?|altogether)(?![a-z])|各年|历年")
# "the difference in net profit between both FYs": a difference between the years, not between two rows or companies
_BETWEEN_YEARS = LazyPattern(r"(?<![a-z])between\s+(?:both|the\s+two|the)\s+(?:fiscal\s+)?(?:years|fys|periods)"
                             r"(?![a-z])")
_CHANGE = LazyPattern(r"(?<![a-z])(?:change|increase|decrease|difference)(?![a-z])|变化|变动|増減|変化")
# ``_CHANGE`` without its lookarounds: blanking names adds only spaces, so without it none is left over
_CHANGE_WORD = LazyPattern(r"change|increase|decrease|difference|变化|变动|増減|変化")
# A growth of one year named ("the growth in net sales in FY2025", 2025年营业利润增长了多少) is, like its change,
# against the year before; only with one year named (no period named keeps ``_CHANGE``'s reading).
_GROWTH = LazyPattern(r"(?<![a-z])(?:growth|grew|grow)(?![a-z])|增长|增幅|伸び|成長")
MAX_YEARS = 12  # as many as a range of years the question names may hold


# What a question with no period named asks over the years it reads (``years_asked``).
OVER_PERIODS = "over_periods"  # an average over every stated year
SUM_OVER_PERIODS = "sum_over_periods"  # a sum over every stated year ("across all 3 years")
CHANGE = "change"  # a change: exactly two stated years


def years_asked(question: str, arithmetic: Arithmetic, slots: Slots, glossary: Glossary) -> str | None:
    """``OVER_PERIODS``, ``SUM_OVER_PERIODS`` or ``CHANGE`` when the question asks arithmetic over periods and
    names none; else None.

    A pure function of the question's parse, so a parsed question keeps it; the years themselves
    are read from the facts on every ask (``every_stated_year``).
    """
    assumed = [a for a in slots.assumptions if a.slot is SlotKind.PERIOD]
    if len(assumed) != 1 or assumed[0].cue or assumed[0].typed is not None or len(slots.periods) != 1:
        return None  # a period named, or read from the question's words ("last year")
    # "the difference between the average A and average B": "average" said of each of two rows
    rows = 2 if arithmetic.average and (arithmetic.averages == 2 or arithmetic.averaged_gap) else 1
    if len(slots.metrics) != rows or len(slots.entities) != 1 or len(slots.channels) != 1:
        return None
    text = normalize_text(question).lower()
    if _HOW_MANY.search(text):
        return None
    # "the total revenue" asks one year's total: a sum over the years only when the words say so
    if arithmetic.average:
        return OVER_PERIODS
    if arithmetic.period_sum > 0 and _EVERY_YEAR.search(text) is not None:
        return SUM_OVER_PERIODS
    between_years = arithmetic.entity_gap and _BETWEEN_YEARS.search(text) is not None
    if (arithmetic.ratio or arithmetic.cagr or arithmetic.subtract or arithmetic.add
            or (arithmetic.entity_gap and not between_years) or arithmetic.consistency or arithmetic.share_of):
        return None
    # the question's own words with the glossary's names blanked: "net change in cash balance" names a row
    return CHANGE if _CHANGE.search(glossary.leftover(question, glossary.scan(question)).lower()) else None


def every_stated_year(asked: str, slots: Slots, *, facts: FactStore,
                      max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> Slots | None:
    """The slots over every fiscal year stated for the row, for what ``years_asked`` read (not None);
    else None (the slots stand as they are). Two rows averaged must state the same years."""
    entity, channel = slots.entities[0], slots.channels[0]
    stated = [f for metric in slots.metrics for f in facts.find(metric_code=metric, entity=entity)
              if f.channel == channel and f.period_type == "FY" and f.period.isdigit()
              and f.sensitivity <= max_sensitivity]
    years = sorted({f.period for f in stated})
    if any({f.period for f in stated if f.metric_code == metric} != set(years) for metric in slots.metrics):
        return None  # one row states a year the other does not: which years both means are over is open
    if asked == SUM_OVER_PERIODS and all(f.value < 0 for f in stated):
        return None  # signed or by size: a sum's line says one, so neither is guessed
    if len(years) < 2 or len(years) > MAX_YEARS or (asked == CHANGE and len(years) != 2):
        return None
    periods = tuple(Period.fiscal_year(int(year)) for year in years)
    return replace(slots, periods=periods,
                   assumptions=tuple(a for a in slots.assumptions if a.slot is not SlotKind.PERIOD))


def only_stated_year(slots: Slots, *, facts: FactStore,
                     max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> Slots | None:
    """The slots over the one fiscal year every row asked is stated for, when the question names no period and the
    year assumed is another; else None (the slots stand as they are)."""
    assumed = [a for a in slots.assumptions if a.slot is SlotKind.PERIOD]
    if len(assumed) != 1 or assumed[0].cue or assumed[0].typed is not None or len(slots.periods) != 1:
        return None  # a period named, or read from the question's words ("last year")
    if not slots.metrics or slots.unrecognized is not None:
        return None
    years: set[str] = set()
    for metric in slots.metrics:
        for entity in slots.entities:
            filed = [f for f in facts.find(metric_code=metric, entity=entity)
                     if f.channel in slots.channels and f.sensitivity <= max_sensitivity]
            if not filed or any(f.period_type != "FY" or not f.period.isdigit() for f in filed):
                return None  # a row with no figure, or one stated for a quarter or no period: not one year
            years.update(f.period for f in filed)
    if len(years) != 1:
        return None
    period = Period.fiscal_year(int(years.pop()))
    if period == slots.periods[0]:
        return None
    said = replace(assumed[0], value=period.label, reason="no period named: the only fiscal year stated",
                   cue=ONLY_YEAR_STATED)
    return replace(slots, periods=(period,),
                   assumptions=tuple(said if a is assumed[0] else a for a in slots.assumptions))


# "the 2019 average", "FY2019's average": the year qualifies the average itself
_YEAR_AVERAGE = LazyPattern(r"(?<![\w])(?:fy\s?)?(\d{4})(?:'s)?\s+(?:average|平均)")
# "the 2019 average total amount falling due …": the total is the figure averaged, no sum over periods
_AVERAGE_TOTAL = LazyPattern(r"(?<![a-z])average\s+total(?![a-z])")


def _sums_asked(question: str, arithmetic: Arithmetic, glossary: Glossary) -> int:
    """How often the question's own words ask a sum: a "total" right after "average" says what is averaged."""
    if not (arithmetic.period_sum and arithmetic.average):
        return arithmetic.period_sum
    # the words ``period_sum`` counted in: names blanked, channels kept ("total" is also the total channel's)
    own = glossary.leftover(question, [m for m in glossary.scan(question) if m.kind is not SlotKind.CHANNEL]).lower()
    return max(0, arithmetic.period_sum - len(_AVERAGE_TOTAL.findall(own)))


def asks_year_before(question: str, arithmetic: Arithmetic, slots: Slots, glossary: Glossary, *,
                     growth: bool = True) -> bool:
    """Whether one named year asks a change or "the <year> average" of one row (a pure function of the
    parse); ``year_before_named`` then reads whether the documents state the year before. ``growth``:
    a growth word asks it too (a figure's question; "why did revenue grow" asks a cause, not the change)."""
    # a period the question's words name (read as typed: 2024年度, a misspelt quarter) is no period assumed
    if any(a.slot is SlotKind.PERIOD and a.typed is None for a in slots.assumptions):
        return False
    if len(slots.periods) == 2:  # "the change between 2018 and 2019 average X": each year's with the year before
        return _averages_of_two_years(arithmetic, slots)
    if len(slots.periods) != 1:
        return False
    named = slots.periods[0]
    if named.period_type != "FY" or not named.period.isdigit():
        return False
    if arithmetic.average and arithmetic.growth:  # each growth averaged runs from the year before the one named
        return len(slots.metrics) == 1 and len(slots.channels) == 1 and not arithmetic.change
    if len(slots.metrics) not in (1, 2) or len(slots.entities) != 1 or len(slots.channels) != 1:
        return False
    text = normalize_text(question).lower()
    if _HOW_MANY.search(text):
        return False
    if len(slots.metrics) == 2:  # "the difference between 2019 average A and 2019 average B": each its year's
        years = [m.group(1) for m in _YEAR_AVERAGE.finditer(text)]
        other = (arithmetic.ratio or arithmetic.cagr or arithmetic.add or arithmetic.consistency
                 or arithmetic.share_of or arithmetic.period_sum)
        return not other and arithmetic.averages == 2 and years == [named.period, named.period]
    other = (arithmetic.ratio or arithmetic.cagr or arithmetic.subtract or arithmetic.add or arithmetic.entity_gap
             or arithmetic.consistency or arithmetic.share_of or _sums_asked(question, arithmetic, glossary))
    if other:
        return False
    if arithmetic.average:
        return arithmetic.averages == 1 and any(m.group(1) == named.period for m in _YEAR_AVERAGE.finditer(text))
    grows = growth and _GROWTH.search(text) is not None
    if _CHANGE_WORD.search(text) is None and not grows:  # no change word anywhere: no names to blank to look
        return False
    own = glossary.leftover(question, glossary.scan(question)).lower()
    return _CHANGE.search(own) is not None or (grows and _GROWTH.search(own) is not None)


def _averages_of_two_years(arithmetic: Arithmetic, slots: Slots) -> bool:
    """Whether two fiscal years named are each a year's average of one row whose change is asked: the years
    ``arithmetic.spans`` reads (each with the year before it) are the two named, no percentage."""
    if not (arithmetic.average and arithmetic.change) or arithmetic.percent or len(arithmetic.spans) != 2:
        return False
    if len(slots.metrics) != 1 or len(slots.entities) != 1 or len(slots.channels) != 1:
        return False
    later = {span[1] for span in arithmetic.spans}
    return all(p.period_type == "FY" and p.period in later for p in slots.periods) and len(later) == 2


def year_before_named(slots: Slots, *, facts: FactStore,
                      max_sensitivity: Sensitivity = Sensitivity.CONFIDENTIAL) -> Slots | None:
    """The slots over each year named and the year before it, for a question ``asks_year_before`` accepts,
    when the documents state all those years for every row and entity asked; else None."""
    channel = slots.channels[0]
    wanted = {p.period for p in with_year_before(slots).periods}
    for metric in slots.metrics:
        for entity in slots.entities:
            stated = {f.period for f in facts.find(metric_code=metric, entity=entity)
                      if f.channel == channel and f.period_type == "FY" and f.sensitivity <= max_sensitivity}
            if not wanted <= stated:
                return None
    return with_year_before(slots)


def with_year_before(slots: Slots) -> Slots:
    """The slots over each year named and the year before it, in time order."""
    years = sorted({int(p.period) - back for p in slots.periods for back in (1, 0)})
    return replace(slots, periods=tuple(Period.fiscal_year(year) for year in years))


# two years joined by a range word, as ``period_words.with_ranges`` reads a range: "2017 to 2019", 2017年至2019年
_RANGE = LazyPattern(r"(?<![\w])(?:fy\s?)?(\d{4})\s*(?:财年|財年|年度|年)?\s*"
                     r"(?:to|through|thru|until|-|–|—|~|〜|～|至|到|から|より|ー)\s*(?:fy\s?)?(\d{4})(?!\d)")


def asks_range_ends(question: str, arithmetic: Arithmetic, slots: Slots, glossary: Glossary) -> bool:
    """Whether a change of one row is asked across a range of three years or more the question writes, so
    it is between the range's two ends (a pure function of the parse; ``range_ends`` gives the slots)."""
    if any(a.slot is SlotKind.PERIOD for a in slots.assumptions) or len(slots.periods) < 3:
        return False
    if any(p.period_type != "FY" or not p.period.isdigit() for p in slots.periods):
        return False
    if len(slots.metrics) != 1 or len(slots.entities) != 1 or len(slots.channels) != 1:
        return False
    text = normalize_text(question).lower()
    if _HOW_MANY.search(text):
        return False
    other = (arithmetic.average or arithmetic.ratio or arithmetic.cagr or arithmetic.subtract or arithmetic.add
             or arithmetic.entity_gap or arithmetic.consistency or arithmetic.share_of or arithmetic.period_sum)
    if other or _CHANGE.search(glossary.leftover(question, glossary.scan(question)).lower()) is None:
        return False
    ends = (slots.periods[0].period, slots.periods[-1].period)
    return any((m.group(1), m.group(2)) == ends for m in _RANGE.finditer(text))


def range_ends(slots: Slots) -> Slots:
    """The slots over the first and last year of the range ``asks_range_ends`` read."""
    return replace(slots, periods=(slots.periods[0], slots.periods[-1]))
