"""Search-text processing shared by the index and the queries: normalise, then tokenise.

Latin-script words become accent-folded, lightly stemmed tokens. CJK text is cut into runs of
one script (Han, hiragana, katakana, Hangul) and each run into overlapping character bigrams:
Chinese and Japanese are written without spaces, and a bigram index finds words of any length
without a dictionary. Cutting at script changes keeps Japanese particles out of the bigrams
("契約書の要約" gives 契約 約書 要約, not 書の or の要). A one-character run is kept as a
unigram if it is Han ("税") and dropped if it is kana (particles such as の and を).
"""

from __future__ import annotations

import re
import unicodedata

_HAN = "\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HIRAGANA = "\u3041-\u309f"
# The katakana block minus U+30FB (the middle dot "・", a separator) plus its extension block.
_KATAKANA = "\u30a0-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
_HANGUL = "\uac00-\ud7af"
_CJK_RANGES = _HAN + _HIRAGANA + _KATAKANA + _HANGUL
_TOKEN = re.compile(rf"[{_HAN}]+|[{_HIRAGANA}]+|[{_KATAKANA}]+|[{_HANGUL}]+|[^\W{_CJK_RANGES}\u30fb_]+")
_CJK_CHAR = re.compile(rf"[{_CJK_RANGES}]")
_HAN_CHAR = re.compile(rf"[{_HAN}]")
_SPACES = re.compile(r"\s+")
# Words too common to tell entries apart. "it" is left out on purpose: it names the IT domain.
STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "i", "in", "into", "is", "me",
        "my", "of", "on", "or", "our", "please", "that", "the", "this", "to", "us", "want", "we", "with", "would",
        "you", "your",
    }
)


def normalize(text: str) -> str:
    """Return ``text`` NFKC-normalised, case-folded and with runs of whitespace collapsed.

    NFKC folds full-width Latin letters and half-width katakana into their usual forms, so
    ``ＪＳＯＮ`` and ``json`` or ``ｶﾙﾃ`` and ``カルテ`` match.
    """
    folded = unicodedata.normalize("NFKC", text).casefold().replace("q&a", "qa")
    return _SPACES.sub(" ", folded).strip()


def is_cjk(token: str) -> bool:
    """Tell whether a token comes from a CJK run (a bigram or a single character)."""
    return bool(_CJK_CHAR.match(token))


def tokenize(text: str) -> list[str]:
    """Return the distinct search tokens of ``text`` in first-seen order."""
    seen: dict[str, None] = {}
    for match in _TOKEN.finditer(normalize(text)):
        run = match.group()
        if is_cjk(run):
            if len(run) > 1:
                seen.update(dict.fromkeys(run[i : i + 2] for i in range(len(run) - 1)))
            elif _HAN_CHAR.match(run):
                seen[run] = None
            continue
        word = _fold_accents(run)
        if len(word) > 1 and word not in STOPWORDS:
            seen[_stem(word)] = None
    return list(seen)


def _fold_accents(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _stem(word: str) -> str:
    # Plural folding only: enough for "contracts" to find "contract"; fuzzy matching covers the rest.
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
