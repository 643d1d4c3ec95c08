"""The month a document says its company's fiscal year ends in, when that is not the glossary's.

A subsidiary or a peer on another calendar says so near the top ("Our fiscal year ends on
September 30", "(fiscal year ending September 30)", "财年截至每年9月30日", "9月決算"). Its quarters
are not the glossary's quarters of the same name: "Q3 FY2025" of a year ending in September is
April to June 2025, the glossary's 2025Q3 of a December year is July to September. Such quarter
figures are never filed under the glossary's quarter; its fiscal years keep their name (the year
they end in), as the document writes them.
"""

from __future__ import annotations

import re
import unicodedata

from ragspine.facts.fiscal_dates import MONTH_NUMBERS, MONTH_PATTERN
from ragspine.ingestion.model import BlockKind, ParsedDocument

# How far into a document its calendar is stated: the title and the first paragraphs.
_OPENING_BLOCKS = 8
_EN_YEAR_END = re.compile(rf"fiscal\s+year\s+(?:ends|ending|ended|end)\s+(?:on\s+|in\s+)?(?:the\s+)?"
                          rf"(?:last\s+\w+\s+of\s+)?(?P<month>{MONTH_PATTERN})", re.IGNORECASE)
_CJK_YEAR_END = re.compile(r"(?:财年|会计年度|财政年度|事業年度|決算日)\s*(?:截至|截止|结束于|止于|は|：|:)?"
                           r"\s*(?:每年)?(?P<month>\d{1,2})\s*月|(?P<kessan>\d{1,2})\s*月\s*決算")


def stated_year_end_month(doc: ParsedDocument) -> int | None:
    """The one month the opening of ``doc`` says its fiscal year ends in, else None (none, or several)."""
    texts = [doc.title or ""] + [b.text for b in doc.blocks[:_OPENING_BLOCKS]
                                 if b.kind in (BlockKind.PARAGRAPH, BlockKind.NOTE, BlockKind.TITLE) and not b.rows]
    months: set[int] = set()
    for text in texts:
        text = unicodedata.normalize("NFKC", text)
        for m in _EN_YEAR_END.finditer(text):
            months.add(MONTH_NUMBERS[m.group("month").lower()[:3]])
        for m in _CJK_YEAR_END.finditer(text):
            month = int(m.group("month") or m.group("kessan"))
            if 1 <= month <= 12:
                months.add(month)
    return months.pop() if len(months) == 1 else None


def other_calendar(doc: ParsedDocument, glossary_end_month: int) -> int | None:
    """The month the document's fiscal year ends in, when it states one other than the glossary's."""
    month = stated_year_end_month(doc)
    return month if month is not None and month != glossary_end_month else None
