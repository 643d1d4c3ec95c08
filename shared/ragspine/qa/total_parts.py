"""The part of a total row a share question names in other words: "what percentage of the total unrealized
gain is generated from U.S. government obligations".

The total (``Total unrealized gains``) is named as written; the part is named by its item alone
(``U.S. government obligations``), which several sections of the table hold (``Unrealized gains:``,
``Unrealized losses:``, ``Fair value:``). The part of a total is the row under the section the
total's own words name, so that row is read, and only when exactly one row is such.
"""

from __future__ import annotations

from dataclasses import replace

from ragspine.facts.glossary import Glossary
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of
from ragspine.lazy import LazyPattern
from ragspine.qa.label_words import label_readings, label_words
from ragspine.qa.near_miss import NearMiss
from ragspine.qa.total_rows import is_a_total

# A share of a whole asked: "the percentage of", "what proportion of", "the share of"
_SHARE = LazyPattern(r"(?<![a-z])(?:percentage|percent|proportion|share|fraction)\s+of(?![a-z])")


def part_of_the_total_read(norm: str, leftover: str, glossary: Glossary, metrics: tuple[str, ...]) -> NearMiss | None:
    """The one document row the leftover words name under the section of the one total row read, else None.

    ``norm`` is the normalised question, ``leftover`` the same with every mention blanked and
    ``metrics`` the rows read as written: one open total row, in a question asking a share.
    """
    if len(metrics) != 1 or not metrics[0].startswith(METRIC_PREFIX) or not is_a_total(metrics[0]) \
            or not _SHARE.search(norm):
        return None
    # the words asking the share ("what share of") name no row: the first such words blanked, positions kept (a
    # row's own "share of profit" later in the question stays)
    asking = _SHARE.search(leftover)
    if asking is not None:
        leftover = f"{leftover[:asking.start()]}{' ' * len(asking.group())}{leftover[asking.end():]}"
    readings = label_readings(norm, leftover, glossary)
    if len(readings) != 1:
        return None
    whole = label_words(label_of(metrics[0]))
    parts = [reading for reading in readings[0].readings if reading.code != metrics[0]
             and _section_words(label_of(reading.code)) <= whole and _section_words(label_of(reading.code))]
    return replace(readings[0], readings=(parts[0],)) if len(parts) == 1 else None


def _section_words(label: str) -> set[str]:
    """The words of a row's section (``unrealized gains: u.s. government obligations`` -> {unrealized, gain})."""
    return label_words(label.rpartition(": ")[0])
