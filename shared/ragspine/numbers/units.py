"""Unit codes of the fact table, and the unit a caption, header or label states, in zh/ja/en.

A money unit is ``<ISO 4217 code>`` with an optional scale: ``_K`` (thousand, 千), ``_10K``
(万), ``_M`` (million, 百万), ``_10M`` (千万), ``_100M`` (億/亿), ``_B`` (billion, 十億),
``_T`` (trillion, 兆). ``PCT`` is a percentage, ``COUNT`` a number of things. A fact keeps
the unit its document states; nothing is converted, so ``JPY_M`` and ``JPY_B`` are two units.
Read forms: ``USD_M``, ``USD m``, ``in millions of US dollars``, ``(¥ million)``, ``単位：百万円``,
``单位：亿元``, ``十億円``, ``千元``, ``$ in thousands``. A scale with no currency
(``(in millions, except per share data)``, ``in thousands``, ``(Millions)``) takes the currency the document
itself states when the caller found one (a ``$`` in the table's cells, ``US dollars`` in its
caption); else it is the scale alone (``M``: millions, currency not stated), never a currency
assumed from elsewhere.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# Active ISO 4217 codes (RMB, the usual name of CNY, is read as CNY).
ISO_4217 = frozenset({
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD", "BIF",
    "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CLP", "CNY", "COP", "CRC",
    "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS",
    "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD",
    "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL",
    "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MYR", "MZN", "NAD",
    "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD",
    "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP",
    "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS", "VES",
    "VND", "VUV", "WST", "XAF", "XCD", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWL",
})
SCALES = ("K", "10K", "M", "10M", "100M", "B", "T")
NON_MONEY = frozenset({"PCT", "COUNT"})
_CODE = re.compile(r"^(?P<cur>[A-Z]{3})(?:_(?P<scale>" + "|".join(SCALES) + r"))?$")

# Currency names and marked signs, as they are written (matched on NFKC, lower-cased text): what a
# caption names. A marked dollar (NT$, HK$, A$) starts before its "$", so it wins over the bare sign.
_CURRENCY_WORDS = (
    ("TWD", r"new\s+taiwan\s+dollars?|(?<![a-z])nt\s*dollars?|(?<![a-z])nt\$|新台币|新台幣|新台湾ドル"),
    ("HKD", r"hong\s+kong\s+dollars?|(?<![a-z])hk\s*dollars?|(?<![a-z])hk\$|港元|港币|香港ドル"),
    ("CAD", r"canadian\s+dollars?|(?<![a-z])c(?:a|dn)?\$|加元"),
    ("AUD", r"australian\s+dollars?|(?<![a-z])au?\$|澳元"),
    ("SGD", r"singapore\s+dollars?|(?<![a-z])s\$|新加坡元"),
    ("NZD", r"new\s+zealand\s+dollars?|(?<![a-z])nz\$"),
    ("USD", r"us\s*dollars?|u\.s\.\s*dollars?|us\$|美元|米ドル"),
    ("JPY", r"japanese\s+yen|(?<![a-z])yen(?![a-z])|円|日元|日円"),
    ("CNY", r"(?<![a-z])(?:rmb|renminbi|yuan)(?![a-z])|人民币|人民幣"),
    ("EUR", r"(?<![a-z])euros?(?![a-z])|€|欧元|ユーロ"),
    ("GBP", r"pounds?\s+sterling|£|英镑|ポンド"),
    ("CHF", r"swiss\s+francs?|瑞士法郎"),
    ("KRW", r"韩元|ウォン"),
)
_YEN_SIGN = "¥"  # ¥ is yen in Japanese documents and yuan in Chinese ones: the domain's currency decides
# In a unit ("$ in millions", "千元") a bare "$" is the US dollar and "元" the yuan; in a caption's words neither
# names a currency ("$" may be any dollar; "元" is also 元本, 元年).
# In a unit ("in millions of dollars") a dollar alone is the US dollar too, as "$" is; "won" and "rupees" name
# their currencies there only (a caption's "won" is a verb).
_UNIT_WORDS = (*_CURRENCY_WORDS, ("USD", r"\$|(?<![a-z])dollars?(?![a-z])"), ("CNY", r"元"),
               ("KRW", r"(?<![a-z])won(?![a-z])"), ("INR", r"(?<![a-z])rupees?(?![a-z])"))
_CUR_ALT = "|".join(f"(?P<c{i}>{words})" for i, (_, words) in enumerate(_UNIT_WORDS))
_ISO = r"(?P<iso>[a-z]{3})"
# English scales (after or before the currency) and CJK scales (before the currency word).
# "$000's", "(in 000s)": thousands written as the zeros they drop (never the tail of a number, "$1,000")
_ZEROS = r"(?<![\d,.])000(?:[’‘']?s)?(?![\d,.])"
_EN_SCALE = r"(?P<en>thousands?|millions?|billions?|trillions?|k|mn|m|bn|b|tn|[’‘']000|" + _ZEROS + ")"
_CJK_SCALE = r"(?P<cjk>十億|十亿|千万|千萬|百万|百萬|億|亿|万|萬|千|兆)"
_EN_SCALES = {"thousand": "K", "thousands": "K", "k": "K", "million": "M", "millions": "M", "m": "M", "mn": "M",
              "billion": "B", "billions": "B", "b": "B", "bn": "B", "trillion": "T", "trillions": "T", "tn": "T",
              "'000": "K", "’000": "K", "‘000": "K", "000": "K", "000s": "K", "000's": "K", "000’s": "K",
              "000‘s": "K"}
_CJK_SCALES = {"千": "K", "万": "10K", "萬": "10K", "百万": "M", "百萬": "M", "千万": "10M", "千萬": "10M",
               "億": "100M", "亿": "100M", "十億": "B", "十亿": "B", "兆": "T"}
_MONEY_PATTERNS = (
    # 百万円, 亿元, 千美元, 十億円
    re.compile(_CJK_SCALE + r"\s*(?:" + _CUR_ALT + r"|(?P<yen>¥))"),
    # USD m, JPY_B, $ in millions, ¥ million, US dollars in thousands, RMB bn
    re.compile(r"(?:(?<![a-z])" + _ISO + r"(?![a-z])|" + _CUR_ALT + r"|(?P<yen>¥))[\s_’‘']*(?:in\s+)?" + _EN_SCALE
               + r"(?![a-z])"),
    # millions of US dollars, thousands of yen, in millions of CHF
    # (a currency's name first: "yen" is no ISO code, and read as one it would leave the scale without its currency)
    re.compile(r"(?<![a-z])" + _EN_SCALE + r"\s+of\s+(?:" + _CUR_ALT + r"|(?<![a-z])" + _ISO + r"(?![a-z]))"),
    # (in thousand NT dollars), in millions euros: a scale word right after "in", then a currency word (never
    # "3.0 million Euro" in a sentence)
    re.compile(r"(?:(?<![a-z])in\s+|[(（]\s*)(?P<en>thousands?|millions?|billions?|trillions?)\s+(?:" + _CUR_ALT + ")"),
)
# "USDm", "DKKm", "EURbn": an ISO code in capitals with its scale run on in lower case, as European reports head a
# table's label column; read in the text as written, since lower-cased "usdm" is one word
_ISO_RUN_ON = re.compile(r"(?<![A-Za-z])(?P<iso>[A-Z]{3})(?P<en>k|m|mn|bn)(?![A-Za-z])")
# A unit note naming the currency with no scale ("单位：元", "単位：円"): amounts in whole yuan or yen.
_UNSCALED = re.compile(r"(?:単位|单位|單位)\s*[:：]?\s*(?:人民币|人民幣)?(?P<cur>元|円|美元|港元)")
_UNSCALED_CODES = {"元": "CNY", "円": "JPY", "美元": "USD", "港元": "HKD"}
# A number written before an English scale ("(Unit: 100 million yen)"), and the scales such products have codes for.
_MULTIPLIER = re.compile(r"(?<![\d.,])(\d[\d,]*)\s*$")
_MULTIPLES = {("1", "K"): "K", ("1", "M"): "M", ("1", "B"): "B", ("10", "K"): "10K", ("10", "M"): "10M",
              ("100", "M"): "100M", ("1000", "M"): "B", ("1,000", "M"): "B"}
# A scale with no currency: "(in millions, except per share data)", "单位：百万", "in thousands".
_BARE_SCALE = re.compile(r"(?<![a-z])in\s+" + _EN_SCALE + r"(?![a-z])|(?:単位|单位|單位)\s*[:：]?\s*" + _CJK_SCALE)
# A scale of something not money ("in millions of shares", "in thousands of tonnes"): no money unit at all.
_SCALE_OF_OTHER = re.compile(r"(?<![a-z])in\s+(?:thousands?|millions?|billions?|000[’‘']?s)\s+of\s+[a-z]")
# A scale in parentheses, first: "(Millions)", "(Millions, except per share amounts)", "Sales (millions)".
_PAREN_SCALE = re.compile(r"[(（]\s*(?P<en>thousands|millions|billions|000[’‘']?s)(?![a-z])")
# A scale written as the number the figures are multiplied by, in brackets after a name ("Number of shares (1,000)",
# "Revenue (EUR 1,000)", "(in 1,000)", "(x 1,000,000)", "(000)"). A bracket holding the number alone after no word
# is a negative figure ("(1,000)" in a cell), never a note; so is one after a money sign ("($1,000)").
_MULTIPLIER_NOTE = re.compile(r"[(（]\s*(?P<lead>in\s+|x\s*|×\s*)?(?:(?P<iso>[a-z]{3})\s*)?"
                              r"(?P<zeros>1[,.\s]?000(?:[,.\s]?000)?|[’‘']?000)\s*(?(iso)|(?P<after>[a-z]{3})?)\s*[)）]")
# A "%" right after a digit is part of what a label describes (``Debentures, 1.219%, due 2030``), not its unit.
_PCT = re.compile(r"(?<!\d)%|(?<![a-z])percent(?:age)?(?![a-z])|百分比|百分率")
_COUNT = re.compile(r"(?<![a-z])in\s+(?:stores|shops|units)(?![a-z])|(?<![a-z])count(?![a-z])|家数|个数")


def _multiplied(before: str, scale: str) -> str:
    """A scale with the number written before it ("100 million yen" is 100M); "" when no code says it."""
    number = _MULTIPLIER.search(before)
    if number is None:
        return scale
    return _MULTIPLES.get((number.group(1).replace(",", ""), scale), "")


def is_unit_code(code: str) -> bool:
    """Whether ingestion can state ``code``: PCT, COUNT, an ISO 4217 currency with a scale, or a scale alone."""
    if code in NON_MONEY or code in SCALES:
        return True
    match = _CODE.match(code)
    return match is not None and match["cur"] in ISO_4217


def unit_dimension(unit: str) -> str:
    """What a unit measures: ``ratio`` (PCT), ``count`` (COUNT), ``money`` (a currency code, or a scale whose
    currency the document does not state) or the unit itself."""
    if unit in NON_MONEY:
        return {"PCT": "ratio", "COUNT": "count"}[unit]
    return "money" if is_unit_code(unit) or not unit else unit


def money_units_in(text: str, currency: str | None = None) -> list[str]:
    """Every scaled money unit ``text`` states, in order of appearance (``単位：百万円`` -> ``JPY_M``).

    A scale stated without a currency is in ``currency`` (the one the document states) when
    given, else the scale alone: ``(in millions)`` is ``M``.
    """
    norm = unicodedata.normalize("NFKC", text).lower()
    found: list[tuple[int, str]] = []
    for pattern in _MONEY_PATTERNS:
        for match in pattern.finditer(norm):
            code = _currency_of(match, currency)
            english = bool(match.groupdict().get("en"))
            scale = _EN_SCALES[match["en"]] if english else _CJK_SCALES[match["cjk"]]
            if english:
                scale = _multiplied(norm[:match.start("en")], scale)
            if code and scale:
                found.append((match.start(), f"{code}_{scale}"))
    found += [(match.start(), f"{match['iso']}_{_EN_SCALES[match['en']]}")
              for match in _ISO_RUN_ON.finditer(unicodedata.normalize("NFKC", text)) if match["iso"] in ISO_4217]
    found += [(match.start(), _UNSCALED_CODES[match["cur"]]) for match in _UNSCALED.finditer(norm)]
    if not found and not _SCALE_OF_OTHER.search(norm):
        for match in (*_BARE_SCALE.finditer(norm), *_PAREN_SCALE.finditer(norm)):
            scale = _EN_SCALES[match["en"]] if match["en"] else _CJK_SCALES[match["cjk"]]
            found.append((match.start(), f"{currency}_{scale}" if currency else scale))
        found += [(match.start(), code) for match in _MULTIPLIER_NOTE.finditer(norm)
                  if _is_note(norm, match) and (code := _multiplier_unit(match, currency))]
    return list(dict.fromkeys(code for _, code in sorted(found)))


def _is_note(text: str, match: re.Match[str]) -> bool:
    """Whether a bracketed multiplier is a unit note: it says "in", "x" or a currency, or follows a name."""
    if match["lead"] or match["iso"] or match["after"]:
        return True
    before = text[:match.start()]
    return before[-1:].isspace() and any(char.isalpha() for char in before)


def _multiplier_unit(match: re.Match[str], currency: str | None) -> str:
    """The unit a multiplier note states: its scale (1,000 is thousands), in the currency it names, else the
    document's, else the scale alone; "" when it names a code that is no currency."""
    scale = "M" if sum(char == "0" for char in match["zeros"]) == 6 else "K"
    named = match["iso"] or match["after"]
    if named:
        code = named.upper()
        return f"{code}_{scale}" if code in ISO_4217 else ""
    return f"{currency}_{scale}" if currency else scale


