"""The fiscal year an annual report's title names, for its tables that state no period of their own.

"华辰电子科技股份有限公司2024年年度报告（摘录）", "FY2025 Annual Report", "2024 Form 10-K": the
figures of a table in it with no year in its headers, labels or the text around it are the
report's year. A half-year, quarterly or interim report's title names the year its part is of,
never the year's figures: it dates nothing here.
"""

from __future__ import annotations

import re
import unicodedata

from ragspine.facts.glossary import Glossary, Period, SlotKind

# A title of the year's own report.
_ANNUAL = re.compile(r"年度报告|年度報告|年报|年報|annual\s+report|form\s+10-k|有価証券報告書|統合報告書",
                     re.IGNORECASE)
# A report of part of a year: its title's year is not the period of its figures.
_PART_OF_YEAR = re.compile(r"半年|中期|季度|四半期|一季|三季|interim|half|quarter|10-q|semi", re.IGNORECASE)


def annual_report_year(title: str, glossary: Glossary) -> Period | None:
    """The one fiscal year an annual report's ``title`` names, else None."""
    text = unicodedata.normalize("NFKC", title or "")
    if not _ANNUAL.search(text) or _PART_OF_YEAR.search(text):
        return None
    years = {m.period for m in glossary.scan(text)
             if m.kind is SlotKind.PERIOD and m.period is not None and m.period.period_type == "FY"}
    return years.pop() if len(years) == 1 else None
