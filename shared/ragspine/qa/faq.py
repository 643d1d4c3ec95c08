"""The FAQ short-circuit at the service edge: curated answers matched deterministically."""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.config_loader import load_yaml
from ragspine.errors import ConfigurationError
from ragspine.lazy import LazyModule
from ragspine.llm.ports import Embedder

if TYPE_CHECKING:
    from rapidfuzz import fuzz, process

    from ragspine.qa import faq_hit, faq_semantic
    from ragspine.qa.faq_hit import FaqHit
    from ragspine.qa.faq_semantic import SemanticFaqMatcher
else:
    # Loaded on the first fuzzy look-up: a question matching an entry exactly, or none, never needs it.
    fuzz = LazyModule("rapidfuzz.fuzz")
    process = LazyModule("rapidfuzz.process")
    # Loaded on the first hit: a question no entry answers never builds one.
    faq_hit = LazyModule("ragspine.qa.faq_hit")
    # Loaded when an index is given embedders to match by meaning: exact and fuzzy matches need none of it.
    faq_semantic = LazyModule("ragspine.qa.faq_semantic")

DEFAULT_THRESHOLD = 90.0
# What a key keeps: letters and digits (``\w`` without "_"); whitespace and punctuation go.
_KEPT = re.compile(r"[^\W_]+")
# The same for ASCII text, whose ``\w`` is its letters and digits and "_": every other ASCII character is
# deleted in one translation of its bytes, with no regex pass (and no NFKC, which keeps ASCII as it is).
_ASCII_DROPPED = bytes(code for code in range(128) if not chr(code).isalnum())


@dataclass(frozen=True, slots=True)
class FaqEntry:
    """A curated answer with its own source."""

    entry_id: str
    questions: tuple[str, ...]
    answer: str
    doc: str
    locator: str


def faq_key(text: str) -> str:
    """Matching form: NFKC, lower case, no whitespace or punctuation ("ACME's" ~ "acmes")."""
    if text.isascii():
        folded = text.lower()
        return folded if folded.isalnum() else folded.encode("ascii").translate(None, _ASCII_DROPPED).decode("ascii")
    folded = unicodedata.normalize("NFKC", text).lower()
    if folded.isalnum():  # ``str.isalnum`` is ``\w`` less "_": nothing to take out (most CJK questions), no regex pass
        return folded
    return "".join(_KEPT.findall(folded))


def reach_ceiling(length: int, reachable: int) -> float:
    """An upper bound of ``fuzz.ratio`` between a key of ``length`` characters and any text written in an
    alphabet that has ``reachable`` of them (each counted once per occurrence in the key).

    A common subsequence holds only those ``u`` characters and is no longer than the other text
    (``m``), so the ratio is at most ``200 * min(u, m) / (length + m)``, at its highest for ``m = u``.
    It tells at once that no curated question can match one written mostly in other characters
    (figures, names, another script).
    """
    return 200.0 * reachable / (length + reachable)


def count_ceiling(text: str, chars: tuple[str, ...], counts: tuple[int, ...], other_length: int) -> float:
    """An upper bound of ``fuzz.ratio`` between ``text`` and a text holding ``counts[i]`` of each of ``chars``.

    The ratio is ``200 * LCS / (len(a) + len(b))``, and a common subsequence uses each character at
    most as often as the text with fewer of it holds it. The sum is taken with ``str.count`` on the
    other text's distinct characters, in C: no count of ``text`` is built and no set intersected, so
    rejecting a key costs a pass per character it holds. A key whose bound is under the threshold
    cannot match and never reaches the fuzzy matcher (whose import a question no key comes near never pays).
    """
    shared = sum(map(min, map(text.count, chars), counts))
    return 200.0 * shared / (len(text) + other_length)


def ascii_held(key: bytes, held: bytes) -> int:
    """How many characters of an ASCII key (its bytes) are among ``held`` (ASCII characters, as bytes).

    What ``reach_ceiling`` and ``presence_ceiling`` count, for an ASCII key (most English questions):
    one deletion over its bytes in C, where ``str.translate`` looks each character up in a dictionary.
    """
    return len(key) - len(key.translate(None, held))


