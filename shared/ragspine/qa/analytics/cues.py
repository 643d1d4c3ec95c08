"""What analysis a question asks for, read from the intent cues of the domain (a pure function of text)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ragspine.errors import ConfigurationError
from ragspine.facts.glossary import normalize_text
from ragspine.facts.matching import alias_pattern
from ragspine.lazy import LazyPattern
from ragspine.qa.arithmetic_cues import AVERAGE

# Optional cue groups of intent.yaml; a domain without them simply gets no such analysis.
PRIOR_GROUPS = ("year_over_year", "quarter_over_quarter")
ORDER_GROUPS = ("highest", "lowest", "rank")
RELATIVE_GROUPS = ("last_year", "this_year", "last_quarter", "this_quarter")
OTHER_GROUPS = ("share", "sum_of_quarters", "top", "analysis_fillers")
ANALYTICS_GROUPS = (*PRIOR_GROUPS, *ORDER_GROUPS, *RELATIVE_GROUPS, *OTHER_GROUPS)
# Which group owns a word listed in two (the longest word at a position wins regardless).
_SCAN_ORDER = (*PRIOR_GROUPS, "lowest", "highest", "rank", *RELATIVE_GROUPS, "share", "sum_of_quarters")
# "per share", "per-share": what a figure is stated per, never a share of a whole
_PER = ("per ", "per-")
_CJK_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


@dataclass(frozen=True, slots=True)
class Analysis:
    """The analysis a question asks for beyond reading figures.

    ``prior`` is ``year`` or ``quarter`` (compare with the prior comparable period), ``order``
    ``high`` or ``low`` (rank the entities), ``top`` how many to list, ``relative`` the relative
    period named (``last_year`` ...) and the words that named it, ``levels`` the hierarchy
    levels enumerated (各地区 -> region). ``quarter_mean``: the quarters cue asks their mean ("average
    quarterly", "quarterly average"), not their sum. ``channel_share``: the share asked is of a channel named
    in its entity's figure over all channels, not of the entity in its parent's (``qa/share_wholes.py``).
    ``by_growth``: the ranking is of each entity's growth over the prior year ("which region grew fastest"),
    not of its figure (``prior`` is then ``year``: the prior year's figures are looked up). ``of_quarters``: the
    ranking is of the quarters of each year asked ("which quarter of 2024 had the highest revenue"), not of entities.
    """

    prior: str | None = None
    order: str | None = None
    top: int | None = None
    share: bool = False
    sum_of_quarters: bool = False
    relative: str | None = None
    relative_raw: str = ""
    levels: tuple[str, ...] = ()
    quarter_mean: bool = False
    channel_share: bool = False
    by_growth: bool = False
    of_quarters: bool = False

    def __bool__(self) -> bool:
        # ``is`` first: every ask of a plain question checks this, and NO_ANALYSIS is what it gets.
        return self is not NO_ANALYSIS and self != NO_ANALYSIS


NO_ANALYSIS = Analysis()


class AnalyticsCues:
    """The compiled analytics cue groups of a domain plus its level words (each region, 各地区).

    All cue words are one prefix-tree regex, scanned once, each word mapped to its group: at a
    position the longest word wins, and the leftmost position first, so "vs last year" is a
    comparison (not the period "last year"), 一番低い lowest (not 一番, highest) and 前年度比 a
    comparison (not 前年度). A word in two groups belongs to the first of ``_SCAN_ORDER``.
    """

    def __init__(self, cues: Mapping[str, Iterable[str]], level_aliases: Mapping[str, str],
                 level_names: Mapping[str, str] | None = None) -> None:
        try:
            self._group_of: dict[str, str] = {}
            for name in _SCAN_ORDER:
                for word in cues.get(name, []):
                    self._group_of.setdefault(normalize_text(word).strip(), name)
            self._cues = LazyPattern(alias_pattern(self._group_of)) if self._group_of else None
            self._top = _top_pattern(cues.get("top", []))
        except (TypeError, AttributeError, ValueError, re.error) as exc:
            raise ConfigurationError(f"intent analytics cues are malformed: {exc!r}") from exc
        self._level_aliases = dict(level_aliases)
        self._levels = LazyPattern(alias_pattern(self._level_aliases)) if self._level_aliases else None
        # A level's own name ("which subsidiary", "which product line") scopes a ranking: read only beside an
        # order cue, where it says which entities are compared; elsewhere it is a word of the question.
        self._level_names = {word: level for name, level in (level_names or {}).items()
                             for word in _with_plural(normalize_text(name).strip())
                             if word and word not in self._level_aliases}
        self._named_levels = LazyPattern(alias_pattern(self._level_names)) if self._level_names else None
        self.trigger_words = _trigger_words(self._group_of, cues.get("top", []), self._level_aliases)
        words = [w for name in ANALYTICS_GROUPS if name != "top" for w in cues.get(name, [])]
        self._words = sorted({normalize_text(w).strip() for w in [*words, *level_aliases, *self._level_names]},
                             key=len, reverse=True)

    def read(self, text: str) -> Analysis:
        """The analysis ``text`` (already ``normalize_text``-ed) asks for."""
        found: dict[str, str] = {}
        if self._cues is not None:
            for match in self._cues.finditer(text):
                group = self._group_of[match.group()]
                if group == "share" and text[:match.start()].endswith(_PER):
                    continue  # "earnings per share" is a figure's unit, no part of a whole asked
                found.setdefault(group, match.group())
        top = self._top_n(text)
        levels = tuple(dict.fromkeys(self._level_aliases[m.group()] for m in self._levels.finditer(text))) \
            if self._levels is not None else ()
        if self._named_levels is not None and (top is not None or set(ORDER_GROUPS) & found.keys()):
            levels = tuple(dict.fromkeys((*levels, *(self._level_names[m.group()]
                                                     for m in self._named_levels.finditer(text)))))
        if not found and top is None and not levels:
            return NO_ANALYSIS
        prior = "year" if "year_over_year" in found else "quarter" if "quarter_over_quarter" in found else None
        relative = next((name for name in RELATIVE_GROUPS if name in found), None)
        order = "low" if "lowest" in found else "high" if {"highest", "rank"} & found.keys() or top else None
        quarters = found.get("sum_of_quarters")
        return Analysis(prior, order, top, "share" in found, quarters is not None, relative,
                        found.get(relative, "") if relative else "", levels,
                        quarter_mean=quarters is not None and AVERAGE.search(quarters) is not None)

    def strip(self, word: str) -> str:
        """``word`` with every analytics cue and level word blanked (what is left may be a name)."""
        for cue in self._words:
            word = word.replace(cue, " ")
        return word

    def _top_n(self, text: str) -> int | None:
        match = self._top.search(text) if self._top is not None else None
        if match is None:
            return None
        digits = next(g for g in match.groups() if g)
        value = int(digits) if digits.isdigit() else _CJK_DIGITS[digits]
        return value if value >= 1 else None


def _trigger_words(group_of: Mapping[str, str], top: Iterable[str],
                   level_aliases: Mapping[str, str]) -> tuple[str, ...] | None:
    """Words one of which ``read`` needs in its text to find any analysis; None when a cue needs none.

    A cue word, a level's alias and the words of a top template around its number each match as they are
    written (a level's own name is read only beside a cue or top template, which already holds one).
    """
    pieces = []
    for template in top:
        before, _, after = normalize_text(template).strip().partition("{n}")
        pieces.append(before.strip() or after.strip())
    words = (*group_of, *pieces, *level_aliases)
    return None if "" in words else words


def _with_plural(name: str) -> tuple[str, ...]:
    """A level's name and, in English, its plural ("subsidiary" -> "subsidiaries", "product line" -> "…lines")."""
    if not name.isascii() or not name[-1:].isalpha():
        return (name,)
    return (name, f"{name[:-1]}ies" if name.endswith("y") and name[-2:-1] not in "aeiou" else f"{name}s")


def _top_pattern(templates: Iterable[str]) -> LazyPattern | None:
    """``top {n}`` / ``前{n}名`` / ``上位{n}``: each template with its ``{n}`` as a number group."""
    number = rf"\s*(\d{{1,2}}|[{''.join(_CJK_DIGITS)}])\s*"
    parts = []
    firsts = set()
    for template in templates:
        before, sep, after = normalize_text(template).strip().partition("{n}")
        if not sep:
            raise ValueError(f"top cue {template!r} has no {{n}}")
        edge = r"(?<![a-z0-9])" if before[:1].isascii() and before[:1].isalpha() else ""
        parts.append(f"{edge}{re.escape(before.strip())}(?:{number}){re.escape(after.strip())}")
        firsts.add(before.strip()[:1])
    if not parts:
        return None
    # A lookahead on the first characters of the words before the number rejects most positions with one
    # class test (the templates open with a lookbehind, so ``re`` would try each one at every position);
    # a template with nothing before its number may start with any digit or space: then none.
    guard = "" if "" in firsts else f"(?=[{''.join(re.escape(char) for char in sorted(firsts))}])"
    # One group per template: the first that matched holds the number.
    return LazyPattern(guard + "(?:" + "|".join(f"(?:{p})" for p in parts) + ")")
