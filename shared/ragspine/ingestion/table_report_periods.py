"""Column words of a report that name its period by reference, not by date.

Chinese and Japanese quarterly and annual reports head their figure columns with fixed words:
``本报告期`` (this reporting period: the quarter or year the report's title names), ``本报告期末``
(its end), ``年初至报告期末`` (the year to date: January to the quarter's end), ``上年同期`` (the same
period a year before), ``上年度末`` (last year's end). The first two are the report's own period,
read from its title like any heading over a period column; the others are other periods the
column names no date of, so their figures are never filed under the report's period. English
reports write ``Year to date`` / ``YTD`` the same way, and a heading of a part of a year (``Nine
Months Ended June 30,``) over a year column makes that column no fiscal year's figure.
"""

from __future__ import annotations

import re

from ragspine.facts.glossary import normalize_text

# The report's own period or its end, as the column words write it.
_OWN_PERIOD = re.compile(r"(?:本报告期|本報告期|报告期|報告期|本期|当期|本季度|当四半期|当四半期会計期間)末?")
# Columns of another period than the report's: the year to date, the year before, the start of the year.
_OTHER_PERIOD = re.compile(r"年初至|年初到|上年同期|上年度末|上年末|上期|前期|前年同期|前年度末|前期末|期初|年初"
                           r"|前年同四半期|前連結会計年度|(?<![a-z])(?:year[\s-]*to[\s-]*date|ytd)(?![a-z])")


def names_own_period(norm: str) -> bool:
    """Whether a header (normalised) is only the words for the report's own period (``本报告期``, ``本报告期末``)."""
    return bool(_OWN_PERIOD.fullmatch(norm.strip(" :：")))


def names_other_period(norm: str) -> bool:
    """Whether a header names a period other than the report's without a date (``年初至报告期末``, ``上年同期``)."""
    return bool(_OTHER_PERIOD.search(norm))


# A span shorter than a year written over columns: "12 Weeks Ended", "16 Weeks", "Three Months Ended", "9个月".
_SHORT_SPAN = re.compile(r"(?<![\w.])(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|thirteen"
                         r"|sixteen)[\s-]*(?:weeks?|months?)(?![a-z])|[一二三四五六七八九\d]+\s*(?:个月|か月|ヶ月)")
_WHOLE_YEAR_SPAN = re.compile(r"(?<![\w.])(?:5[23]|twelve|fifty[\s-]*(?:two|three))[\s-]*weeks?|(?<![\w.])(?:12"
                              r"|twelve)[\s-]*months?|12\s*(?:个月|か月|ヶ月)")


def names_part_of_year(text: str) -> bool:
    """Whether a header names a span shorter than a year (``12 Weeks Ended``; never ``52 weeks``, ``12 months``)."""
    norm = normalize_text(text)
    return bool(_SHORT_SPAN.search(_WHOLE_YEAR_SPAN.sub(" ", norm)))
