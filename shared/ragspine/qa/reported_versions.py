"""A figure asked "as previously reported" is never answered with the restated figure.

Facts keep one figure per entity, metric and period: the comparatives a later report shows, restated
or not. The figure first published (the "As previously reported" column of a restatement note, or the
earlier report's own figure) is not kept apart from them, so a question asking that earlier version
would be answered with another figure, and a wrong number is worse than none. The answer says so,
with no number. "As reported" alone is not such a question: it is also the column of a figure under
the old standard beside its adjusted balance (ASC 606 adoption tables), which a table states.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from ragspine.facts.glossary import normalize_text
from ragspine.lazy import LazyPattern
from ragspine.qa.language import Lang

EARLIER_VERSION = LazyPattern(
    r"(?<![a-z])(?:previously|originally|initially|first)\s+(?:reported|published|stated)(?![a-z])"
    r"|(?<![a-z])(?:before|prior\s+to|without)\s+(?:the\s+|its\s+|any\s+)?restatements?(?![a-z])"
    r"|(?<![a-z])(?:pre-?restatement|unrestated|not\s+restated)(?![a-z])"
    r"|遡及修正前|遡及適用前|遡及処理前|修正再表示前|組替前|組替え前|訂正前|重述前|追溯调整前|追溯重述前|调整前",
    re.IGNORECASE)

_TEXT = MappingProxyType({
    Lang.ZH: "问题所问的是重述前（原先报告）的数值（“{words}”）：资料库只保留各期一个数值，不区分原先报告的数值与"
             "重述后的数值，因此不提供数值，以免把重述后的数值当作所问的数值。",
    Lang.EN: "The question asks for the figure as first reported, before a restatement (\"{words}\"): the facts keep "
             "one figure per period and do not keep the previously reported one apart from the restated one, so no "
             "value is given rather than the restated figure in its place.",
    Lang.JA: "質問は遡及修正前（当初報告）の数値（「{words}」）を求めていますが、"
             "ファクトは各期間に一つの数値のみを保持し、当初報告の数値と修正後の数値を区別していないため、修正後の数値で代えず、数値は示しません。",
})


def earlier_version_unanswered(question: str, lang: Lang) -> str | None:
    """The line saying the earlier version of a figure is not kept, when ``question`` asks for it; else None."""
    text = normalize_text(question)
    match = EARLIER_VERSION.search(text)
    if match is None:
        return None
    return _TEXT[lang].format(words=match.group())

