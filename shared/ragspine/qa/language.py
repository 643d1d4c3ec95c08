"""Which language a question is written in, for replies in the same language."""

from __future__ import annotations

import enum
import re

_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


class Lang(enum.StrEnum):
    """Reply languages."""

    ZH = "zh"
    EN = "en"
    JA = "ja"


def detect_language(text: str) -> Lang:
    """Kana means Japanese, other CJK ideographs Chinese, anything else English."""
    if _KANA.search(text):
        return Lang.JA
    if _HAN.search(text):
        return Lang.ZH
    return Lang.EN