def units_in(text: str, currency: str | None = None) -> list[str]:
    """Every unit a caption, header or label declares: money units first, then PCT and COUNT."""
    found = money_units_in(text, currency)
    norm = unicodedata.normalize("NFKC", text).lower()
    found += [unit for unit, pattern in (("PCT", _PCT), ("COUNT", _COUNT)) if pattern.search(norm)]
    return found


# A "$" a country prefix marks (NT$, HK$, A$) is that country's dollar; a bare "$" may be any dollar.
_SIGNS = re.compile(r"(?<![a-z])(?:us|nt|hk|a|au|c|ca|cdn|s|nz)\$|[$€£¥]"
                    r"|(?<![a-z])(?:usd|eur|gbp|jpy|cny|rmb|chf|hkd|aud|cad|sgd|krw|inr|twd|nzd)(?![a-z])"
                    r"|円|人民币|人民幣|美元|欧元|港元|英镑")
_SIGN_CODES = {"us$": "USD", "nt$": "TWD", "hk$": "HKD", "a$": "AUD", "au$": "AUD", "c$": "CAD",
               "ca$": "CAD", "cdn$": "CAD", "s$": "SGD", "nz$": "NZD", "€": "EUR", "£": "GBP", "rmb": "CNY",
               "人民币": "CNY", "人民幣": "CNY", "美元": "USD", "欧元": "EUR", "港元": "HKD", "英镑": "GBP",
               "円": "JPY"}
