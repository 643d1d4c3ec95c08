"""The scale a table states nowhere but the text beside it writes its figures with.

An MD&A table often heads no unit ("$24.9 | $33.5 | $(8.6)") while the paragraph about it writes
the same figures with their scale ("decreased $8.6 million to $24.9 million from $33.5 million").
That is the report stating the table's scale: read it, as an analyst would, when at least two of the
table's figures are written in the text exactly as in their cells (same digits, same decimals) with a
money sign and one scale word, one of them written with its money sign in its cell too (bare figures alike may
be another table's the text is about), and no figure of the table is written there with another. A figure the
text rounds ("$24.2 million" beside "$24,193") states nothing: no scale is inferred from a rounding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# "$24.9 million", "€ 1,046 thousand", "$8.6 billion": a money figure the text writes with its scale
_SCALED_MONEY = re.compile(r"(?<![\w.])[$€£]\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*"
                           r"(thousand|million|billion)(?![a-z])", re.IGNORECASE)
# a cell's money figure as written: its sign, brackets and currency dropped (a percentage is none)
_CELL_FIGURE = re.compile(r"^[\s$€£(−-]*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)[\s)]*$")
_SIGN = re.compile(r"[$€£]")
_SCALES = {"thousand": "K", "million": "M", "billion": "B"}
_AT_LEAST = 2  # one figure alike may be chance; two written alike are the text quoting the table
# A row counting people or things: the text's money scale is not its unit
_COUNT_LABEL = re.compile(r"(?i)(?<![a-z])(?:head\s*count|employees|staff|personnel|number\s+of|stores|customers"
                          r"|subscribers|members|locations|units\s+sold|shares)(?![a-z])|人数|従業員|员工|店舗数|门店数")


def _significant(figure: str) -> bool:
    """A figure too plain to match by chance: two digits or more ("0.1" or "2" may be anything)."""
    return sum(char.isdigit() for char in figure.lstrip("0.,")) >= 2


def counts_things(label: str) -> bool:
    """Whether a row's label names a count of people or things ("Headcount", "Number of stores")."""
    return bool(_COUNT_LABEL.search(label))


def restated_scale(cells: Iterable[str], texts: Iterable[str]) -> str:
    """The scale code (``K``, ``M``, ``B``) the texts write the table's figures with, else ""."""
    figures = {match.group(1) for cell in cells if (match := _CELL_FIGURE.match(cell or ""))}
    # figures the table itself writes as money: a text quoting only bare figures may be of another table's
    signed = {match.group(1) for cell in cells if (match := _CELL_FIGURE.match(cell or "")) and _SIGN.search(cell)}
    scales: dict[str, set[str]] = {}
    for text in texts:
        for match in _SCALED_MONEY.finditer(text or ""):
            if match.group(1) in figures and _significant(match.group(1)):
                scales.setdefault(_SCALES[match.group(2).lower()], set()).add(match.group(1))
    if len(scales) != 1:
        return ""
    (scale, quoted), = scales.items()
    return scale if len(quoted) >= _AT_LEAST and quoted & signed else ""
