"""The names of a filing's statements in a question are where to look, never a figure asked.

"... by relying on the details shown in the cash flow statement" names no cash balance; "statement
of income", "balance sheet" and "P&L" name no income or balance either. They are taken out of the
question before its slots are read, so "cash" in "cash flow statement" is not the cash metric.
"""

from __future__ import annotations

import re

from ragspine.facts.glossary import normalize_text
from ragspine.lazy import LazyPattern

_STATEMENTS = LazyPattern(
    r"(?<![A-Za-z])(?:(?:consolidated\s+)?statements?\s+of\s+(?:consolidated\s+)?cash\s+flows?"
    r"|cash\s+flows?\s+statements?|(?:consolidated\s+)?statements?\s+of\s+(?:comprehensive\s+)?(?:income|operations)"
    r"|income\s+statements?|balance\s+sheets?|p&l(?:\s+statements?)?)(?![A-Za-z])",
    re.IGNORECASE)
# Every statement's name holds one of these words (NFKC and lower case fold every spelling the pattern takes).
STATEMENT_WORDS = ("statement", "sheet", "p&l")
_NAMES_A_STATEMENT = LazyPattern("|".join(STATEMENT_WORDS))


def without_statement_names(question: str) -> str:
    """``question`` with the names of financial statements blanked (their length kept as spaces)."""
    if not _NAMES_A_STATEMENT.search(normalize_text(question)):
        return question  # most questions: no statement's name, nothing to blank
    return _STATEMENTS.sub(lambda m: " " * len(m.group()), question)
