"""Find the numbers written in a text, in any script and surface form, as canonical values.

The text is NFKC-normalised first (full-width ３２１, ，and ％ become ASCII). A number is
read wherever it stands: right after 了, 约, は or any other character, except where it is
part of a code or an ordinal, as the check has always treated them: digits glued to a Latin
letter, an underscore or a dot (FY2024, Q3, ACME_FY2024_MDA, v1.2) and numbers after 第.
Read forms: Arabic numbers with signs, decimals and thousands separators (1,320.5, -7.4%,
5‰); a scale after them (1.2万, 3.5亿, 999億, 4800百万, 3万2千, 4.3 million, 2 billion);
the USD_M unit of the fact table (1320 USD_M is also 1,320,000,000); Chinese and Japanese
numerals (八十七, 一万二千三百四十五, 千二百, 二十三点五, 二〇二四), a single numeral
when a counter follows it (三家, 两个, 二つ); English number words (eighty-seven, twelve
thousand). Signs and the %/‰ marks do not change the value compared: the check compares
magnitudes, as the answers restate "下降7.4%" as "fell 7.4%".

Never read: the numeral one written alone as a word or character (one of them, 一个, 统一:
a pronoun or article as often as a figure; the digit 1 is read), except before a word or
counter that only counts (one store, one percentage point, 一家门店, 一名员工, 一倍; 一家人
stays a word), a lone scale character
(万达, 百货) or run of them (千万不要) unless it starts with 十 or a counter follows (十万, 百万家), and
CJK numerals naming a month (十一月).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from ragspine.lazy import LazyPattern
from ragspine.numbers.cjk import DIGITS, SCALES, cjk_value
from ragspine.numbers.words import SCALE_WORDS, WORDS, word_value

_ARABIC = r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?"
_SUFFIX_SCALES = "百千万萬亿億兆"
_CJK_NUMERALS = "".join(DIGITS) + "十" + _SUFFIX_SCALES
_WORD = "|".join(sorted(WORDS, key=len, reverse=True))
_EN_SCALE = {**{k: v for k, v in SCALE_WORDS.items() if k != "hundred"}, "bn": 10**9}
# Every number starts with a digit, a CJK numeral or the first letter of a number word: one class
# test rejects the other positions before the ``re`` engine tries the word alternation (case-folded,
# branch by branch) there, which made the reader cost about 0.5 µs per character of text.
_FIRST = "".join(sorted({word[0].lower() for word in WORDS}))
_NUMBER_SOURCE = (
    rf"(?P<arabic>(?<![A-Za-z0-9_.])(?<!第)(?:{_ARABIC}))"
    rf"(?:(?P<cjk_scale>[{_SUFFIX_SCALES}]+(?:(?:{_ARABIC})[{_SUFFIX_SCALES}]+)*)"
    rf"|\s?(?P<en_scale>(?i:{'|'.join(_EN_SCALE)}))(?![A-Za-z]))?"
    r"(?P<unit>\s?[A-Z]{3}_M(?![A-Za-z]))?"
    rf"|(?<!第)(?P<cjk>[{_CJK_NUMERALS}]+(?:点[{''.join(DIGITS)}]+)?)"
    rf"|(?P<words>(?<![A-Za-z])(?i:{_WORD})(?:(?:\s+|-)(?i:and\s+)?(?i:{_WORD}))*(?![A-Za-z]))")
# A number word starts a word (``words`` holds no letter before it): only word starts try the words.
_NUMBER = re.compile(rf"(?:(?=[\d{_CJK_NUMERALS}])|(?<![A-Za-z])(?i:(?=[{_FIRST}])))(?:{_NUMBER_SOURCE})")
_SCALE_PART = LazyPattern(rf"({_ARABIC})?([{_SUFFIX_SCALES}]+)")
# Counters after a single numeral that make it a count: 三家门店, 两个原因, 二つ, 五店舗, 七成.
_NEXT_WORD = LazyPattern(r"[ \t]+([A-Za-z%]+)")
# Words after which "one" counts (the English side of _COUNTS_OF_ONE).
_COUNTS_OF_ONE_EN = frozenset({
    "store", "shop", "branch", "outlet", "location", "site", "office", "plant", "factory", "hospital", "clinic",
    "facility", "employee", "customer", "member", "unit", "percent", "per", "%", "percentage", "point", "basis",
    "time", "times", "fold", "quarter", "month", "day", "week", "dollar", "euro", "yen", "yuan", "cent"})
# Counters after which 一 is a count of one, not an article (一家门店, 一间分店, 一名员工, 一倍).
_COUNTS_OF_ONE = frozenset("家间間座名位店所倍届屆台款条條")
_COUNTERS = frozenset("家个個间間位名人件项項种種次倍成元円店座台款条條届年季周週天社回割つ项所")
_CJK_WORD = LazyPattern(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")  # kana and ideographs
_UNIT_SCALE = 10**6  # USD_M: the fact table's millions


@dataclass(frozen=True, slots=True)
class NumberMention:
    """One number as written and the canonical values it may stand for.

    ``readings`` are what an answer's number must match: the value meant (scale applied),
    plus the bare figure when only a unit implies the scale (1320 USD_M is 1320 and
    1320000000). ``bare`` is the figure without any scale, which evidence also allows.
    """

    text: str
    readings: frozenset[str]
    bare: str

    @property
    def value(self) -> str:
        """The canonical value as written: the scaled value when a scale word is written (480億), else the figure."""
        return self.bare if self.bare in self.readings else min(self.readings)


def canonical(value: Decimal) -> str:
    """One spelling per magnitude: no sign, exponent, or trailing zeros (Decimal("-1.320E3") -> "1320")."""
    text = format(abs(value).normalize(), "f")
    return text if text else "0"


# Up to this many digits ``canonical`` is exact (the decimal context's precision); past it, it rounds.
_EXACT_DIGITS = 28


def plain_canonical(literal: str) -> str:
    """``canonical`` of an unsigned decimal literal without separators ("0320.50" -> "320.5"), read as text.

    An ASCII literal of at most 28 digits is spelled by trimming its zeros, which is what the
    decimal arithmetic gives; any other goes through ``Decimal``.
    """
    if not literal.isascii() or len(literal) > _EXACT_DIGITS:
        return canonical(Decimal(literal))
    whole, _, fraction = literal.partition(".")
    whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def normalise(text: str) -> str:
    """NFKC, the first step of every reading: full-width digits and separators become ASCII."""
    return unicodedata.normalize("NFKC", text)


def read_numbers(text: str) -> list[NumberMention]:
    """Every number written in ``text``, in order, each with its canonical readings."""
    found: list[NumberMention] = []
    normal = normalise(text)
    for match in _NUMBER.finditer(normal):
        found.extend(_mentions(match, normal))
    return found


def sourced_values(texts: Iterable[str]) -> set[str]:
    """The canonical values a set of evidence texts accounts for: every reading and every bare figure."""
    return {value for text in texts for m in read_numbers(text) for value in (*m.readings, m.bare)}


def is_number(text: str) -> bool:
    """True when ``text`` is one number and nothing else but a sign or a %/‰ mark (a table cell "1,320", "36%")."""
    normal = normalise(text).strip()
    spans = [m.span() for m in _NUMBER.finditer(normal)]
    if len(spans) != 1 or not read_numbers(normal):
        return False
    (start, end), = spans
    return not (normal[:start] + normal[end:]).strip(" +-−%‰")


def _mentions(match: re.Match[str], text: str) -> list[NumberMention]:
    if match["arabic"] is not None:
        return [_arabic(match)]
    if match["cjk"] is not None:
        return _cjk(match["cjk"], text[match.start() - 1:match.start()], text[match.end():match.end() + 2])
    phrase = match["words"]
    if phrase.lower() == "one":
        # Alone, "one" is a pronoun or article as often as a figure ("one of the reasons", "one key
        # factor"); before a word that only counts ("one store", "one percentage point") it is a figure.
        following = _NEXT_WORD.match(text, match.end())
        counted = following is not None and following.group(1).lower() in _COUNTS_OF_ONE_EN
        return _mention_of(phrase, Decimal(1)) if counted else []
    value = word_value(phrase)
    if value is None:  # an odd combination: read each word, so nothing is hidden
        return [m for word in re.split(r"[\s-]+", phrase) for m in _mention_of(word, word_value(word))]
    return _mention_of(phrase, value)


def _arabic(match: re.Match[str]) -> NumberMention:
    literal = match["arabic"].replace(",", "")
    if match["cjk_scale"] is None and match["en_scale"] is None and match["unit"] is None:
        spelled = plain_canonical(literal)  # most numbers: no scale, so no Decimal arithmetic
        return NumberMention(match[0], frozenset({spelled}), spelled)
    bare = Decimal(literal)
    if match["cjk_scale"] is not None:
        value = _cjk_scaled(bare, match["cjk_scale"])
        return NumberMention(match[0], frozenset({canonical(value)}), canonical(bare))
    if match["en_scale"] is not None:
        value = bare * _EN_SCALE[match["en_scale"].lower()]
        return NumberMention(match[0], frozenset({canonical(value)}), canonical(bare))
    readings = {canonical(bare)}
    if match["unit"] is not None:
        readings.add(canonical(bare * _UNIT_SCALE))
    return NumberMention(match[0], frozenset(readings), canonical(bare))


def _cjk_scaled(first: Decimal, tail: str) -> Decimal:
    """``first`` with its scale tail applied: (1.2, 万) -> 12000; (3, 万2千) -> 32000."""
    total = Decimal(0)
    value = first
    for part in _SCALE_PART.finditer(tail):
        if part.group(1) is not None:
            value = Decimal(part.group(1).replace(",", ""))
        multiplier = 1
        for char in part.group(2):
            multiplier *= SCALES[char]
        total += value * multiplier
    return total


def _cjk(run: str, before: str, following: str) -> list[NumberMention]:
    after = following[:1]
    if run == "一" and after in _COUNTS_OF_ONE and following != "家人":
        return _mention_of(run, Decimal(1))  # 关闭了一家门店: a count, unlike the article in 一个原因
    if len(run) == 1:
        # A lone numeral is a count before a counter (三家), a percentage (百分之九) or apart (closed 五 stores);
        # inside a word it is not (周三, 三越, 九龙, 百货).
        counted = after in _COUNTERS or before == "之" or not (_CJK_WORD.match(before) or _CJK_WORD.match(after))
        return _mention_of(run, Decimal(DIGITS.get(run, 10))) if counted and run not in "一零〇百千万萬亿億兆" else []
    if after == "月":
        return []  # a month (十一月)
    if all(char in SCALES for char in run) and not run.startswith("十") and after not in _COUNTERS:
        return []  # lone scales (千万不要, 百万富翁); 十万 and 百万家 are figures
    value = cjk_value(run)
    if value is not None:
        return _mention_of(run, value)
    # Not one well-formed number (万一, 一二三万): read each digit, fail-closed.
    digits = [char for char in run if char in DIGITS and char not in "一零〇"]
    return [m for char in digits for m in _mention_of(char, Decimal(DIGITS[char]))]


def _mention_of(text: str, value: Decimal | None) -> list[NumberMention]:
    if value is None:
        return []
    spelled = canonical(value)
    return [NumberMention(text, frozenset({spelled}), spelled)]