def presence_ceiling(text: str, absent: Mapping[int, None], other_length: int) -> float:
    """A looser bound than ``count_ceiling``: ``text``'s characters that the other text holds at all.

    ``absent`` deletes every character of the other text (a ``str.translate`` table), so what is left
    of ``text`` cannot be in a common subsequence; one translation in C, cheaper than any count, leaves
    out most keys, and the counts are taken only for the few it lets through.
    """
    shared = len(text) - len(text.translate(absent))
    return 200.0 * shared / (len(text) + other_length)


class FaqIndex:
    """Question variants of every entry; exact normalised match first, then a fuzzy one, then
    (with an embedder) one by meaning."""

    def __init__(self, entries: tuple[FaqEntry, ...], *, threshold: float = DEFAULT_THRESHOLD,
                 semantic: SemanticFaqMatcher | None = None) -> None:
        if not 0 < threshold <= 100:
            raise ConfigurationError(f"FAQ threshold must be in (0, 100], got {threshold}")
        self.entries = entries
        self.threshold = threshold
        self.semantic = semantic
        self._by_key = {faq_key(q): e for e in entries for q in e.questions}
        self._keys = list(self._by_key)  # the fuzzy matcher's choices, built once rather than per question
        # Each key with its place, distinct characters, their counts and their deletion table, shortest first:
        # a question meets only the keys of a length within the ratio's length bound of its own (a slice found
        # by bisection).
        self._by_length = sorted(((len(key), place, key, *_counted(key)) for place, key in enumerate(self._keys)),
                                 key=lambda row: row[0])
        self._lengths = [row[0] for row in self._by_length]
        self._alphabet = frozenset("".join(self._keys))  # every character some key holds
        # the same characters, ASCII ones only, as bytes: an ASCII question's key is counted against them in C
        self._ascii_alphabet = _ascii_bytes(self._alphabet)
        self._ascii_held = {key: _ascii_bytes(key) for key in self._keys}
        self._held_runs_pattern: re.Pattern[str] | None = None

    def _held_runs(self) -> re.Pattern[str]:
        """Runs of characters some key holds: a non-ASCII key's reachable characters, found in C rather than
        a set look-up of a new string per character (compiled on the first such key)."""
        if self._held_runs_pattern is None:
            held = "".join(map(re.escape, sorted(self._alphabet)))
            self._held_runs_pattern = re.compile(f"[{held}]+" if held else "(?!)")  # no key: nothing is held
        return self._held_runs_pattern

    def with_embedders(self, query: Embedder, passage: Embedder, *, threshold: float | None = None,
                       margin: float | None = None, ignore: tuple[str, ...] = ()) -> FaqIndex:
        """The same index that also matches by meaning (see ``SemanticFaqMatcher``); ``threshold`` and
        ``margin`` default to ``faq_semantic``'s ``DEFAULT_SEMANTIC_THRESHOLD`` and ``DEFAULT_SEMANTIC_MARGIN``."""
        threshold = faq_semantic.DEFAULT_SEMANTIC_THRESHOLD if threshold is None else threshold
        margin = faq_semantic.DEFAULT_SEMANTIC_MARGIN if margin is None else margin
        if not 0 < threshold <= 1 or not 0 <= margin < 1:
            raise ConfigurationError(f"FAQ semantic threshold must be in (0, 1] and margin in [0, 1), "
                                     f"got {threshold} and {margin}")
        matcher = faq_semantic.SemanticFaqMatcher([e.questions for e in self.entries],
                                                  [e.answer for e in self.entries], query=query, passage=passage,
                                                  threshold=threshold, margin=margin, ignore=ignore)
        return FaqIndex(self.entries, threshold=self.threshold, semantic=matcher)

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any], *, threshold: float = DEFAULT_THRESHOLD) -> FaqIndex:
        """Build from faq.yaml's mapping (``entries: [{id, questions, answer, source{doc, locator}}]``)."""
        try:
            entries = tuple(
                FaqEntry(str(e["id"]), tuple(str(q) for q in e["questions"]), str(e["answer"]),
                         str(e["source"]["doc"]), str(e["source"]["locator"]))
                for e in raw["entries"]
            )
        except (KeyError, TypeError) as exc:
            raise ConfigurationError(f"FAQ file is malformed: {exc!r}") from exc
        if any(not (e.doc.strip() and e.locator.strip()) for e in entries):
            raise ConfigurationError("every FAQ entry needs source.doc and source.locator")
        return cls(entries, threshold=threshold)

    @classmethod
    def from_file(cls, path: Path, *, threshold: float = DEFAULT_THRESHOLD) -> FaqIndex:
        """Load a faq.yaml file."""
        return cls.from_mapping(load_yaml(path), threshold=threshold)

    def match(self, question: str, *, by_meaning: bool = True) -> FaqHit | None:
        """The entry this question asks, or None when nothing is close enough.

        ``by_meaning=False`` keeps to the exact and fuzzy matches: the caller knows the
        question asks for a figure, so the embedder is not worth its cost.
        """
        key = faq_key(question)
        if not key:
            return None
        exact = self._by_key.get(key)
        if exact is not None:
            return faq_hit.FaqHit(exact, 100.0)

        length, cut = len(key), self.threshold - 1e-6
        ascii_key = key.encode("ascii") if key.isascii() else None
        # what reach_ceiling takes: the key's characters some key holds (over its bytes for an ASCII key)
        reachable = ascii_held(ascii_key, self._ascii_alphabet) if ascii_key is not None else \
            len("".join(self._held_runs().findall(key)))
        if reach_ceiling(length, reachable) < cut:  # no key can reach the threshold: none is looked at
            return self._by_meaning(question) if by_meaning else None
        # The keys that could reach the threshold, in their order (the matcher keeps the first of equals);
        # the margin keeps a key whose bound rounds just under it. The length bound (a common subsequence
        # is no longer than the shorter text, nor than the key's reachable characters) is the count bound's
        # own ceiling, so most keys are left out before any character is counted.
        near: list[tuple[int, str]] = []
        # 200 * min(u, m) / (n + m) >= cut (u <= n reachable) holds only for m in [n * cut / (200 - cut),
        # 200 * u / cut - n]; the slice is widened by one on each side and every key in it still meets the
        # exact test below.
        low = bisect.bisect_left(self._lengths, length * cut / (200.0 - cut) - 1)
        high = bisect.bisect_right(self._lengths, 200.0 * reachable / cut - length + 1)
        for choice_length, place, choice, chars, counts, absent in self._by_length[low:high]:
            if 200.0 * min(reachable, choice_length) / (length + choice_length) < cut:
                continue
            if ascii_key is not None:  # presence_ceiling, counted over the key's bytes
                if 200.0 * ascii_held(ascii_key, self._ascii_held[choice]) / (length + choice_length) < cut:
                    continue
            elif presence_ceiling(key, absent, choice_length) < cut:
                continue
            if count_ceiling(key, chars, counts, choice_length) >= cut:
                near.append((place, choice))
        near.sort()
        choices = [choice for _place, choice in near]
        best = process.extractOne(key, choices, scorer=fuzz.ratio, score_cutoff=self.threshold) if near else None
        if best:
            return faq_hit.FaqHit(self._by_key[best[0]], float(best[1]), "fuzzy")
        return self._by_meaning(question) if by_meaning else None

    def _by_meaning(self, question: str) -> FaqHit | None:
        found = self.semantic.best(question) if self.semantic is not None else None
        return faq_hit.FaqHit(self.entries[found.entry], found.score, "semantic") if found else None


def _ascii_bytes(chars: Iterable[str]) -> bytes:
    """The ASCII characters among ``chars``, each once, as bytes (``ascii_held``'s set)."""
    return bytes(sorted({ord(char) for char in chars if char.isascii()}))


def _counted(key: str) -> tuple[tuple[str, ...], tuple[int, ...], dict[int, None]]:
    """A key's distinct characters, how often it holds each (``count_ceiling``'s other text) and
    the table deleting them (``presence_ceiling``'s)."""
    counted = Counter(key)
    return tuple(counted), tuple(counted.values()), dict.fromkeys(map(ord, counted))