BARE_DOLLAR = "$"
# Currencies written as "$" with or without a country prefix: a bare "$" may be any of them.
DOLLAR_CURRENCIES = frozenset({"USD", "TWD", "HKD", "CAD", "AUD", "SGD", "NZD"})
# What a caption names: currency words and marked signs, never a bare "$" or "元".
_NAMED = re.compile("|".join(f"(?P<n{i}>{words})" for i, (_, words) in enumerate(_CURRENCY_WORDS)))


def currencies_named(texts: Sequence[str]) -> set[str]:
    """The currencies ``texts`` name in words or by a marked sign (``in thousand NT dollars`` -> TWD), not by "$"."""
    found: set[str] = set()
    for text in texts:
        if text:
            for match in _NAMED.finditer(unicodedata.normalize("NFKC", text).lower()):
                found.add(next(code for i, (code, _) in enumerate(_CURRENCY_WORDS) if match[f"n{i}"]))
    return found


def table_currency(cells: Sequence[str], naming: Sequence[str], declaring: Sequence[str] = (),
                   yen_as: str | None = None) -> tuple[str | None, str]:
    """The one currency a table states, and why there is none where its cells and its caption disagree.

    ``naming`` (caption, title, headings) names a currency in words or by a marked sign;
    ``declaring`` (the sentence before the table, a unit note) names one only in the money unit it
    declares ("in millions of euros", never "invested 3.0 million Euro"); both count for their signs.
    A dollar so named wins over a bare ``$`` in the cells (``(in thousand NT dollars)`` beside
    ``$ 1,234`` is TWD); a named currency that is no dollar (euros) beside a bare ``$`` cannot be
    reconciled: no currency, and a reason to warn. Two currencies stated by sign (``$`` and ``€``
    columns) give no currency and no reason.
    """
    signs = currency_signs([*cells, *naming, *declaring], yen_as)
    named = currencies_named(naming) | {unit.partition("_")[0] for text in declaring if text
                                        for unit in money_units_in(text) if unit not in SCALES}
    if BARE_DOLLAR in signs:
        marked = (signs | named) & DOLLAR_CURRENCIES
        if len(marked) == 1:
            signs = (signs - {BARE_DOLLAR}) | marked
        elif not marked and named:
            return None, (f"its caption names {', '.join(sorted(named))} but its cells show a bare $; "
                          "no money unit is given")
        elif not marked:
            signs = (signs - {BARE_DOLLAR}) | {"USD"}
    found = signs | named
    if len(found) == 1:
        return found.pop(), ""
    if named and signs - named:
        return None, (f"its caption names {', '.join(sorted(named))} but it states "
                      f"{', '.join(sorted(signs - named))}; no money unit is given")
    return None, ""


