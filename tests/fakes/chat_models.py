"""Model behaviours for the local chat-completions server: they read the prompt the engine built.

``inventing`` states figures found nowhere in its prompt, in every surface form and inside
CJK sentences, with a citation so it looks sourced; ``compliant`` restates its passages'
numbers in another surface form (三家 -> 3, 7.4% -> 百分之七点四, 12,000 -> twelve thousand);
``uncited`` is compliant but cites nothing; ``sleeping`` answers after the client gave up.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from decimal import Decimal

import cn2an

from ragspine.llm.extractive import parse_user_message
from ragspine.numbers import sourced_values
from tests.support import number_forms

Messages = list[dict[str, str]]
_KANA = re.compile(r"[\u3040-\u30ff]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# Numbers a compliant model restates: not codes (FY2024), not years (2024年, 2024财年).
_FIGURE = re.compile(r"(?<![A-Za-z0-9_.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(%?)(?![\d.])(?!年|财年|年度)")
_COUNTED = re.compile(r"([二两三四五六七八九十]+)(?=[家个店])")
_LEADS = {"zh": "根据资料，", "ja": "資料によると、", "en": "According to the report: "}


def language(messages: Messages) -> str:
    """The question's language, as a model would answer in it."""
    question, _ = parse_user_message(messages[-1]["content"])
    return "ja" if _KANA.search(question) else "zh" if _CJK.search(question) else "en"


def restate(text: str, lang: str, *, turn: int = 0) -> str:
    """``text`` with each figure written in another surface form (the choice rotates with ``turn``)."""
    count = [turn]

    def another(match: re.Match[str]) -> str:
        value = Decimal(match.group(1).replace(",", "") + (match.group(2) or ""))
        count[0] += 1
        if match.group(3):  # a percentage
            spelled = number_forms.chinese(value)
            if lang == "en" or spelled is None:
                return f"{number_forms.plain(value)} percent"
            return "百分之" + spelled
        choices = [number_forms.full_width(value), number_forms.grouped(value), number_forms.wan(value)]
        choices += [number_forms.english(value)] if lang == "en" else [number_forms.chinese(value)]
        usable = [c for c in choices if c is not None and c != match.group(0)]
        return usable[count[0] % len(usable)] if usable else match.group(0)

    restated = _FIGURE.sub(another, text)
    return _COUNTED.sub(lambda m: str(cn2an.cn2an(m.group(1), "normal")), restated)


def restating(offset: int) -> Callable[[Messages], str]:
    """A compliant model whose choice of surface forms starts at ``offset`` (to vary the forms)."""
    def reply(messages: Messages) -> str:
        _, snippets = parse_user_message(messages[-1]["content"])
        lang = language(messages)
        if not snippets:
            return "资料不足，无法回答。"
        return "\n".join(f"{_LEADS[lang]}{restate(s.text, lang, turn=offset + i)}{s.citation}"
                         for i, s in enumerate(snippets))
    return reply


def compliant(messages: Messages) -> str:
    """Each passage restated in the question's language frame, each with its citation."""
    return restating(0)(messages)


def uncited_sentence(passage: str, lang: str, turn: int) -> str:
    """One sentence of ``uncited``: the passage restated under the language's lead."""
    return f"{_LEADS[lang]}{restate(passage, lang, turn=turn)}"


def uncited(messages: Messages) -> str:
    """The compliant answer without any citation (the engine must append them)."""
    _, snippets = parse_user_message(messages[-1]["content"])
    lang = language(messages)
    return " ".join(uncited_sentence(s.text, lang, i) for i, s in enumerate(snippets)) or "无法回答。"


# Invented figures in the forms a digit-only check misses (glued to CJK, full-width, CJK numerals,
# words), each value absent from the prompt.
_INVENTIONS = {
    "zh": "香港收入下滑是因为客流减少了{a}%，共关闭了{b}家门店，利润减少约{c}万元。（来源：ACME_FY2024_MDA.docx）",
    "ja": "営業利益は前年から{d}億円増えました。店舗数は{e}店になりました。（出典：ACME_JP_2025_Report.md）",
    "en": "Operating profit rose by {g} percent and {h} stores closed (source: ACME_FY2024_Review.pptx).",
}
_VALUES = [Decimal(v) for v in ("23", "9", "1.8", "480", "87", "4800", "66", "12.5", "321", "5.5")]


def inventing(messages: Messages) -> str:
    """Fabricated figures in all three languages, in varied forms, none of them in the prompt."""
    prompt = "\n".join(m["content"] for m in messages)
    known = sourced_values([prompt])
    fresh = [v for v in _VALUES if number_forms.plain(v) not in known]
    a, b, c, d, e, f, g = (fresh * 2)[:7]
    lang = language(messages)
    forms = {"a": number_forms.plain(a), "b": number_forms.chinese(b) or number_forms.full_width(b),
             "c": number_forms.plain(c), "d": number_forms.plain(d), "e": number_forms.full_width(e),
             "f": number_forms.plain(f), "g": number_forms.english(g) or number_forms.plain(g),
             "h": number_forms.english(b) or number_forms.plain(b)}
    return _INVENTIONS[lang].format(**forms)


def sleeping(seconds: float) -> Callable[[Messages], str]:
    """A model that answers compliantly, but only after ``seconds`` (longer than the client waits)."""
    def reply(messages: Messages) -> str:
        time.sleep(seconds)
        return compliant(messages)
    return reply
