"""Surface forms of one value, as a model might write it: for property tests, the fake models and the eval.

Each form takes a non-negative Decimal and returns its spelling, or None when the form cannot
spell that value exactly (1.2万 needs a multiple of 100; English words need an integer).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import cn2an

Form = Callable[[Decimal], str | None]

_FULL_WIDTH = str.maketrans("0123456789,.%", "０１２３４５６７８９，．％")
_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def plain(value: Decimal) -> str:
    """1320, 7.4"""
    return format(value.normalize(), "f")


def _integer(value: Decimal) -> int | None:
    return int(value) if value == value.to_integral_value() else None


def grouped(value: Decimal) -> str | None:
    """12,000 (integers of four digits or more)."""
    number = _integer(value)
    return f"{number:,}" if number is not None and number >= 1000 else None


def full_width(value: Decimal) -> str:
    """１２，０００ / ７．４％ written with full-width digits and separators."""
    return (grouped(value) or plain(value)).translate(_FULL_WIDTH)


def signed(value: Decimal) -> str:
    """−7.4 (a minus sign: the check compares magnitudes)."""
    return "−" + plain(value)


def percent(value: Decimal) -> str:
    return plain(value) + "%"


def per_mille(value: Decimal) -> str:
    return plain(value) + "‰"


def chinese(value: Decimal) -> str | None:
    """八十七, 一万二千三百四十五, 七点四 (cn2an's own spelling, so the test does not share the reader's code)."""
    if value < 2:
        return None  # 一 alone is never read: see ragspine.numbers.reader
    return str(cn2an.an2cn(plain(value), "low"))


def chinese_percent(value: Decimal) -> str | None:
    spelled = chinese(value)
    return None if spelled is None else "百分之" + spelled


def _scaled(value: Decimal, scale: int, word: str, places: int) -> str | None:
    if value < scale:
        return None
    mantissa = value / scale
    return f"{plain(mantissa)}{word}" if mantissa == round(mantissa, places) else None


def wan(value: Decimal) -> str | None:
    """1.2万"""
    return _scaled(value, 10**4, "万", 2)


def yi(value: Decimal) -> str | None:
    """3.5亿"""
    return _scaled(value, 10**8, "亿", 2)


def oku(value: Decimal) -> str | None:
    """480億 (Japanese)"""
    return _scaled(value, 10**8, "億", 2)


def million(value: Decimal) -> str | None:
    """4.3 million"""
    return _scaled(value, 10**6, " million", 3)


def billion(value: Decimal) -> str | None:
    """2 billion"""
    return _scaled(value, 10**9, " billion", 3)


def english(value: Decimal) -> str | None:
    """eighty-seven, twelve thousand three hundred (integers from 2 below a billion)."""
    number = _integer(value)
    if number is None or not 2 <= number < 10**9:
        return None
    return _spell(number)


def _spell(number: int) -> str:
    if number < 20:
        return _ONES[number]
    if number < 100:
        tens, ones = divmod(number, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    for size, word in ((10**6, "million"), (1000, "thousand"), (100, "hundred")):
        if number >= size:
            head, rest = divmod(number, size)
            return f"{_spell(head)} {word}" + (f" {_spell(rest)}" if rest else "")
    raise AssertionError(number)


FORMS: dict[str, Form] = {
    "plain": plain, "grouped": grouped, "full_width": full_width, "signed": signed, "percent": percent,
    "per_mille": per_mille, "chinese": chinese, "chinese_percent": chinese_percent, "wan": wan, "yi": yi,
    "oku": oku, "million": million, "billion": billion, "english": english,
}


def spellings(value: Decimal) -> dict[str, str]:
    """Every form that can spell ``value`` exactly, by name."""
    out = {name: form(value) for name, form in FORMS.items()}
    return {name: text for name, text in out.items() if text is not None}
