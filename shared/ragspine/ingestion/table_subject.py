"""What the text around a table says it is about, besides the company: a part of it, another company, its unit.

A filing sets tables under headings that name whom the figures belong to: a segment
("Health Care Business (18.4% of consolidated sales):", "Walmart U.S. Segment"), an equity
investee ("Hemlock Semiconductor Group (“HSG”)", "Summarized financial information of Dow
Corning"). Such a table's rows are never the company's own figures. And a unit note set as a
line of its own above a table ("(In millions, except per share amounts)", "… were as follows
(in millions):") is the table's unit.
"""

from __future__ import annotations

import re

from ragspine.facts.open_vocabulary import matching_form, without_legal_form
from ragspine.numbers.units import units_in

# Words naming a part of a company: a table under such a heading is not about the whole company.
PART_OF_COMPANY = re.compile(
    r"(?i:\b(?:segments?|divisions?|business units?|operating units?)\b)|セグメント|事業部|分部|板块"
    # "Health Care Business", never "Business combinations"; "(18.4% of consolidated sales)"
    r"|\b[A-Z][\w&’'-]*\s+Business(?:es)?\b(?!\s+[Cc]ombination)"
    r"|(?i:%\s+of\s+(?:consolidated|total|worldwide)\s+(?:net\s+)?(?:sales|revenues?))")

# Words saying a table covers one part of a whole ("Overseas net sales by segment", "海外売上高"): its Total is
# that part's. "Segment and other information" names more information, no part.
_PART_OF_WHOLE = re.compile(
    r"(?<![a-z])(?:overseas|international|foreign|domestic|others?(?!\s+(?:information|data|disclosures?|matters))"
    r"|excluding|outside|non-japan|ex-japan)(?![a-z])"
    r"|海外|国内|國內|国外|境外|境内|その他|其他|以外|除く")

_WORD = r"[A-Z0-9][\w&.’'-]*"
_COMPANY_WORD = (r"(?:Co\.,?\s*Ltd\.?|Group|Company|Companies|Corporation|Corp\.?|Inc\.?|Incorporated"
                 r"|LLC|L\.L\.C\.|L\.P\.|LP|Ltd\.?|Limited|Holdings|Partners|Partnership|Joint\s+Venture|AG|plc|PLC|S\.A\.|N\.V\.|GmbH|SE)")
# A heading that is another company's name, with the short name the filing defines for it:
# "Hemlock Semiconductor Group (“HSG”)", "Dow Corning Corporation", "Samsung Corning Precision Materials Co., Ltd.".
_COMPANY_HEADING = re.compile(
    rf"(?P<name>(?:{_WORD}\s+){{1,5}}{_COMPANY_WORD})"
    r"\s*(?:\(\s*[“\"‘']?[A-Z][\w&. -]{1,20}[”\"’']?\s*\))?\s*:?")
# A heading or caption saying the figures are an investee's ("Summarized financial information of X").
_INVESTEE = re.compile(
    r"(?i)\bsummari[sz]ed\s+(?:combined\s+|consolidated\s+)?financial\s+(?:information|data|statements)\b"
    r"|\bequity[\s-]+method\s+investees?\b|\binvestees?['’]?s?\s+(?:financial|balance|results)"
    r"|\baffiliated\s+compan(?:y|ies)\s+(?:at|under|accounted\s+for\s+(?:by|under))\s+(?:the\s+)?equity[\s-]+method\b")
_LEADING_THE = re.compile(r"^the\s+")
_COMPANY_WORDS = re.compile(r"\s+(?:company|companies|group|corporation|corp\.?|incorporated|holdings|llc|lp|l\.p\.)$")
# A unit note as its own line ("(In millions)", "(Dollars in thousands, except per share data)", "$ in millions").
_NOTE_LINE = re.compile(
    r"(?i)^\s*[(（][^()（）]{2,88}[)）]\s*[:：.]?\s*$"  # "(In millions, except per share amounts)"
    r"|^\s*(?:\$|us\$|€|£|dollars\b|amounts\b|figures\b|in\b)[^.]{0,40}\bin\s+(?:thousands|millions|billions)\b[^.]{0,40}$"
    r"|^\s*[(（]?\s*(?:単位|单位)\s*[:：]")
# A note ending a sentence, maybe with the period heading set on the next line run in ("…(in millions): Year ended
# December 31,").
_NOTE_AT_END = re.compile(r"(?P<note>[(（][^()（）]{2,80}[)）])\s*[:：.]?(?:\s+[A-Z][^().:]{0,40})?\s*$")


def other_company(text: str) -> str:
    """The company a heading names when the heading is that company's name, else ""."""
    match = _COMPANY_HEADING.fullmatch(text.strip())
    return match.group("name").strip() if match else ""


def part_of_whole(text: str) -> str:
    """The word by which a caption or heading says its table covers a part of a whole ("overseas"), else ""."""
    match = _PART_OF_WHOLE.search(text.casefold())
    return match.group() if match else ""


def about_an_investee(text: str) -> bool:
    """Whether a heading or caption says its table holds another company's statements."""
    return bool(_INVESTEE.search(text))


def same_company(name: str, own: str) -> bool:
    """Whether a company name is the document's own company ("The Boeing Company" for "Boeing")."""
    def core(text: str) -> str:
        form = _LEADING_THE.sub("", without_legal_form(matching_form(text)))
        return _COMPANY_WORDS.sub("", form).strip(" ,.")
    return bool(own) and core(name) == core(own)


def unit_note(text: str) -> str:
    """The unit note a paragraph is or ends with ("(In millions)", "… as follows (in millions):"), else ""."""
    text = text.strip()
    if _NOTE_LINE.match(text) and units_in(text):
        return text
    end = _NOTE_AT_END.search(text)
    return end.group("note") if end and units_in(end.group("note")) else ""
