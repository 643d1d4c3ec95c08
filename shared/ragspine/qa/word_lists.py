"""Which of several word lists a text holds, every list found in one pass.

Several readers of a question look for their own words first (a cue word, a month's first
letters, a statement's name) and read nothing without one. As regexes that is one pass over the
question per reader, and ``re`` pays a test per position and per branch of a large prefix tree.
An Aho-Corasick automaton of every list (``pyahocorasick``, in C) reports each list one of whose
words occurs anywhere in the text, overlapping words included, in one pass: a reader whose list
is absent is skipped with no pass of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any


class WordLists:
    """Word lists, numbered by their order: ``held(text)`` has bit ``1 << i`` set when ``text`` holds a word
    of list ``i`` as a substring (an empty word is held by every text). Built on the first ``held``."""

    __slots__ = ("_automaton", "_lists", "_lock")

    def __init__(self, *lists: Iterable[str]) -> None:
        self._lists = tuple(tuple(words) for words in lists)
        self._automaton: tuple[Any, int] | None = None
        self._lock = threading.Lock()

    def held(self, text: str) -> int:
        """The bits of the lists ``text`` holds a word of."""
        built = self._automaton or self._build()
        automaton, always = built
        for _end, bits in automaton.iter(text):
            always |= bits
        return always

    def _build(self) -> tuple[Any, int]:
        import ahocorasick  # only a question that reaches a reader of these lists loads it

        with self._lock:
            if self._automaton is not None:
                return self._automaton
            bits_of: dict[str, int] = {}
            always = 0
            for index, words in enumerate(self._lists):
                for word in words:
                    if word:
                        bits_of[word] = bits_of.get(word, 0) | 1 << index
                    else:
                        always |= 1 << index
            automaton = ahocorasick.Automaton()
            for word, bits in bits_of.items():
                automaton.add_word(word, bits)
            if bits_of:
                automaton.make_automaton()
            else:  # an automaton of no word cannot be made; nothing is found in any text
                automaton = _NoWords()
            self._automaton = (automaton, always)
            return self._automaton


class _NoWords:
    @staticmethod
    def iter(_text: str) -> tuple[()]:
        return ()
