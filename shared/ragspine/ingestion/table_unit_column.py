"""A tidy table's unit column: ``产品 | 指标 | 期间 | 数值 | 单位`` states each row's unit in a cell of its own.

Such a column holds words, not figures: read as values, each of its cells would be "not a
number". Each row's figure is in the unit its cell names: a money unit (``万元`` is CNY_10K,
``USD million``), a percentage, or a count written without a scale (``台``, ``persons``). A count
written with one (``万套``, ten thousand sets) has no unit the engine states: its figure is
never given without it, so such a row is not read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from ragspine.numbers.units import units_in

# The header of a column of units: 单位, 單位, 単位, Unit, Units, UoM.
_UNIT_HEADER = re.compile(r"(?:计量)?(?:单位|單位|単位)|units?|uom|unit of measure", re.IGNORECASE)
# A scale word inside a unit cell: a count so written (万套, 千件, thousand units) is no plain count.
_SCALE = re.compile(r"[十百千万萬亿億]|thousand|million|billion|\bk\b|\bm\b", re.IGNORECASE)
_MONEY_WORD = re.compile(r"元|円|圆|\$|€|£|¥|dollar|euro|yen|yuan|rmb|usd|eur|jpy|cny|gbp", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]")
MAX_UNIT_CHARS = 16

UNREAD = None  # a row whose unit the engine cannot state


def unit_column(col_headers: Mapping[int, Sequence[str]], rows: Sequence[Sequence[str]],
                body_rows: Sequence[int]) -> int | None:
    """The one value column headed as a unit whose body cells are all short words (or blank), else None."""
    found = [c for c, headers in col_headers.items()
             if headers and _UNIT_HEADER.fullmatch(unicodedata.normalize("NFKC", headers[-1]).strip())]
    if len(found) != 1:
        return None
    column = found[0]
    cells = [rows[r][column].strip() for r in body_rows if column < len(rows[r])]
    written = [cell for cell in cells if cell]
    if not written or not all(len(cell) <= MAX_UNIT_CHARS and _WORD.search(cell) and not re.search(r"\d", cell)
                              for cell in written):
        return None
    return column


def row_unit(text: str, currency: str | None) -> str | None:
    """The unit code a unit cell states ("" when blank or money without a scale); None for a scaled count."""
    text = unicodedata.normalize("NFKC", text).strip()
    if not text:
        return ""
    stated = units_in(text, currency)
    money = _MONEY_WORD.search(text) is not None
    if stated and (money or stated[0] == "PCT" or not _SCALE.search(text)):
        return stated[0]
    if money:
        return ""  # 元 alone: money whose scale the cell does not state, as a table without a unit note
    return UNREAD if _SCALE.search(text) else "COUNT"
