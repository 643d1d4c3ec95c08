"""A table cell as the one number it states, in the notations annual reports use.

Negatives as ``(1,234)``, ``($76)``, ``(12%)``, ``△1,234``, ``▲1,234``, ``−1,234``, ``-1,234`` and ``1,234−``;
footnote marks (``※1``, ``*2``, ``†``, ``‡``, ``(注1)``) and currency signs (``$``, ``¥``,
``€``, ``£``) around the figure are dropped; a trailing ``%`` marks a percentage. The value
keeps the form written: ``1,320`` stays the int 1320 and ``36.0`` the float 36.0. Anything
else (two numbers, words, a date) is not a cell figure and gives None: a wrong value is
worse than none.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Footnote marks: ※1, *2, †, ‡, §, (注1), (1) after a label, superscript digits.
FOOTNOTE = re.compile(r"(?:※\s*\d*|\*+\s*\d*|[†‡§¶]+\s*\d*|[(（]\s*(?:注|note)\s*\d*\s*[)）]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)",
                      re.IGNORECASE)
_MARK_CHARS = frozenset("※*†‡§¶注Nn¹²³⁴⁵⁶⁷⁸⁹⁰")
_NUMBER = re.compile(
    r"^(?P<lead>[-−–△▲+]?)\s*(?P<cur>[$¥€£]|US\$|HK\$|RMB|CHF)?\s*(?P<open>[(（])?\s*"
    r"(?P<lead2>(?<=[(（])-\s*)?(?P<cur2>(?<=[(（\s-])(?:[$¥€£]|US\$|HK\$)\s*)?"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)\s*(?P<pct2>%\s*(?=[)）]))?(?P<close>[)）])?\s*"
    r"(?P<pct>%)?\s*(?P<trail>[-−])?$")
_BLANKS = frozenset({"", "-", "–", "—", "−", "n/a", "na", "n.a.", "/", "*", "…", "nm", "n.m.", "―"})


@dataclass(frozen=True, slots=True)
class CellNumber:
    """A cell's figure as written (sign applied) and whether it was written as a percentage."""

    value: int | float
    percent: bool


def strip_footnotes(text: str) -> str:
    """A label or cell without its footnote marks (``売上高※1`` -> ``売上高``)."""
    if not _MARK_CHARS.intersection(text):  # the usual cell: no mark, no regex
        return " ".join(text.split())
    return " ".join(FOOTNOTE.sub(" ", text).split())


def is_blank(text: str) -> bool:
    """True for a cell meaning "no figure" by convention (empty, dash, n/a)."""
    return normalise_cell(text).lower() in _BLANKS


def normalise_cell(text: str) -> str:
    """NFKC (full-width digits and signs become ASCII) with footnote marks and outer spaces removed."""
    # Marks go before NFKC too: it would turn a superscript ¹ into a digit of the figure.
    return strip_footnotes(unicodedata.normalize("NFKC", strip_footnotes(text))).strip()


def read_cell(text: str) -> CellNumber | None:
    """The one number a cell states, or None when it states none or more than one."""
    match = _NUMBER.match(normalise_cell(text))
    if match is None or bool(match["open"]) != bool(match["close"]) or (match["pct2"] and not match["open"]):
        return None
    if match["cur"] and match["cur2"] or match["lead2"] and not match["cur2"] or match["pct"] and match["pct2"]:
        return None  # "$($76)", "(-76)", "(12%)%": no notation anyone uses
    negative = bool(match["open"]) or match["lead"] in ("-", "−", "–", "△", "▲") or bool(match["trail"])
    if match["lead"] and match["trail"]:
        return None  # "-12-" is no notation anyone uses
    digits = match["digits"].replace(",", "")
    value: int | float = int(digits) if "." not in digits else float(digits)
    return CellNumber(-value if negative else value, bool(match["pct"] or match["pct2"]))
