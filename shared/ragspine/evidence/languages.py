"""The language of quoted source text, for ``lang`` on it (Chinese and Japanese share code points, not glyphs)."""

from __future__ import annotations

import re

_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]{2,}")


def text_language(text: str) -> str | None:
    """``ja`` when the text has kana, ``zh`` when it has Han only, ``en`` for Latin words, else None."""
    if _KANA.search(text):
        return "ja"
    if _HAN.search(text):
        return "zh"
    return "en" if _LATIN.search(text) else None
