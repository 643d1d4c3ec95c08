"""Financial statement titles: which statement a heading names ("Consolidated Balance Sheets").

The PDF layout uses it to keep a statement's title at the head of its page's heading trail;
chunking tags every passage under such a heading ``statement:<kind>``, so a question naming
"the balance sheet" can ask for those passages (``retrieval.pipeline``) on either index.
Titles are read on their letters alone: PDFium sometimes splits a word ("Balance Shee t").
"""

from __future__ import annotations

import re

TAG_PREFIX = "statement:"
STATEMENT_KINDS = ("balance_sheet", "income", "cash_flows", "equity", "comprehensive_income")
_TITLE = re.compile(r"^(the)?(consolidated|combined|condensed)*(statements?of[a-z]+|balancesheets?)(continued)?$")
# A title may go on with the registrant on the same line ("Consolidated Balance Sheets Corning
# Incorporated and Subsidiary Companies"): capitalised words, then "and (its) Subsidiaries".
_REGISTRANT = re.compile(r"(?:[A-Z][\w.,&'’-]*\s+){1,6}and\s+(?:its\s+)?Subsidiar(?:y|ies)(?:\s+Companies)?")
_MAX_CHARS = 80
# First match wins: "comprehensive income" before "income", "cash flows" before anything.
_KINDS = (("cashflow", "cash_flows"), ("balancesheet", "balance_sheet"), ("financialposition", "balance_sheet"),
          ("comprehensive", "comprehensive_income"), ("equity", "equity"), ("income", "income"),
          ("operations", "income"), ("earnings", "income"))


def is_statement_title(text: str) -> bool:
    """Whether a whole line is a financial statement's title (spacing and case aside)."""
    if len(text) > _MAX_CHARS:
        return False
    return any(_TITLE.match(_letters(title)) for title in _without_registrant(text))


def statement_kind(text: str) -> str | None:
    """``balance_sheet``, ``income``, ``cash_flows``, ``equity`` or ``comprehensive_income`` for a title; else None."""
    if not is_statement_title(text):
        return None
    letters = _letters(text)
    return next((kind for key, kind in _KINDS if key in letters), None)


def statement_tags(heading_path: tuple[str, ...]) -> tuple[str, ...]:
    """The ``statement:<kind>`` tags of a heading trail (usually none or one)."""
    kinds = (statement_kind(heading) for heading in heading_path)
    return tuple(dict.fromkeys(f"{TAG_PREFIX}{kind}" for kind in kinds if kind))


def _without_registrant(text: str) -> list[str]:
    """The line, then the line without each trailing run of words that names a registrant."""
    words = text.split()
    tails = (i for i in range(len(words) - 1, 0, -1) if _REGISTRANT.fullmatch(" ".join(words[i:])))
    return [text, *(" ".join(words[:i]) for i in tails)]


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())  # digits kept: a contents line "... Sheets 52" is no title
