"""A stated figure of a formula metric at the precision the question asks ("to the nearest whole number").

A stated figure wins over the computed one, at the decimals it is written with. When the question
asks for a precision:

* **as many decimals or fewer** than the stated figure has: the stated figure rounded (half up) to
  them, and the answer says it rounded the stated figure ("9.9 stated" is 10 "to the nearest whole
  number"). A stated figure lying exactly half-way at the precision asked (9.5 for a whole number)
  may have been 9.46 or 9.54 before it was written: the computed figure decides, when the two agree;
* **more decimals** than the stated figure has ("to two decimal places" of a stated 9.9): the
  computed figure, when it agrees with the stated one within the stated rounding, to those decimals
  with its inputs, and the stated figure said beside it; when nothing agreeing can be computed, the
  stated figure as written, and a line saying it has fewer decimals than asked.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from types import MappingProxyType

from ragspine.citation import citation
from ragspine.facts.model import Fact, format_number
from ragspine.qa.language import Lang
from ragspine.qa.structured import format_decimal

_TEXT = MappingProxyType({
    Lang.ZH: MappingProxyType({
        "rounded": "{what}：{value} {unit}（按所问位数对公布数 {stated} {unit} 四舍五入）{cited}",
        "beside": "公布数为 {stated} {unit}，小数位少于所问{cited}",
        "fewer": "公布数的小数位少于所问，且无法计算出与之相符的更精确数值。",
    }),
    Lang.EN: MappingProxyType({
        "rounded": "{what}: {value} {unit} (the stated {stated} {unit}, rounded as asked){cited}",
        "beside": "The documents state {stated} {unit}, to fewer decimals than asked{cited}",
        "fewer": "The stated figure has fewer decimals than asked, and no figure agreeing with it can be computed "
                 "to more.",
    }),
    Lang.JA: MappingProxyType({
        "rounded": "{what}：{value} {unit}（公表値 {stated} {unit} を指定の桁に四捨五入）{cited}",
        "beside": "公表値は {stated} {unit}（指定より少ない桁）{cited}",
        "fewer": "公表値は指定より少ない桁で、これと整合するより詳しい値は計算できません。",
    }),
})


def written_places(fact: Fact) -> int:
    """The decimals a stated figure is written with (9.9 -> 1, 12 -> 0)."""
    exponent = Decimal(format_number(fact.value)).as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0


def rounded_stated(stated: Fact, places: int, computed: Decimal | None) -> str:
    """The stated figure rounded to ``places`` (no more than it has); a half-way figure goes the way ``computed``
    (the same figure computed, agreeing with it) rounds, when there is one."""
    step = Decimal(1).scaleb(-places)
    value = Decimal(format_number(stated.value))
    if computed is not None and (value / step) % 1 == Decimal("0.5"):
        value = computed
    return format_decimal(value.quantize(step, rounding=ROUND_HALF_UP))


def rounded_line(what: str, value: str, stated: Fact, lang: Lang) -> str:
    """The stated figure's line at the precision asked, citing the stated figure."""
    return _TEXT[lang]["rounded"].format(what=what, value=value, unit=stated.unit, stated=format_number(stated.value),
                                         cited=citation(stated.source_doc_id, stated.source_locator))


def beside_line(stated: Fact, lang: Lang) -> str:
    """The stated figure said beside the computed one given at more decimals than it has."""
    return _TEXT[lang]["beside"].format(stated=format_number(stated.value), unit=stated.unit,
                                        cited=citation(stated.source_doc_id, stated.source_locator))


def fewer_line(lang: Lang) -> str:
    """Why the stated figure stands at fewer decimals than asked."""
    return _TEXT[lang]["fewer"]
