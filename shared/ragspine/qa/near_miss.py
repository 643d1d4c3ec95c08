"""Bounded fuzzy reading of misspelt glossary names: "gross margn" is read as gross margin.

Only Latin words the glossary scan left over are examined (a known term is never re-read),
only against Latin glossary names of at least ``MIN_NAME_CHARS`` letters, and only within a
Damerau-Levenshtein distance of one edit (two for names of ``LONG_NAME_CHARS`` or more).
CJK names are never fuzzed: one character changes the meaning there. Nor is a letter added to,
dropped from or changed in an acronym the question writes in capitals: "EBITDA" is never the row
"EBITA" (another measure); its letters swapped ("EBIDTA") are still a typo. When two names of
different codes are equally near, the caller asks back instead of choosing.

Periods are read the same way (``period_near_misses``): a leftover word within the bound of a
Latin word of the glossary's period spellings ("thrid quater 2024": third quarter) and a year
typed with look-alike letters ("fy2o25") are corrected, and the correction is taken only when
the corrected question names a period the typed one did not.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.lazy import LazyModule, LazyPattern

if TYPE_CHECKING:
    from rapidfuzz.distance import DamerauLevenshtein
else:
    # Loaded on the first leftover word worth fuzzing: a question the glossary reads whole never needs it.
    DamerauLevenshtein = LazyModule("rapidfuzz.distance.DamerauLevenshtein")

MIN_WORD_CHARS = 4  # a typed word shorter than this is never fuzzed ("the", "hk")
MIN_NAME_CHARS = 5  # a glossary name shorter than this is never a fuzzy target ("ebit", "hk")
LONG_NAME_CHARS = 9  # names this long tolerate two edits ("hong kong" / "hongkong")
_WORD = LazyPattern(r"[a-z][a-z'\-]*")
_HAS_DIGIT = LazyPattern(r"\d")
_PERIOD_WORD = LazyPattern(rf"[a-z]{{{MIN_NAME_CHARS},}}")
# A year (after an optional "fy" or quarter) typed with the letter o for 0 or l for 1: "fy2o25", "2o24".
_LOOKALIKE_YEAR = LazyPattern(r"(?=[12])(?:(?<![a-z0-9])|(?<=fy)|(?<=q[1-4] ))([12][0-9ol]{3})(?![a-z0-9])")
_LATIN_NAME = LazyPattern(r"[a-z][a-z'\- ]*[a-z]")


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read misspelt words: the glossary code and the name of it they are near."""

    kind: SlotKind
    code: str
    name: str
    question: str  # the normalised question with the typed words replaced by ``name``


@dataclass(frozen=True, slots=True)
class NearMiss:
    """Words of a question near glossary names: one reading (taken) or several equally near (asked)."""

    raw: str
    readings: tuple[Reading, ...]
    start: int
    end: int


def max_edits(name: str) -> int:
    """How many edits a name of this length tolerates."""
    return 2 if len(name) >= LONG_NAME_CHARS else 1


def near_misses(norm: str, leftover: str, glossary: Glossary, kinds: Iterable[SlotKind],
                acronyms: frozenset[str] = frozenset()) -> list[NearMiss]:
    """Glossary names of ``kinds`` near the leftover Latin words of ``norm`` (non-overlapping, text order).

    ``norm`` is the normalised question, ``leftover`` the same text with every mention blanked;
    ``acronyms`` the words the question writes in capitals (lower case), read only with their own letters.
    A question without a leftover Latin word (every CJK question) costs one regex pass, and a
    name whose letter count differs from the typed words' by more than its bound is never compared.
    """
    words = [(m.group().strip("'-"), m.start()) for m in _WORD.finditer(leftover)]
    if not words:
        return []
    letters_before = [0]  # the letters of the first i words: a window's count without summing it
    for word, _ in words:
        letters_before.append(letters_before[-1] + len(word))
    # How many words from each one on follow each other with only spaces between: a window longer
    # than that has a mention or punctuation inside, so it is not one name.
    chained = [1] * len(words)
    for i in range(len(words) - 2, -1, -1):
        word, start = words[i]
        if norm[start + len(word):words[i + 1][1]].isspace():
            chained[i] = chained[i + 1] + 1
    candidates: list[tuple[int, int, NearMiss]] = []
    fillers = _filler_set(glossary.fillers)
    for size, by_letters in _fuzzy_names_of(glossary, frozenset(kinds)).items():
        for first in range(len(words) - size + 1):
            names = by_letters.get(letters_before[first + size] - letters_before[first])
            if names is None or size > chained[first]:
                continue  # no name is within its bound of this many letters, or the words are not one name
            last, start = words[first + size - 1], words[first][1]
            end = last[1] + len(last[0])
            raw = norm[start:end]
            if len(raw) < MIN_WORD_CHARS or (size == 1 and raw in fillers):
                continue
            distance, readings = _nearest(raw, names, norm[:start], norm[end:], acronyms)
            if readings:
                candidates.append((-size, distance, NearMiss(raw, readings, start, end)))
    if not candidates:  # most questions: no window is near a name
        return []
    taken: list[NearMiss] = []
    for _size, _distance, miss in sorted(candidates, key=lambda c: (c[0], c[1], c[2].start)):
        if all(miss.end <= t.start or miss.start >= t.end for t in taken):
            taken.append(miss)
    return sorted(taken, key=lambda m: m.start)


