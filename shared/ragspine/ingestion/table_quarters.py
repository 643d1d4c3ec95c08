"""Quarters written over two header rows under one fiscal year: ``Fiscal 2019`` over ``Second`` over ``Quarter``.

Annual reports set a year's quarterly figures under the year written once (centred over its
columns, so in one cell of its row), each quarter's name broken over two rows. Each such column
is that quarter of the year; a column of the year's ``Total`` stays the year's. Only an ordinal
(``First`` … ``Fourth``, ``1st`` … ``4th``) with the word ``Quarter`` counts: any other word in
the column's headers leaves it as the reader found it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragspine.facts.glossary import normalize_text

_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_QUARTER = re.compile(rf"({'|'.join(_ORDINALS)})\s+(?:fiscal\s+)?quarter")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")


# A quarter written alone as a column's header: Q1, 1Q, First Quarter, 第1四半期, 第一季度.
_BARE_QUARTER = re.compile(r"q(?P<a>[1-4])|(?P<b>[1-4])q|(?P<c>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
                           r"|第?(?P<d>[1-4一二三四])\s*(?:四半期|季度)")
_CJK_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4}
# The column of the year's own figure beside its quarters: Total, 合计, Full year, 全年, 通期.
_YEAR_TOTAL = re.compile(r"total|full[\s-]year|合计|合計|小计|小計|全年度?|通期|通年")


# The months a quarter's header spells out after it: "第一季度（1-3月份）", "第2四半期（7～9月）".
_MONTHS_NOTE = re.compile(r"\s*[(（]\s*(?P<start>\d{1,2})\s*月?\s*[-–~～至]\s*(?P<end>\d{1,2})\s*月份?\s*[)）]\s*$")


def bare_quarter(text: str, end_month: int = 12) -> int | None:
    """The quarter (1–4) a header names alone, with no year (``Q2``, ``Second Quarter``, ``第2四半期``), else None.

    A note of the quarter's months (``第一季度（1-3月份）``) must be that quarter's months in a fiscal
    year ending in ``end_month``: months of another calendar leave the header unread.
    """
    norm = " ".join(normalize_text(text).split())
    months = _MONTHS_NOTE.search(norm)
    if months is not None:
        norm = norm[:months.start()]
    match = _BARE_QUARTER.fullmatch(norm)
    if match is None:
        return None
    if match["c"]:
        quarter = _ORDINALS[match["c"]]
    else:
        digit = match["a"] or match["b"] or match["d"]
        quarter = _CJK_DIGITS.get(digit) or int(digit)
    if months is not None:
        start = (end_month + 3 * (quarter - 1)) % 12 + 1
        if (int(months["start"]), int(months["end"])) != (start, (start + 1) % 12 + 1):
            return None
    return quarter


def is_year_total(text: str) -> bool:
    """Whether a header beside bare quarters is the year's own figure (``Total``, ``全年``, ``通期``)."""
    return _YEAR_TOTAL.fullmatch(" ".join(normalize_text(text).split())) is not None


def is_ordinal(text: str) -> bool:
    """Whether a header is a quarter's ordinal alone (``Second``, ``2nd``)."""
    return normalize_text(text).strip() in _ORDINALS


def stacked_quarter(headers: Sequence[str]) -> int | None:
    """The quarter (1–4) a column's headers name once joined, the year's own text aside; None for any other words."""
    words = " ".join(normalize_text(h).strip() for h in headers if h.strip() and not _YEAR.search(h))
    match = _QUARTER.fullmatch(" ".join(words.split()))
    return _ORDINALS[match.group(1)] if match else None


# Words saying a table is laid out by quarter ("2024年分季度主要财务数据", "quarterly net sales"), not of one quarter.
_BY_QUARTER = re.compile(r"分季度|各季度|按季度|季度别|四半期別|四半期毎|四半期ごと"
                         r"|(?<![a-z])(?:by\s+quarter|quarterly)(?![a-z])", re.I)


def without_by_quarter(text: str) -> str:
    """``text`` without the words saying its table is set out by quarter, so the year it names reads alone."""
    return _BY_QUARTER.sub(" ", text)
