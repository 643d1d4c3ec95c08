"""CJK-aware lexical tokens for BM25: words and numbers, CJK unigrams and bigrams.

Chinese and Japanese have no spaces, so an English-only analyser yields one giant token per
sentence and BM25 finds nothing (mem0#4884). Documents are indexed with the unigrams and
bigrams of every CJK run; queries use bigrams only (unigrams for one-character runs), which
keeps a query like 香港收入为什么下降 from matching every chunk that merely shares a
character, while a two-character word still matches its bigram exactly.

Other words are NFKC-normalised, lower-cased and, when ASCII, reduced by a plural-only
stemmer. Both functions are pure and allocate little: the index calls them for every chunk.
"""

from __future__ import annotations

import re
import unicodedata

# CJK runs: Han (URO, Ext-A, compatibility ideographs), hiragana, katakana (incl. the
# prolonged sound mark and phonetic extensions) and the iteration marks 々〆〇.
_CJK = "\u3005-\u3007\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# After NFKC, a number keeps one decimal point so "7.4%" indexes as "7.4" (a figure users
# quote). Letters and digits split ("FY2024" -> "fy", "2024") so "FY 2024" finds it too.
_TOKEN = re.compile(rf"(?P<cjk>[{_CJK}]+)|\d+(?:\.\d+)?|[^\W\d_{_CJK}]+")

MAX_TOKEN_CHARS = 64  # longer "words" are noise (hashes, base64) and would bloat the index


def _s_stem(word: str) -> str:
    """Harman's S-stemmer (JASIS 1991): plurals only, so "returns"/"policies" find "return"/"policy".

    Deliberately weaker than Porter: it never merges words with different meanings, which
    matters more for citations than catching "returned".
    """
    if len(word) <= 3 or not word.isascii():
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def _normalise(text: str) -> str:
    # NFKC folds full-width Latin and digits (ＡＣＭＥ２０２４ -> ACME2024) and half-width
    # katakana, so either spelling finds the other.
    return unicodedata.normalize("NFKC", text).lower()


def document_tokens(text: str) -> list[str]:
    """Tokens of a chunk for indexing: words, numbers, and CJK unigrams plus bigrams.

    Args:
        text: any text; it is NFKC-normalised and lower-cased first.

    Returns:
        The tokens in reading order (duplicates kept: BM25 counts term frequency).
    """
    out: list[str] = []
    for match in _TOKEN.finditer(_normalise(text)):
        run = match.group("cjk")
        if run is None:
            token = match.group(0)
            if len(token) <= MAX_TOKEN_CHARS:
                out.append(_s_stem(token))
            continue
        out.extend(run)
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


def query_tokens(text: str) -> list[str]:
    """Tokens of a query: words, numbers, and CJK bigrams (a unigram for a one-character run).

    Args:
        text: the user's query.

    Returns:
        The distinct tokens in first-seen order; BM25 scores each query term once.
    """
    seen: dict[str, None] = {}
    for match in _TOKEN.finditer(_normalise(text)):
        run = match.group("cjk")
        if run is None:
            token = match.group(0)
            if len(token) <= MAX_TOKEN_CHARS:
                seen[_s_stem(token)] = None
        elif len(run) == 1:
            seen[run] = None
        else:
            for i in range(len(run) - 1):
                seen[run[i:i + 2]] = None
    return list(seen)
