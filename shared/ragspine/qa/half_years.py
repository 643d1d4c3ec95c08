"""A half year read as its two fiscal quarters: "H1 2024", "first half of 2024", 2024年上半年, 2025年3月期上期.

Facts are kept by fiscal year and quarter. A half year of figures over a period (sales, profit: the
glossary's additive metrics) is the sum of its two quarters: the question's period becomes those two
quarters, the sum is computed and cited like any sum of periods, and the answer says the reading and
the months it rests on. A half year of a balance or a ratio is no sum of quarters, so it stays a period
the service cannot read and is asked back.
"""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, Period, SlotKind, normalize_text
from ragspine.lazy import LazyPattern
from ragspine.qa.month_periods import PeriodReading, months_of

_SECOND = LazyPattern(r"下半年|下半期|下期|h2|second")
# The words that make a year a half of it: what is left is the year.
HALF_WORDS = LazyPattern(r"上半年|下半年|上半期|下半期|上期|下期"
                         r"|(?:(?<![a-z])h[12](?![a-z])|(?:first|second)\s+half)(?:\s+of)?(?:\s+the)?")


def half_quarters(words: str, glossary: Glossary) -> tuple[PeriodReading, PeriodReading] | None:
    """The two fiscal quarters the half year ``words`` names (as ``half_year`` quotes them from the question
    read so far), each with its months; None when its year cannot be read."""
    text = normalize_text(words)
    year = glossary.normalize_period(HALF_WORDS.sub(" ", text).strip())
    if year is None or year.period_type != "FY":
        return None
    second = _SECOND.search(text) is not None
    calendar = glossary.fiscal_calendar
    first_month = calendar.end_month % 12 + 1
    start_year = int(year.period) - (1 if calendar.named_by == "end" and calendar.end_month != 12 else 0)
    quarters = [Period("Q", f"{year.period}Q{n}") for n in ((3, 4) if second else (1, 2))]
    readings = []
    for offset, quarter in zip((6, 9) if second else (0, 3), quarters, strict=True):
        month = first_month - 1 + offset
        readings.append(PeriodReading(words, quarter, months_of(start_year + month // 12, month % 12 + 1, 3)))
    return readings[0], readings[1]


def sums_over_a_half(metrics: tuple[str, ...], glossary: Glossary) -> bool:
    """Whether every metric named is a figure over a period the glossary lets add up (a half year's sum)."""
    terms = glossary.terms[SlotKind.METRIC]
    return bool(metrics) and all(code in terms and terms[code].additive for code in metrics)
