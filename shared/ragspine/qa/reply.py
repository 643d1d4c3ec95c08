"""What a model's reply is, before its content is checked: a refusal to answer, and its language."""

from __future__ import annotations

import re
import unicodedata

from ragspine.qa.language import Lang

# The model's own "the passages do not say", as a whole short reply (an answer that ends with
# "other causes are not stated" is still an answer).
_DECLINES = re.compile(
    r"无法回答|无法作答|不能回答|无法根据|资料(?:中)?(?:不足|没有|未(?:提及|说明|提供))|没有(?:相关)?(?:信息|资料)"
    r"|回答できません|お答えできません|記載(?:が|は)?(?:ありません|ない)|わかりません|分かりません|(?:情報|内容)(?:が|は)?(?:ありません|ない)"
    r"|(?:can ?not|can't|unable to|am unable to) (?:answer|be answered|determine|tell)"
    r"|(?:passages|documents|references|sources) do(?:es)? not (?:say|mention|state|contain|provide)"
    r"|not enough information|no (?:relevant )?information",
    re.IGNORECASE)
DECLINE_MAX_CHARS = 120
# A citation, and a bare passage marker ([1], 【2】): neither is part of what the reply says.
_CITATION = re.compile(r"[（(](?:来源|出典|source)[:：][^（）()]*(?:[（(][^（）()]*[）)][^（）()]*)*[）)]"
                       r"|[\[［【]\s*\d{1,3}(?:\s*[,，、]\s*\d{1,3})*\s*[\]］】]", re.IGNORECASE)
_KANA = re.compile("[\u3040-\u30ff]")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile("[A-Za-z]")
# Shares of a reply's letters that mark its language (a reply quoting a passage in another language still counts).
_MIN_KANA_JA = 0.1  # of kana + han: Japanese prose is mostly kana; Chinese has none
_MAX_KANA_ZH = 0.25
_MIN_CJK_ZH = 0.3  # of all letters
_MIN_LATIN_EN = 0.3


def strip_citations(text: str) -> str:
    """``text`` without its （来源：…） citations and [n] passage markers."""
    return _CITATION.sub("", text)


def declines(reply: str) -> bool:
    """True when the whole reply says the passages cannot answer (无法回答。, I cannot answer, 回答できません)."""
    text = _CITATION.sub("", unicodedata.normalize("NFKC", reply)).strip()
    return len(text) <= DECLINE_MAX_CHARS and _DECLINES.search(text) is not None


def keeps_language(reply: str, lang: Lang) -> bool:
    """True when the reply is (mostly) in ``lang``; quoting passages in another language is allowed."""
    text = _CITATION.sub("", reply)
    kana, han, latin = (len(p.findall(text)) for p in (_KANA, _HAN, _LATIN))
    letters = kana + han + latin
    if letters < 4:
        return True
    if lang is Lang.JA:
        return kana + han > 0 and kana / (kana + han) >= _MIN_KANA_JA
    if lang is Lang.ZH:
        return (kana + han) / letters >= _MIN_CJK_ZH and (not kana or kana / (kana + han) < _MAX_KANA_ZH)
    return latin / letters >= _MIN_LATIN_EN
