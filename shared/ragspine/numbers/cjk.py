"""Chinese and Japanese numerals to values (cn2an, imported on first use: it costs ~0.2 s)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Any

from ragspine.lazy import LazyPattern

# Values of the scale characters that follow an Arabic number (1.2万, 480億, 4800百万).
SCALES = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12}
DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
          "六": 6, "七": 7, "八": 8, "九": 9}
# Japanese writes 千二百 and 三万千 without the 一 that cn2an expects before 百 and 千.
_BARE_HUNDREDS = LazyPattern(r"(^|[万亿兆])(?=[百千])")
_SPELLING = str.maketrans({"萬": "万", "億": "亿", "兩": "两"})


@cache
def _converter() -> Any:
    import cn2an  # noqa: PLC0415  (lazy: only texts with CJK numerals pay for it)

    return cn2an


def cjk_value(run: str) -> Decimal | None:
    """The value of a CJK numeral run (八十七, 一万二千三百四十五, 千二百, 二十三点五), or None.

    None means the run is not one well-formed number (万一, 千万万); the reader then
    reads its digit characters one by one, so an odd spelling never hides a figure.
    """
    text = _BARE_HUNDREDS.sub(r"\1一", run.translate(_SPELLING))
    try:
        value = _converter().cn2an(text, "normal")
    except (ValueError, KeyError, IndexError, TypeError):  # cn2an reports a malformed numeral as ValueError
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None
