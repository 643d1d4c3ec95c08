"""A column stating each row's share of a whole beside its amounts: ``Net Sales | % of Total`` under one year.

Such a column is the row's share of the whole it names (the total of the amounts beside it, or
the revenue or net sales it says), for the period its block is dated by. Its figures are read as
the share stated, a fact of its own (``net sales: APAC, percent of total``) beside the amount's
(``net sales: APAC``), so a question asking that share gets the figure the table states, never
one recomputed from rounded amounts. The share's words close the row's own (a question naming
the row alone, "net sales in EMEA", names the amount). Read so only where one column of the same
upper headers is read as a kind of figure: the share is of that kind's row.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

# "% of Total", "% of revenue", "% of net sales", "Percent of total revenues", "As a % of sales"
_SHARE_OF = re.compile(r"(?i)\s*(?:as\s+a\s+)?(?:%|percent(?:age)?)\s+of\s+(?:the\s+)?"
                       r"(?P<whole>total|(?:total\s+)?(?:net\s+sales|sales|(?:net\s+)?revenues?))\s*")


def stated_share_columns(col_headers: Mapping[int, Sequence[str]],
                         kinds: Mapping[int, str]) -> dict[int, tuple[str, str]]:
    """The share columns of this module's docstring, each with the kind beside it and the share's words
    (``("Net Sales", "percent of total")``)."""
    found: dict[int, tuple[str, str]] = {}
    for c, headers in col_headers.items():
        share = _SHARE_OF.fullmatch(headers[-1]) if headers and c not in kinds else None
        if share is None:
            continue
        beside = {kinds[d] for d, other in col_headers.items()
                  if d in kinds and other and tuple(other[:-1]) == tuple(headers[:-1])}
        if len(beside) == 1:
            found[c] = (beside.pop(), "percent of " + " ".join(share.group("whole").split()).lower())
    return found

