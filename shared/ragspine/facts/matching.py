"""Fast regexes for the glossary: aliases as a prefix tree, period patterns in one pass.

A plain alternation of ~100 aliases makes ``re`` try every alternative at every position;
the same words folded into a prefix tree (``毛利(?:率|润)?``) fail after one character at
most positions. Greedy optional suffixes keep the longest alias winning. A lookahead for the
possible first characters (one class test) goes in front of each tree: without it ``re`` still
tries the tree's first level branch by branch at every position.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

_WORD_EDGE = "a-z0-9_"


def _escaped(char: str) -> str:
    """``re.escape(char)``, kept: a glossary's trees escape the same few hundred characters thousands of times."""
    text = _ESCAPED.get(char)
    if text is None:
        text = _ESCAPED.setdefault(char, re.escape(char))
    return text


_ESCAPED: dict[str, str] = {}


def trie_pattern(words: Iterable[str], *, guarded: bool = True) -> str:
    """A regex source matching exactly ``words``, longest first, built as a prefix tree.

    ``guarded=False`` leaves out the first-character lookahead, for a tree that opens its pattern
    (nothing before it): its first level is then a branch of plain characters, from which ``re``
    takes the set of first characters and skips every other position in C, which the lookahead
    prevents. After a lookbehind (``alias_pattern``) ``re`` takes no such set: keep the guard there.
    """
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict) -> str:  # type: ignore[type-arg]
        branches = []
        for char, child in sorted(node.items()):
            if not char:
                continue
            text = _escaped(char)
            # A run of characters with one way on and no word ending is written out as it stands
            # (the same source as a level each, built in one step a character instead of a call).
            while len(child) == 1 and "" not in child:
                (char, child), = child.items()
                text += _escaped(char)
            branches.append(text + build(child))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    tree = build(root)
    if not tree or "" in root or not guarded:  # an empty word matches anywhere: no first character to require
        return tree
    return f"(?=[{''.join(_escaped(char) for char in sorted(root))}]){tree}"


def script_split_pattern(words: Iterable[str]) -> str:
    """A regex source matching exactly ``words`` (as ``trie_pattern``), its Latin and other words as two trees.

    ``re`` tries a branch's alternatives one by one: in one tree of every word, a Latin letter that opens no
    word found goes on through the alternatives of every CJK first character, at every position. Here a
    lookahead on each tree's first characters rejects the other script's whole tree in one class test, and
    one on all of them rejects a position opening no word (a test per position that ``re`` pays instead of
    skipping to the first characters in C: on a tree of a hundred CJK first characters the cheaper trade).
    """
    words = set(words)
    latin = sorted(word for word in words if word[:1].isascii())
    other = sorted(word for word in words if not word[:1].isascii())
    if "" in words or not latin or not other:  # an empty word, or one script: the one tree as it is
        return trie_pattern(words, guarded=False)
    trees = [f"(?=[{_first_characters(part)}]){trie_pattern(part, guarded=False)}" for part in (latin, other)]
    return f"(?=[{_first_characters(words)}])(?:{'|'.join(trees)})"


def _first_characters(words: Iterable[str]) -> str:
    return "".join(_escaped(char) for char in sorted({word[0] for word in words}))


def alias_pattern(aliases: Iterable[str]) -> str:
    """Regex source for all aliases; Latin aliases only match whole words (EC never inside RECORD).

    Aliases mixing a Latin start with other script (``EBITDAマージン``, ``EBITDA利润率``) are tried
    first, so the longer alias wins over its Latin prefix (``EBITDA``); their start is a word edge too.
    """
    words = sorted(set(aliases))
    latin = [w for w in words if w.isascii()]
    mixed = [w for w in words if not w.isascii() and re.match(f"[{_WORD_EDGE}]", w)]
    other = [w for w in words if not w.isascii() and w not in mixed]
    parts = []
    if mixed:
        parts.append(rf"(?<![{_WORD_EDGE}]){trie_pattern(mixed)}")
    if latin:
        parts.append(rf"(?<![{_WORD_EDGE}]){trie_pattern(latin)}(?![{_WORD_EDGE}])")
    if other:
        parts.append(trie_pattern(other))
    if not parts:
        return "(?!)"
    if (latin or mixed) and "" not in words:
        # One class test for every part's first characters: the Latin parts open with a
        # lookbehind, which ``re`` would otherwise evaluate, part by part, at every position.
        first = "".join(re.escape(char) for char in sorted({word[0] for word in words}))
        return f"(?=[{first}])(?:{'|'.join(parts)})"
    return "|".join(parts)


def ascii_alias_pattern(aliases: Iterable[str]) -> str:
    """What ``alias_pattern(aliases)`` finds in ASCII text, as a regex to search in ``" " + text``.

    ASCII text holds only the ASCII aliases, each opening after a character that is no word character
    (or at the start, where the space put in front stands for it). Opening on that class rather than on
    ``alias_pattern``'s lookahead, the search skips in C to the few characters that end a word, where
    ``alias_pattern`` tries its tree at nearly every letter of an English question. The tree goes unguarded:
    after a space, its first branch rejects a letter opening no word about as fast as a lookahead would.
    """
    ascii_words = {alias for alias in aliases if alias.isascii()}
    return rf"[^{_WORD_EDGE}]{trie_pattern(ascii_words, guarded=False)}(?![{_WORD_EDGE}])" if ascii_words else "(?!)"


class PeriodGroups(NamedTuple):
    """Which pattern a combined-regex match came from, and its year/quarter group numbers."""

    pattern: int
    year: int | None
    quarter: int | None


class SlotRegex(NamedTuple):
    """One regex finding periods and aliases in a single left-to-right pass."""

    regex: re.Pattern[str]
    periods: dict[int, PeriodGroups]  # lastindex of a period match -> its pattern and groups
    alias_group: int  # lastindex of an alias match


def slot_regex(period_sources: Sequence[str], first_chars: str, aliases: Iterable[str]) -> SlotRegex:
    """Join the period patterns and the alias tree into one alternation, periods first.

    At each position the period patterns are tried before the aliases, behind a guard
    (``first_chars``, a class every period pattern starts with) that rejects most positions
    with one test. Each period pattern is wrapped in a group ``p<i>`` with its ``year``/``q``
    groups renamed ``y<i>``/``q<i>``; a match's ``lastindex`` says which branch matched.
    """
    wrapped = []
    for index, source in enumerate(period_sources):
        renamed = source.replace("(?P<year>", f"(?P<y{index}>").replace("(?P<q>", f"(?P<q{index}>")
        wrapped.append(f"(?P<p{index}>{renamed})")
    periods = f"(?={first_chars})(?:{'|'.join(wrapped)})" if wrapped else "(?!)"
    regex = re.compile(f"{periods}|(?P<alias>{alias_pattern(aliases)})")
    groups = regex.groupindex
    return SlotRegex(
        regex,
        {groups[f"p{i}"]: PeriodGroups(i, groups.get(f"y{i}"), groups.get(f"q{i}"))
         for i in range(len(period_sources))},
        groups["alias"],
    )
