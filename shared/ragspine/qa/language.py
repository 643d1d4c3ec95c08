"""Which language a question is written in, for replies in the same language."""

from __future__ import annotations

import enum
import re
from functools import lru_cache

_KANA = re.compile(r"[\u3040-\u30ff]")
# The Han ideographs (U+3400-U+9FFF, U+F900-U+FAFF) are compared, not matched: compiling their class makes
# ``re`` mark each of its 28,000 code points one by one, about 2 ms of every cold start.


def _has_han(text: str) -> bool:
    """Whether ``text`` holds a Han ideograph."""
    return any("\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" for char in text)


class Lang(enum.StrEnum):
    """Reply languages."""

    ZH = "zh"
    EN = "en"
    JA = "ja"


@lru_cache(maxsize=8)  # one ask reads its question's language from several steps: once is enough
def detect_language(text: str) -> Lang:
    """Kana means Japanese, other CJK ideographs Chinese, anything else English."""
    if text.isascii():
        return Lang.EN
    if _KANA.search(text):
        return Lang.JA
    if _has_han(text):
        return Lang.ZH
    return Lang.EN
