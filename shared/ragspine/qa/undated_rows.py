"""Rows of one undated table compared with each other: the one computation an undated figure may enter.

A table stating no period (an acquisition's intangible assets, a schedule of obligations by due
date) is read as facts with no period (``qa/undated.py``), and a question naming none is answered
with them, said so. Such figures are never put beside figures of other tables or documents: nothing
says they are of one period. Rows of the *same* table are another matter: "the difference in fair
value between purchased technology and trademarks", "other intangible assets as a percentage of the
total" compare cells the table states side by side, so whatever period it leaves unsaid, it is the
same for both. Those comparisons (a ratio or a share, a difference, a sum of two rows or more) are
computed, every input cited. An average or a growth rate needs periods, and "total" or "sum" of one
row outside a share or a difference may ask for one figure over periods: those are not.
"""

from __future__ import annotations

from ragspine.citation import numbered_table
from ragspine.facts.glossary import Period
from ragspine.lazy import LazyPattern
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.structured import StructuredOutcome

_NUMBER = LazyPattern(r"\d+(?:\.\d+)?")


def compares_rows(arithmetic: Arithmetic, rows: int) -> bool:
    """Whether the arithmetic asked over ``rows`` metrics compares figures of one period (rows, not periods):
    undated ones may answer."""
    # "total" beside a share or a difference names a row or column ("total net receivables"); alone it may sum
    # one row over periods, but a sum of two rows or more adds rows ("all tax credit carryforwards")
    summed = ((arithmetic.period_sum > 0 or arithmetic.add) and not (arithmetic.ratio or arithmetic.difference)
              and not (arithmetic.add and rows >= 2))
    return arithmetic.computes and not (arithmetic.average or arithmetic.cagr or summed)


def from_one_table(outcome: StructuredOutcome, question: str) -> bool:
    """Whether every figure found is undated and a cell of one table of one document (two at least), in
    cells whose row or column writes every number the question names.

    A number the cells do not write ("low and medium country risk due for 1-90 days past due" read as
    the rows' ``Total`` column) names another column than the one read: nothing is compared.
    """
    facts = [r.fact for r in outcome.results if r.fact is not None]
    if len(facts) < 2 or len(facts) != len(outcome.results):
        return False
    tables = {(f.source_doc_id, _table_of(f.source_locator)) for f in facts}
    undated = all(Period(f.period_type, f.period).undated for f in facts)
    if not undated or len(tables) != 1 or "" in {table for _, table in tables}:
        return False
    written = {n for f in facts for n in _NUMBER.findall(f.source_locator.partition(",row=")[2])}
    return set(_NUMBER.findall(question)) <= written


def _table_of(locator: str) -> str:
    """``table=1`` of ``table=1,row=Other,col=Fair Value Amount`` (``page=3,table=2`` of a PDF's); "" for a
    locator naming no numbered table (never compared)."""
    return numbered_table(locator) or ""
