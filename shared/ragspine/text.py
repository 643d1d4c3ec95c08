"""CJK-aware text normalisation and tokens, one toolkit for every lexical matcher in the engine.

Chinese and Japanese have no spaces, so an English-only analyser yields one giant token per
sentence and BM25 finds nothing (mem0#4884). Here a text is NFKC-normalised and lower-cased,
then read as CJK runs and words: a run gives overlapping character bigrams (a bigram index finds
words of any length without a dictionary), a word is kept whole, optionally stemmed.

Each user picks its options on a :class:`Tokenizer`: the retrieval index (document tokens with
unigrams and bigrams, query tokens with bigrams only, both below), the extractive provider's
overlap tokens (stopwords, no hiragana-only grams) and catalog search (runs split by script,
accent folding, a plural stem). Tokenizers are pure and allocate little: the index calls one
for every chunk.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from ragspine.lazy import LazyPattern

# Script ranges. Han: URO, Ext-A and the compatibility ideographs; the marks 々〆〇 sit beside it.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
KANJI_MARKS = "\u3005-\u3007"
HIRAGANA = "\u3040-\u309f"  # the block (U+3040 itself is unassigned)
# The katakana block without U+30FB (the middle dot "・", a separator), and its extension block.
KATAKANA = "\u30a0-\u30fa\u30fc-\u30ff"
MIDDLE_DOT = "\u30fb"
KATAKANA_EXTENSION = "\u31f0-\u31ff"
HANGUL = "\uac00-\ud7af"
# Every Chinese and Japanese character, in one class: the retrieval index reads mixed runs.
CJK = KANJI_MARKS + HIRAGANA + KATAKANA + MIDDLE_DOT + KATAKANA_EXTENSION + HAN

MAX_TOKEN_CHARS = 64  # longer "words" are noise (hashes, base64) and would bloat the index
_SPACES = LazyPattern(r"\s+")


def normalize(text: str, *, casefold: bool = False, replacements: tuple[tuple[str, str], ...] = (),
              collapse_spaces: bool = False) -> str:
    """NFKC, then lower-case (or case-fold), then literal replacements, then optionally one space per run.

    NFKC folds full-width Latin letters and digits (ＡＣＭＥ２０２４ -> ACME2024) and half-width
    katakana (ｶﾙﾃ -> カルテ), so either spelling finds the other.
    """
    folded = unicodedata.normalize("NFKC", text)
    folded = folded.casefold() if casefold else folded.lower()
    for old, new in replacements:
        folded = folded.replace(old, new)
    return _SPACES.sub(" ", folded).strip() if collapse_spaces else folded


def s_stem(word: str) -> str:
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


def plural_stem(word: str) -> str:
    """A lighter plural fold (any script): "contracts" -> "contract", "categories" -> "category"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def fold_accents(word: str) -> str:
    """``word`` without combining marks (é -> e)."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


@dataclass(frozen=True, slots=True)
class Tokenizer:
    """One recipe of tokens; each field is an option a user needs (defaults: the plainest reading).

    Attributes:
        scripts: character classes of CJK runs; with several, a run holds one script only
            (so "契約書の要約" gives 契約 約書 要約, never 書の or の要).
        numbers: decimal numbers are tokens of their own, keeping one decimal point ("7.4%" ->
            "7.4"; "FY2024" -> "fy", "2024"); otherwise digits belong to words.
        separators: characters that belong to neither words nor runs.
        unigrams: every character of a run, then its bigrams (the index side of BM25).
        single: class of characters whose one-character run is kept as a unigram; None keeps any.
        drop_grams: a run gram made only of these characters is dropped (e.g. hiragana particles).
        casefold, replacements: see :func:`normalize`.
        accents: fold accents off words.
        min_word, max_word: words outside these lengths are dropped.
        stopwords: words (and grams) dropped before stemming.
        stem: applied to every word kept.
        joins: a number directly followed by a CJK run is also read joined to the run's
            first character ("ルイ16世" adds "16世", "1945年9月" adds "9月"): Chinese
            and Japanese write counters onto numbers (年, 月, 世, 号), so "16" and "世" apart say
            little while "16世" names the century. A year ("2024年") is not joined: four digits
            already name it, and the join would count the year twice against every other word
            of the question (measured on ACME: "2024年に中国本土では…" then ranked every passage
            written "2024年…" above the Chinese answer, which says 2024 only in its context).
        distinct: each token once, in first-seen order (queries); otherwise every occurrence.
    """

    scripts: tuple[str, ...] = (CJK,)
    numbers: bool = False
    separators: str = ""
    unigrams: bool = False
    single: str | None = None
    drop_grams: str | None = None
    casefold: bool = False
    replacements: tuple[tuple[str, str], ...] = ()
    accents: bool = False
    min_word: int = 1
    max_word: int | None = None
    stopwords: frozenset[str] = frozenset()
    stem: Callable[[str], str] | None = None
    joins: bool = False
    distinct: bool = False
    # Compiled on first use: the module's own tokenizers are built at import, and a structured ask tokenizes nothing.
    _token: LazyPattern = field(init=False, repr=False, compare=False)
    _cjk_char: LazyPattern = field(init=False, repr=False, compare=False)
    _single: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _dropped: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        every = "".join(self.scripts)
        runs = "|".join(f"[{script}]+" for script in self.scripts)
        number = r"\d+(?:\.\d+)?|" if self.numbers else ""
        word = rf"[^\W\d_{every}{self.separators}]+" if self.numbers else rf"[^\W_{every}{self.separators}]+"
        object.__setattr__(self, "_token", LazyPattern(rf"(?P<cjk>{runs})|{number}{word}"))
        object.__setattr__(self, "_cjk_char", LazyPattern(f"[{every}]"))
        object.__setattr__(self, "_single", re.compile(f"[{self.single}]") if self.single else None)
        object.__setattr__(self, "_dropped", re.compile(f"^[{self.drop_grams}]+$") if self.drop_grams else None)

    def is_cjk(self, token: str) -> bool:
        """Whether a token comes from a CJK run (a gram) rather than a word."""
        return bool(self._cjk_char.match(token))

    def tokens(self, text: str) -> list[str]:
        """The tokens of ``text`` in reading order (see the class for the options)."""
        out: list[str] = []
        joinable: tuple[int, str] | None = None  # (end, token) of the number just read
        for match in self._token.finditer(normalize(text, casefold=self.casefold, replacements=self.replacements)):
            run = match.group("cjk")
            if run is None:
                word = self._word(match.group(0), out)
                joinable = (match.end(), word) if word is not None and word[0].isdigit() else None
                continue
            self._grams(run, out)
            if (self.joins and joinable is not None and joinable[0] == match.start()
                    and not _is_year(joinable[1], run)):
                out.append(joinable[1] + run[0])
            joinable = None
        return list(dict.fromkeys(out)) if self.distinct else out

    def _word(self, word: str, out: list[str]) -> str | None:
        """Append the word's token, if it is kept, and return it."""
        if self.accents:
            word = fold_accents(word)
        if len(word) < self.min_word or (self.max_word is not None and len(word) > self.max_word):
            return None
        if word in self.stopwords:
            return None
        token = self.stem(word) if self.stem else word
        out.append(token)
        return token

    def _grams(self, run: str, out: list[str]) -> None:
        if len(run) == 1:
            grams = [run] if self._single is None or self._single.match(run) else []
        else:
            bigrams = [run[i:i + 2] for i in range(len(run) - 1)]
            grams = [*run, *bigrams] if self.unigrams else bigrams
        if self.stopwords or self._dropped is not None:
            dropped = self._dropped
            grams = [g for g in grams if g not in self.stopwords and not (dropped is not None and dropped.match(g))]
        out.extend(grams)


