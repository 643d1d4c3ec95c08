"""Rows named in one phrase around a shared head word: each row written out, so each is asked.

"The domestic and international discount rates" names two rows, ``Domestic discount rate`` and
``International discount rate``, whose shared words ("discount rates") are written once, after the
last modifier. Read as written, only "international discount rates" is a row's name, and that one row
would answer for the phrase: a figure for a row the question did not ask alone. Where the documents'
names hold the words after the list word as a row and the words before it with the same head as
another row, the phrase is written out as the two names joined by the list word ("domestic discount
rates and international discount rates"), and the question parse asks each (or computes over them, when
the question asks a sum, an average or a difference). The same holds in Chinese and Japanese, with or
without the particle (国内和国际的折现率, 国内及び海外の割引率). A modifier whose row the documents do
not name leaves the question as written, and a phrase that is itself a row's name ("interest and other
income") is that row.
"""

from __future__ import annotations

from collections.abc import Mapping

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.lazy import LazyPattern

# "domestic and international", "high & low", "domestic or international", "domestic, European"
_EN_JOINER = LazyPattern(r"(?<![\w-])(?:and|or|to|vs|versus)(?![\w-])|[,&]")
_WORD = LazyPattern(r"[\w%'-]+")
# 国内和国际, 国内及び海外, 国内と海外, 国内、海外
_CJK_JOINER = LazyPattern(r"以及|及び|および|和|与|與|及|と|や|、")
_PARTICLES = ("", "的", "の")
_MAX_MODIFIER_WORDS = 3
_MAX_ROWS = 6
_MAX_PHRASE_WORDS = 7
_MAX_MODIFIER_CHARS = 8
_MAX_PHRASE_CHARS = 20


def with_shared_head_rows(question: str, glossary: Glossary) -> str:
    """The question with each "A and B <head>" whose rows the documents name written as "A <head> and B <head>".

    ``question`` is in NFKC already (as ``parse_slots`` reads it).
    """
    lower = question.lower()
    if len(lower) != len(question):  # lower-casing moved the offsets: nothing is spliced
        return question
    for _ in range(_MAX_ROWS - 1):  # "A, B and C <head>": C's pair first, then B's and A's by the comma
        spliced = _spliced_en(question, question.lower(), glossary) if question.isascii() \
            else _spliced_cjk(question, glossary)
        if spliced is None:
            break
        question = spliced
    return question


def _row(glossary: Glossary, words: str) -> str | None:
    """The metric a whole name is (the question is NFKC already: lower case is the aliases' form)."""
    owner = glossary.aliases.get(words.lower())
    return owner[1] if owner is not None and owner[0] is SlotKind.METRIC else None


def _spliced_en(question: str, lower: str, glossary: Glossary) -> str | None:
    for joiner in _EN_JOINER.finditer(lower):
        after = list(_WORD.finditer(lower, joiner.end()))[:_MAX_PHRASE_WORDS]
        before = list(_WORD.finditer(lower, 0, joiner.start()))[-_MAX_MODIFIER_WORDS:]
        if not after or not before or lower[before[-1].end():joiner.start()].strip(" ,"):
            continue  # the list word joins no two runs of words
        for size in range(len(after), 1, -1):  # the longest row after the list word first
            second = lower[after[0].start():after[size - 1].end()]
            if _row(glossary, second) is None:
                continue
            for cut in range(1, size):  # the second row's modifier, then the head shared with the first
                head = lower[after[cut].start():after[size - 1].end()]
                for count in range(1, len(before) + 1):  # the shortest modifier before the list word first
                    start = before[-count].start()
                    modifier = lower[start:before[-1].end()]
                    first = _row(glossary, f"{modifier} {head}")
                    if first is None or first == _row(glossary, second):
                        continue
                    if _row(glossary, lower[start:after[size - 1].end()]) is not None:
                        return None  # the whole phrase is one row's name
                    written = f"{question[start:before[-1].end()]} {question[after[cut].start():after[size - 1].end()]}"
                    return f"{question[:start]}{written}{question[before[-1].end():]}"
    return None


def _spliced_cjk(question: str, glossary: Glossary) -> str | None:
    lower = question.lower()
    prefixes = _prefixes(glossary)
    for joiner in _CJK_JOINER.finditer(lower):
        rest = lower[joiner.end():joiner.end() + _MAX_PHRASE_CHARS]
        for cut in range(1, min(_MAX_MODIFIER_CHARS, len(rest)) + 1):  # the second row's modifier
            if rest[:cut] not in prefixes:
                break  # no row's name begins so: a longer modifier begins none either
            particle = next((p for p in ("的", "の") if rest.startswith(p, cut)), "")
            after = rest[cut + len(particle):]
            for written in _particles(rest[:cut]):  # the particle the documents write, or none
                size = _longest_row(glossary, prefixes, written, after)
                if not size:
                    continue
                head, second = after[:size], f"{written}{after[:size]}"
                end = joiner.end() + cut + len(particle) + size
                for count in range(1, min(_MAX_MODIFIER_CHARS, joiner.start()) + 1):
                    modifier = question[joiner.start() - count:joiner.start()]
                    if modifier[0].isspace() or modifier[0].isdigit():
                        break
                    if modifier.lower() not in prefixes:
                        continue  # no row's name begins with it
                    first = _written(glossary, modifier, head)
                    if first is None or _row(glossary, first) == _row(glossary, second):
                        continue
                    if _row(glossary, lower[joiner.start() - count:end]) is not None:
                        return None  # the whole phrase is one row's name
                    start = joiner.start() - count
                    return f"{question[:start]}{first}{joiner.group()}{second}{question[end:]}"
    return None


def _particles(modifier: str) -> tuple[str, ...]:
    return tuple(f"{modifier}{p}" for p in _PARTICLES)


def _longest_row(glossary: Glossary, prefixes: frozenset[str], written: str, after: str) -> int:
    """How many characters of ``after`` make, behind ``written``, the longest row's name; 0 for none."""
    longest = 0
    for size in range(1, len(after) + 1):
        name = f"{written}{after[:size]}"
        if name not in prefixes:
            break
        if _row(glossary, name) is not None:
            longest = size
    return longest


_PREFIX_MEMO: list[tuple[Mapping[str, tuple[SlotKind, str]], frozenset[str]]] = []


def _prefixes(glossary: Glossary) -> frozenset[str]:
    """Every beginning of a metric's name outside ASCII (to stop reading a phrase no name begins with)."""
    aliases = glossary.aliases
    if _PREFIX_MEMO and _PREFIX_MEMO[0][0] is aliases:
        return _PREFIX_MEMO[0][1]
    made = frozenset(alias[:end] for alias, (kind, _code) in aliases.items()
                     if kind is SlotKind.METRIC and not alias.isascii() for end in range(1, len(alias) + 1))
    _PREFIX_MEMO[:] = [(aliases, made)]  # one glossary's at a time: a new one comes with new documents
    return made


def _written(glossary: Glossary, modifier: str, head: str) -> str | None:
    """The row's name a modifier and a head make, with the particle the documents write between them or none."""
    return next((f"{modifier}{p}{head}" for p in _PARTICLES if _row(glossary, f"{modifier}{p}{head}") is not None),
                None)
