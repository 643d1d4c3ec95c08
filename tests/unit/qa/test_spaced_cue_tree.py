"""The check for a spaced arithmetic cue word ("ratio of", "in total") anywhere in the normalised question,
each space read as any character, finds one exactly where the words' plain alternation does.

It decides whether the arithmetic reader may find a cue in a plain lookup (``qa/plain_lookup.py``); as a
prefix tree it only tries fewer branches at each position. The property compares the two on text made
of the words, their pieces with other characters where their spaces stand, names and other scripts.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.qa.arithmetic_cues import _CUE_WORDS, SPACED_CUES_ANYWHERE

_SPACED = [word for word in _CUE_WORDS if " " in word]
_ALTERNATION = re.compile("|".join(re.escape(word).replace(r"\ ", ".") for word in _SPACED), re.DOTALL)
_PIECES = [*_SPACED, *(part for word in _SPACED for part in word.split(" ")), " ", "\n", "x", "_", "的", "の",
           "revenue", "gross margin", "2024", "?", "(", ")", "%", ","]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join), st.integers(0, 4))
def test_the_spaced_cue_tree_finds_a_word_exactly_where_the_alternation_does(text: str, start: int) -> None:
    assert (SPACED_CUES_ANYWHERE.search(text, start) is None) == (_ALTERNATION.search(text, start) is None)


def test_every_spaced_word_is_found_with_any_character_in_its_spaces() -> None:
    for word in _SPACED:
        assert SPACED_CUES_ANYWHERE.search(word.replace(" ", "\n")) is not None
        assert SPACED_CUES_ANYWHERE.search(word.replace(" ", "的")) is not None
