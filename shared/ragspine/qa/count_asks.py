"""Whether a question asks for a count of periods over a threshold, and which ("How many years did net
sales exceed $200,000 thousand?"); ``qa.counting`` takes the count.

Every structured question is read for one; few ask it: the count itself, its texts and its ``CountAsk``
load with ``qa.counting`` when a question does.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from ragspine.facts.glossary import normalize_text
from ragspine.lazy import LazyModule, LazyPattern

if TYPE_CHECKING:
    from ragspine.qa import counting
    from ragspine.qa.counting import CountAsk
else:
    counting = LazyModule("ragspine.qa.counting")

# Opened by a lookahead on the first characters a match may have: ``re`` tries neither branch elsewhere.
_HOW_MANY = LazyPattern(r"(?=[h几幾多])(?:(?<![a-z])how many (?:of the )?(?:(?P<years>(?:fiscal )?years?)"
                       r"|(?P<quarters>quarters?))(?![a-z])|(?:几|幾|多少)(?:个)?(?:(?P<zh_years>年)"
                       r"|(?P<zh_quarters>季度|四半期)))")
_ABOVE = r"exceed(?:ed|s|ing)?|(?:was |were )?(?:above|over|more than|greater than|higher than)|超过|高于|超える|を超え"
_BELOW = r"(?:was |were )?(?:below|under|less than|lower than)|低于|少于|下回"
_THRESHOLD = LazyPattern(
    rf"(?P<op>{_ABOVE}|{_BELOW})\s*(?:of\s+)?(?P<sign>[-−])?\s*(?:[$€£¥]|usd|us\$|eur|rmb|jpy)?\s*"
    r"(?P<num>\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?P<scale>thousand|million|billion|%|percent|万|億|亿)?(?![\d])")
_BELOW_OP = LazyPattern(rf"^(?:{_BELOW})$")


def read_count(question: str) -> CountAsk | None:
    """The count of periods over a threshold ``question`` asks for, or None."""
    text = normalize_text(question).lower()
    asked = _HOW_MANY.search(text)
    if asked is None:
        return None
    found = threshold_asked(text, asked.end()) or threshold_asked(text)
    if found is None:
        return None
    below, value, scale, written, _ = found
    return counting.CountAsk(quarters=bool(asked["quarters"] or asked["zh_quarters"]), below=below, threshold=value,
                             scale=scale, written=written)


def threshold_asked(text: str, start: int = 0) -> tuple[bool, Decimal, str, str, int] | None:
    """The first threshold ``text`` (normalised, lower case) writes from ``start``: whether below it, its value,
    its scale word ("million", "%", ""), the threshold as written and where its words begin; None if none."""
    found = _THRESHOLD.search(text, start)
    if found is None:
        return None
    try:
        value = Decimal(found["num"].replace(",", ""))
    except InvalidOperation:
        return None
    scale = "%" if found["scale"] == "percent" else found["scale"] or ""
    return (bool(_BELOW_OP.match(found["op"])), -value if found["sign"] else value, scale,
            found.group()[len(found["op"]):].strip(), found.start())


def without_count_words(text: str) -> str:
    """``text`` with the words asking a count blanked ("how many quarters", "lower than $2.00"), same length.

    They ask for the count over a row's periods (``read_count``), so they are no words of the row; a
    text asking no count is returned as it is.
    """
    lowered = text.lower()
    if len(lowered) != len(text) or read_count(text) is None:
        return text
    for pattern in (_HOW_MANY, _THRESHOLD):
        lowered = pattern.sub(lambda match: " " * len(match.group()), lowered)
    return lowered