def _is_year(number: str, run: str) -> bool:
    """Whether a number and the CJK run after it write a calendar year (four digits, then 年)."""
    return len(number) == 4 and number.isdigit() and run[0] == "年"


# The retrieval index: documents are indexed with the unigrams and bigrams of every CJK run;
# queries use bigrams only (unigrams for one-character runs), which keeps a query like
# 香港收入为什么下降 from matching every chunk that merely shares a character, while a
# two-character word still matches its bigram exactly. Words are stemmed by Harman's S-stemmer.
# Both sides join a number to the CJK character after it ("16世", "9月"; see ``joins``):
# without it, a bigram BM25 over raw characters beat this index on JSQuAD (docs/evaluation.md,
# "Documents"), because "ルイ16世" and "ルイ18世" differed only by the bare numbers.
_DOCUMENT = Tokenizer(numbers=True, unigrams=True, max_word=MAX_TOKEN_CHARS, stem=s_stem, joins=True)
_QUERY = Tokenizer(numbers=True, max_word=MAX_TOKEN_CHARS, stem=s_stem, joins=True, distinct=True)


def document_tokens(text: str) -> list[str]:
    """Tokens of a chunk for indexing: words, numbers, CJK unigrams plus bigrams, and number joins.

    Args:
        text: any text; it is NFKC-normalised and lower-cased first.

    Returns:
        The tokens in reading order (duplicates kept: BM25 counts term frequency).
    """
    return _DOCUMENT.tokens(text)


def query_tokens(text: str) -> list[str]:
    """Tokens of a query: words, numbers, CJK bigrams (a unigram for a one-character run), number joins.

    Args:
        text: the user's query.

    Returns:
        The distinct tokens in first-seen order; BM25 scores each query term once.
    """
    return _QUERY.tokens(text)