@dataclass(frozen=True, slots=True)
class _Name:
    """A fuzzy target: a Latin glossary name, its words, its letter count and its edit bound."""

    alias: str
    kind: SlotKind
    code: str
    words: tuple[str, ...]
    letters: int
    edits: int


_NAMES: dict[int, tuple[Mapping[str, tuple[SlotKind, str]], dict[int, list[_Name]]]] = {}


def _fuzzy_names(glossary: Glossary) -> dict[int, list[_Name]]:
    """The glossary's fuzzy targets by word count, built once per alias table (not once per question)."""
    aliases = glossary.aliases
    entry = _NAMES.get(id(aliases))
    if entry is not None and entry[0] is aliases:
        return entry[1]
    by_words: dict[int, list[_Name]] = {}
    for alias, (kind, code) in aliases.items():
        if len(alias) >= MIN_NAME_CHARS and _LATIN_NAME.fullmatch(alias):
            words = tuple(alias.split())
            by_words.setdefault(len(words), []).append(
                _Name(alias, kind, code, words, sum(map(len, words)), max_edits(alias)))
    if len(_NAMES) >= 16:  # a process holds one or two glossaries; tests build many
        _NAMES.clear()
    _NAMES[id(aliases)] = (aliases, by_words)
    return by_words


# By word count, then by the letter count of a typed window: the names within their bound of it,
# in alias-table order (so the first name of a code at the best distance is the one read).
_Targets = dict[int, dict[int, list[_Name]]]
_NAMES_OF_KINDS: dict[tuple[int, frozenset[SlotKind]], tuple[dict[int, list[_Name]], _Targets]] = {}
_FILLERS: dict[int, tuple[tuple[str, ...], frozenset[str]]] = {}


def _fuzzy_names_of(glossary: Glossary, kinds: frozenset[SlotKind]) -> _Targets:
    """The fuzzy targets of ``kinds`` by word count and by the letters of a typed window within each name's
    bound (each letter more or fewer is an edit, so no other name can be near); built once per alias
    table and kinds, not once per question."""
    by_words = _fuzzy_names(glossary)
    entry = _NAMES_OF_KINDS.get((id(by_words), kinds))
    if entry is not None and entry[0] is by_words:
        return entry[1]
    chosen: _Targets = {}
    for size, names in by_words.items():
        by_letters: dict[int, list[_Name]] = {}
        for name in names:
            if name.kind in kinds:
                for letters in range(name.letters - name.edits, name.letters + name.edits + 1):
                    by_letters.setdefault(letters, []).append(name)
        if by_letters:
            chosen[size] = by_letters
    if len(_NAMES_OF_KINDS) >= 64:
        _NAMES_OF_KINDS.clear()
    _NAMES_OF_KINDS[(id(by_words), kinds)] = (by_words, chosen)
    return chosen


def _filler_set(fillers: tuple[str, ...]) -> frozenset[str]:
    """The glossary's filler words as a set (the tuple is kept longest first for blanking)."""
    entry = _FILLERS.get(id(fillers))
    if entry is not None and entry[0] is fillers:
        return entry[1]
    if len(_FILLERS) >= 16:
        _FILLERS.clear()
    _FILLERS[id(fillers)] = (fillers, frozenset(fillers))
    return _FILLERS[id(fillers)][1]


def _distance(typed: list[str], name: list[str], acronyms: frozenset[str] = frozenset()) -> int:
    """Edits word by word, each word within its own bound ("shares" is not "stores"); past it, a large number.

    An acronym is read only as its own letters in another order: one letter more, fewer or other names
    another measure."""
    total = 0
    for word, target in zip(typed, name, strict=True):
        if word in acronyms and sorted(word) != sorted(target):
            return LONG_NAME_CHARS
        limit = max_edits(target)
        if abs(len(word) - len(target)) > limit:
            return LONG_NAME_CHARS
        edits = DamerauLevenshtein.distance(word, target, score_cutoff=limit)
        if edits > limit:
            return LONG_NAME_CHARS
        total += edits
    return total


def _nearest(raw: str, names: list[_Name], before: str, after: str,
             acronyms: frozenset[str] = frozenset()) -> tuple[int, tuple[Reading, ...]]:
    """The smallest edit distance within the bounds and every code's name at that distance."""
    near: list[tuple[int, Reading]] = []
    typed = raw.split()
    for name in names:  # each within its bound of ``letters`` (see ``_fuzzy_names_of``)
        alias = name.alias
        if raw in (alias + "s", alias.removesuffix("s")):
            continue  # a plural or singular is another word choice ("sale" is not "sales"), not a typo
        distance = _distance(typed, list(name.words), acronyms)
        if 0 < distance <= name.edits:
            near.append((distance, Reading(name.kind, name.code, alias, before + alias + after)))
    if not near:
        return 0, ()
    best = min(d for d, _ in near)
    readings: dict[tuple[SlotKind, str], Reading] = {}
    for distance, reading in near:
        if distance == best:
            readings.setdefault((reading.kind, reading.code), reading)
    return best, tuple(readings.values())