def currency_signs(texts: Sequence[str], yen_as: str | None = None) -> set[str]:
    """The currencies ``texts`` state by sign, symbol or code (``NT$1,234`` -> TWD, ``€m`` -> EUR).

    A bare "$" is kept as ``BARE_DOLLAR``: it is the US dollar unless a caption names another.
    ``¥`` is yen, or yuan where ``yen_as`` (the domain's currency) is CNY.
    """
    found: set[str] = set()
    for text in texts:
        if not text:
            continue
        for match in _SIGNS.finditer(unicodedata.normalize("NFKC", text).lower()):
            sign = match.group(0)
            if sign == "¥":
                found.add("CNY" if yen_as == "CNY" else "JPY")
            elif sign == BARE_DOLLAR:
                found.add(BARE_DOLLAR)
            else:
                found.add(_SIGN_CODES.get(sign, sign.upper()))
    return found


def _currency_of(match: re.Match[str], currency: str | None) -> str | None:
    groups = match.groupdict()
    if groups.get("iso"):
        iso = groups["iso"].upper()
        iso = "CNY" if iso == "RMB" else iso
        return iso if iso in ISO_4217 else None
    if groups.get("yen"):
        return currency if currency in ("JPY", "CNY") else "JPY"
    for i, (code, _) in enumerate(_UNIT_WORDS):
        if groups.get(f"c{i}"):
            return code
    return None
