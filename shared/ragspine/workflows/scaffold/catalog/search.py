"""Keyword and fuzzy ranking over catalog entries, deterministic to the last tie.

Each entry is indexed by its titles (weight 3), tags (2) and description (1). A query term
scores an entry by its inverse document frequency times the best field weight it hits, so a
term that names a few entries counts for more than one that names hundreds. Latin terms of
four or more letters also match close spellings (rapidfuzz ``ratio`` ≥ ``FUZZY_CUTOFF``) at
their similarity, which absorbs typos and word forms ("sumarize", "summarizer"). Query terms
the catalog has never seen are left out of the score: they cannot tell entries apart, and
leaving them in would only shrink every score of a long description alike.

The score is ``0.9 × keyword coverage + 0.1 × title coverage``, both in [0, 1]; title
coverage is the share of an entry's title tokens the query matched, so among entries that
match equally the one whose title says no more than the query ranks first ("翻译" puts
"文本翻译" before "财务翻译助手（简明版）"). Remaining ties break on templates before
generated descriptors, then on id (scores are rounded to 6 decimals first), so equal
queries always rank identically.

Search text is tokenised by :mod:`ragspine.text` with the catalog's options: NFKC and case
folding ("q&a" reads as "qa"); Latin words accent-folded, plural-stemmed, stopwords and single
letters dropped; CJK cut into runs of one script (Han, hiragana, katakana, Hangul), each run
into overlapping bigrams, so Japanese particles stay out of them ("契約書の要約" gives 契約 約書
要約, not 書の or の要); a one-character run is kept if it is Han ("税") and dropped if it is
kana (particles such as の and を).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from ragspine.text import HAN, HANGUL, HIRAGANA, KATAKANA, KATAKANA_EXTENSION, MIDDLE_DOT, Tokenizer, plural_stem
from ragspine.workflows.scaffold.catalog.model import CatalogEntry, CatalogHit, EntryOrigin, Lang

TITLE_WEIGHT = 3.0
TAG_WEIGHT = 2.0
DESCRIPTION_WEIGHT = 1.0
FUZZY_CUTOFF = 80.0
FUZZY_MIN_LENGTH = 4
FUZZY_CANDIDATES = 4
TITLE_SHARE = 0.1
_SINGLE_CHAR_SIMILARITY = 0.5

Candidates = list[tuple[str, float]]
# Words too common to tell entries apart. "it" is left out on purpose: it names the IT domain.
STOPWORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "i", "in", "into", "is", "me",
        "my", "of", "on", "or", "our", "please", "that", "the", "this", "to", "us", "want", "we", "with", "would",
        "you", "your",
    }
)
_HAN = "\u3005" + HAN
_TOKENS = Tokenizer(scripts=(_HAN, HIRAGANA, KATAKANA + KATAKANA_EXTENSION, HANGUL), separators=MIDDLE_DOT,
                    single=_HAN, casefold=True, replacements=(("q&a", "qa"),), accents=True, min_word=2,
                    stopwords=STOPWORDS, stem=plural_stem, distinct=True)
tokenize = _TOKENS.tokens
is_cjk = _TOKENS.is_cjk


class SearchIndex:
    """An inverted index over entries, for one language or (``lang=None``) all three."""

    def __init__(self, entries: Sequence[CatalogEntry], *, lang: Lang | None = None) -> None:
        self._entries = tuple(entries)
        self._langs = tuple(Lang) if lang is None else (lang,)
        self._postings: dict[str, dict[int, float]] = {}
        for position, entry in enumerate(self._entries):
            for text, weight in self._fields(entry):
                for token in tokenize(text):
                    slot = self._postings.setdefault(token, {})
                    slot[position] = max(weight, slot.get(position, 0.0))
        self._latin = sorted(token for token in self._postings if not is_cjk(token))
        self._titles = [tuple(tokenize(entry.titles.get(code)) for code in self._langs) for entry in self._entries]

    def search(self, query: str, *, limit: int) -> list[CatalogHit]:
        """Return up to ``limit`` hits for ``query``, best first (empty when nothing matches)."""
        terms = [(term, candidates) for term in tokenize(query) if (candidates := self._candidates(term))]
        if not terms:
            return []
        weights = [max(self._idf(token) for token, _ in candidates) for _, candidates in terms]
        total = sum(weights) * TITLE_WEIGHT
        scores: dict[int, float] = {}
        matched: dict[int, list[str]] = {}
        for (term, candidates), weight in zip(terms, weights, strict=True):
            for position, hit in self._best_hits(candidates).items():
                scores[position] = scores.get(position, 0.0) + weight * hit
                matched.setdefault(position, []).append(term)
        similar: dict[str, float] = {}
        for _, candidates in terms:
            for token, similarity in candidates:
                similar[token] = max(similarity, similar.get(token, 0.0))
        hits = [
            CatalogHit(
                entry=self._entries[position],
                score=round(_blend(keyword / total, self._title_coverage(similar, position)), 6),
                matched=tuple(matched[position]),
            )
            for position, keyword in scores.items()
        ]
        hits.sort(key=_rank_key)
        return hits[:limit]

    def _fields(self, entry: CatalogEntry) -> Iterator[tuple[str, float]]:
        for code in self._langs:
            yield entry.titles.get(code), TITLE_WEIGHT
            yield entry.description.get(code), DESCRIPTION_WEIGHT
        for tag in entry.tags:
            yield tag, TAG_WEIGHT

    def _candidates(self, term: str) -> Candidates:
        """Index tokens a query term stands for, each with its similarity in (0, 1]."""
        exact: Candidates = [(term, 1.0)] if term in self._postings else []
        if is_cjk(term):
            if exact or len(term) > 1:
                return exact
            # A lone CJK character (a one-character query) matches the bigrams that contain it.
            return [(token, _SINGLE_CHAR_SIMILARITY) for token in self._postings if len(token) == 2 and term in token]
        if len(term) < FUZZY_MIN_LENGTH:
            return exact
        from rapidfuzz import fuzz, process  # lazy: loaded on first search only

        close = process.extract(
            term, self._latin, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=FUZZY_CANDIDATES
        )
        return exact + [(token, score / 100.0) for token, score, _ in close if token != term]

    def _best_hits(self, candidates: Candidates) -> dict[int, float]:
        best: dict[int, float] = {}
        for token, similarity in candidates:
            for position, weight in self._postings[token].items():
                best[position] = max(best.get(position, 0.0), similarity * weight)
        return best

    def _idf(self, token: str) -> float:
        return math.log(1.0 + len(self._entries) / len(self._postings[token]))

    def _title_coverage(self, similar: dict[str, float], position: int) -> float:
        shares = (
            sum(similar.get(token, 0.0) for token in title) / len(title) for title in self._titles[position] if title
        )
        return max(shares, default=0.0)


def _blend(keyword: float, title: float) -> float:
    return (1 - TITLE_SHARE) * keyword + TITLE_SHARE * title


def _rank_key(hit: CatalogHit) -> tuple[float, bool, str]:
    return (-hit.score, hit.entry.origin is not EntryOrigin.TEMPLATE, hit.entry.id)
