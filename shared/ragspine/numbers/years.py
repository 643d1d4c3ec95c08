"""The years a text names, however it writes them: FY2024, 2024年, 2024财年 and 2024年度 are all 2024."""

from __future__ import annotations

from ragspine.lazy import LazyPattern
from ragspine.numbers.reader import normalise

# Compiled on first use: every process imports this with the offline narrative model, and a structured ask reads none.
_YEAR = LazyPattern(r"(?<!\d)(?:FY|财年|財年)?\s?((?:19|20)\d{2})(?!\d)")


def years(text: str) -> frozenset[str]:
    """The years a text names (FY2024, 2024年, 2024财年 -> "2024"), NFKC first."""
    return frozenset(_YEAR.findall(normalise(text)))