@functools.lru_cache(maxsize=8)
def _period_words(patterns: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """The Latin words of at least ``MIN_NAME_CHARS`` letters the period spellings use (first, quarter, fiscal …).

    Each with its length and edit bound, so most typed words are ruled out by length alone.
    """
    words = sorted({word for pattern in patterns for word in _PERIOD_WORD.findall(pattern)})
    return tuple((word, len(word), max_edits(word)) for word in words)


@dataclass(frozen=True, slots=True)
class _Spelling:
    """The period words a typed word may be a misspelling of, by the typed word's length."""

    by_length: Mapping[int, tuple[tuple[str, int], ...]]  # length -> (period word, edit bound) within reach

    def near(self, word: str) -> list[str]:
        """The period words within their edit bound of ``word`` (a plural or singular is not a typo)."""
        return [w for w, edits in self.by_length.get(len(word), ())
                if word not in (w + "s", w.removesuffix("s"))
                and 0 < DamerauLevenshtein.distance(word, w, score_cutoff=edits) <= edits]


def _spelling(words: tuple[tuple[str, int, int], ...]) -> _Spelling:
    """Each length a typed word worth fuzzing may have, with the period words within their bound of it."""
    by_length: dict[int, list[tuple[str, int]]] = {}
    for word, length, edits in words:
        for size in range(max(MIN_WORD_CHARS, length - edits), length + edits + 1):
            by_length.setdefault(size, []).append((word, edits))
    return _Spelling({size: tuple(near) for size, near in by_length.items()})


_SPELLINGS: dict[int, tuple[object, _Spelling]] = {}


def _spelling_of(glossary: Glossary) -> _Spelling:
    """The ``_spelling`` of the glossary's period words, found by the pattern tuple itself (no key built per ask)."""
    patterns = glossary.period_patterns
    entry = _SPELLINGS.get(id(patterns))
    if entry is not None and entry[0] is patterns:
        return entry[1]
    spelling = _spelling(_period_words(tuple(pattern.regex.pattern for pattern in patterns)))
    if len(_SPELLINGS) >= 16:
        _SPELLINGS.clear()
    _SPELLINGS[id(patterns)] = (patterns, spelling)
    return spelling


def period_near_misses(norm: str, leftover: str, glossary: Glossary,
                       known: Iterable[Period]) -> list[NearMiss]:
    """Misspelt period words of ``norm`` read as the period the corrected words name (at most one reading each).

    ``known`` are the periods the question names as typed: a correction that names no other
    period is not taken (a word near "first" in a sentence is left alone).
    """
    if not _HAS_DIGIT.search(norm):
        return []  # every period spelling holds a year: without a digit there is nothing to correct
    spelling = _spelling_of(glossary)
    fillers = _filler_set(glossary.fillers)
    fixes: list[tuple[int, int, str]] = []
    for match in _WORD.finditer(leftover):
        word = match.group()
        if len(word) not in spelling.by_length or word in fillers:
            continue  # too short to fuzz, no period word within its bound of this length, or a filler ("what")
        near = spelling.near(word)
        if len(near) == 1:
            fixes.append((match.start(), match.end(), near[0]))
    for match in _LOOKALIKE_YEAR.finditer(norm):
        typed = match.group(1)
        if "o" in typed or "l" in typed:
            fixes.append((match.start(1), match.end(1), typed.replace("o", "0").replace("l", "1")))
    if not fixes:
        return []
    fixes.sort()
    corrected, shifts, cursor = "", [], 0
    for start, end, text in fixes:
        corrected += norm[cursor:start]
        shifts.append((len(corrected), len(corrected) + len(text), start, end))
        corrected += text
        cursor = end
    corrected += norm[cursor:]

    def original(position: int, *, at_end: bool) -> int:
        """A position of ``corrected`` in ``norm`` (a corrected word maps to the whole typed word)."""
        offset = 0
        for new_start, new_end, old_start, old_end in shifts:
            if position < new_start or (at_end and position == new_start):
                break
            if position < new_end or (at_end and position == new_end):
                return old_end if at_end else old_start
            offset = old_end - new_end
        return position + offset

    seen = set(known)
    misses: list[NearMiss] = []
    for mention in glossary.scan(corrected):
        if mention.kind is not SlotKind.PERIOD or mention.period is None or mention.period in seen:
            continue
        start, end = original(mention.start, at_end=False), original(mention.end, at_end=True)
        if not any(start <= old_start < end for _, _, old_start, _ in shifts):
            continue  # the period was there as typed, not made by a correction
        seen.add(mention.period)
        reading = Reading(SlotKind.PERIOD, mention.period.label, mention.raw, corrected)
        misses.append(NearMiss(norm[start:end], (reading,), start, end))
    return misses
