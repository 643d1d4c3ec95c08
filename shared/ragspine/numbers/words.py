"""English number words to values (text2num, imported on first use)."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

UNITS = ("zero", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
         "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
SCALE_WORDS = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
# "one" is read inside a longer number (one hundred) but never alone: alone it is a pronoun as
# often as a figure ("one of the reasons"), as 一 is in 一个/一家.
WORDS = (*UNITS, "one", *SCALE_WORDS)


@cache
def _converter() -> Any:
    from text_to_num import text2num  # type: ignore[import-untyped]  # noqa: PLC0415  (lazy: only texts with number words pay for it)

    return text2num


def word_value(phrase: str) -> Decimal | None:
    """The value of a run of English number words ("eighty-seven", "one thousand two hundred"), or None."""
    words = phrase.lower().replace("-", " ").split()
    words = [w for w in words if w != "and"]
    if words and words[0] in SCALE_WORDS:
        words.insert(0, "one")  # "a hundred", "thousand" after "a": text2num wants the multiplier
    try:
        return Decimal(int(_converter()(" ".join(words), "en")))
    except ValueError:
        return None
