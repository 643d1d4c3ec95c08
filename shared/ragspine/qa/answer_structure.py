"""Structure in a model's answer that is not a claim: passage references, list enumerators, heading numbers.

A model answering from numbered passages cites them (``[1]``, ``【2】``, ``(3)``, ``资料4``,
``注1``) and lays its reasons out as lists (``1.``, ``2)``, ``一、``, ``①``) under numbered
headings (``## 2. 原因``). Those digits address the answer's own layout or the prompt's
passages; they state nothing about the business, so the provenance check must not read them
as figures. Everything else on the line stays a claim: "1. 收入下降9.9%" still has 9.9% checked.

A reference counts as structure only when it names a passage the prompt gave (1..n): a
"[7]" with five passages is not an address, and its 7 is checked like any other number.
All patterns run on NFKC text (full-width brackets, digits and colons are ASCII by then),
except the circled and parenthesised digits, which NFKC would turn into plain digits.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ragspine.lazy import LazyModule, LazyPattern

if TYPE_CHECKING:
    from ragspine.qa import passage_reference
    from ragspine.qa.passage_reference import PassageReference
else:
    # Loaded by the first answer that cites a passage: a figure read from the facts names none.
    passage_reference = LazyModule("ragspine.qa.passage_reference")

# ①..⑳, ⑴..⒇, ⒈..⒛, ❶..❿, ➀..➓, ㉑..㊿, ⓵..⓾, ⓫..⓴: enumerators or references, never figures.
_CIRCLED = re.compile("[\u2460-\u249b\u2776-\u2793\u3251-\u325f\u32b1-\u32bf\u24eb-\u24fe]")
_IDS = r"\d{1,3}(?:\s*[,、\-~–]\s*\d{1,3})*"
_CJK_LABEL = r"(?:参考资料|资料|片段|段落|来源|出典|資料|文書)"
_LATIN_LABEL = r"(?:passages?|sources?|snippets?|refs?|references?)"
_LABEL = rf"(?:{_CJK_LABEL}|{_LATIN_LABEL})"
# [1] [1, 3] [1-2] [资料2] 【3】 (4) 资料5 passage 2 注1 ※1
_REFERENCE = LazyPattern(
    rf"\[\s*(?:{_LABEL}\s*#?\s*)?(?P<square>{_IDS})\s*\]"
    rf"|【\s*(?:{_LABEL}\s*#?\s*)?(?P<lenticular>{_IDS})\s*】"
    rf"|〔\s*(?P<tortoise>{_IDS})\s*〕"
    rf"|\(\s*(?:{_LABEL}\s*#?\s*)?(?P<paren>{_IDS})\s*\)"
    rf"|(?:{_CJK_LABEL}|(?<![A-Za-z]){_LATIN_LABEL})\s*#?\s*(?P<labelled>\d{{1,3}})(?!\d|[.,]\d)"
    r"|(?:注|※|\^)\s*(?P<note>\d{1,2})(?!\d|[.,]\d)",
    re.IGNORECASE)
_CJK_ORDINALS = "一二三四五六七八九十"
# At a line's start, after markdown decoration (#, >, -, *, **): 1.  1)  1、  1:  (1)  一、  (一)  第一、
_ENUMERATOR = re.compile(
    r"(?m)^(?P<lead>[ \t]*(?:[#>*+\-•·][ \t]*)*(?:\*\*|__)?[ \t]*)"
    rf"(?P<mark>\d{{1,2}}(?:\.\d{{1,2}})*[.)、:](?!\d)|\(\d{{1,2}}\)|\(?[{_CJK_ORDINALS}]{{1,3}}[、.)]"
    rf"|\([{_CJK_ORDINALS}]{{1,3}}\)|第[{_CJK_ORDINALS}\d]{{1,3}}[、,.:])")
# A heading's section number: "## 2.1 原因", "### 3 Causes".
_HEADING = re.compile(r"(?m)^(?P<lead>[ \t]*#{1,6}[ \t]*)(?P<mark>\d{1,2}(?:\.\d{1,2})*\.?)(?=[ \t])")
# An enumerator after a colon or a semicolon inside a line: "原因有二：1. 客流下降；2. 门店关闭".
_INLINE_ENUMERATOR = re.compile(r"(?<=[:;。])(?P<lead>[ \t]*)(?P<mark>\d{1,2}[.)、](?!\d)|\(\d{1,2}\))")


def strip_circled(text: str) -> str:
    """``text`` with circled and parenthesised digits (①, ⑴, ⒈, ❶) blanked; run before NFKC."""
    return _CIRCLED.sub(" ", text)


def passage_references(text: str, *, passages: int) -> list[PassageReference]:
    """The references in NFKC ``text`` naming only passages 1..``passages``, in order."""
    if passages < 1:
        return []  # no passage to name (a structured answer): no reference can be in range
    found = []
    for match in _REFERENCE.finditer(text):
        ids = _ids(next(g for g in match.groups() if g is not None))
        if ids and all(1 <= i <= passages for i in ids):
            found.append(passage_reference.PassageReference(match.start(), match.end(), ids))
    return found


def strip_structure(text: str, *, passages: int = 0) -> str:
    """NFKC ``text`` with enumerators, heading numbers and in-range passage references blanked."""
    blanked = _blank(text, [(r.start, r.end) for r in passage_references(text, passages=passages)])
    for pattern in (_HEADING, _ENUMERATOR, _INLINE_ENUMERATOR):
        blanked = pattern.sub(lambda m: m.group("lead") + " " * len(m.group("mark")), blanked)
    return blanked


def _ids(group: str) -> tuple[int, ...]:
    """``1, 3`` -> (1, 3); ``1-3`` -> (1, 2, 3) (a range wider than 20 is not a reference)."""
    ids: list[int] = []
    for part in re.split(r"\s*[,、]\s*", group.strip()):
        bounds = [int(b) for b in re.split(r"\s*[\-~–]\s*", part) if b]
        if len(bounds) == 2 and 0 <= bounds[1] - bounds[0] <= 20:
            ids.extend(range(bounds[0], bounds[1] + 1))
        elif len(bounds) == 1:
            ids.append(bounds[0])
        else:
            return ()
    return tuple(dict.fromkeys(ids))


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        out += [text[last:start], " "]
        last = end
    out.append(text[last:])
    return "".join(out)
