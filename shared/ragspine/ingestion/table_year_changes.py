"""A table of changes between two years: ``Change between fiscal`` over ``2019 and 2018 | 2018 and 2017``.

Such a column states how much each row moved from the earlier year to the later one: its figures are
facts of that change, never of either year. Read as such only where every value column of the table is
one (a table of changes, no year's own figures beside them), each writing two different years joined
by "and", "vs" or "compared to", and a header says they are changes ("change", "increase (decrease)").
Each column is then named by its change, earlier year first: ``change from 2018 to 2019``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ragspine.facts.glossary import normalize_text

# Two years a change is between: "2019 and 2018", "2019 vs. 2018", "2018 compared to 2019", "2019 vs 2018 change".
_FISCAL = r"(?:fiscal\s+(?:years?\s+)?)?"
_YEAR_PAIR = re.compile(rf"{_FISCAL}(?P<a>(?:19|20)\d{{2}})\s+(?:and|vs\.?|versus|compared\s+(?:to|with))"
                        rf"\s+{_FISCAL}(?P<b>(?:19|20)\d{{2}})(?:\s+change)?")
_CHANGE_WORD = re.compile(r"(?<![a-z])(?:change|changes|increase\s*\(?(?:/|and)?\s*\(?decrease\)?)(?![a-z])")
_PERCENT = re.compile(r"%|percent")


def year_pair_changes(col_headers: Mapping[int, Sequence[str]]) -> dict[int, str]:
    """``column -> "change from <earlier> to <later>"`` for a table whose every value column is such a change,
    else {} (a table with any other column, or no header saying the columns are changes)."""
    if not col_headers:
        return {}
    named: dict[int, str] = {}
    for c, headers in col_headers.items():
        last = " ".join(normalize_text(headers[-1]).split()) if headers else ""
        match = _YEAR_PAIR.fullmatch(last)
        if match is None or match["a"] == match["b"] or any(_PERCENT.search(normalize_text(h)) for h in headers):
            return {}
        earlier, later = sorted((int(match["a"]), int(match["b"])))
        named[c] = f"change from {earlier} to {later}"
    said = any(_CHANGE_WORD.search(normalize_text(h)) for headers in col_headers.values() for h in headers)
    return named if said and len(set(named.values())) == len(named) else {}
