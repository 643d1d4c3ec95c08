"""One Aho-Corasick pass reports each word list a text holds a word of, as a substring search of each list would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.qa.word_lists import WordLists

# Few letters, so words overlap, nest and repeat across lists; CJK and a combining mark too.
_LETTERS = st.sampled_from(["a", "b", "ab", "年", "度", "\u0301", " "])
_WORDS = st.lists(_LETTERS, max_size=3).map("".join)
_TEXTS = st.lists(_LETTERS, max_size=12).map("".join)


@given(st.lists(st.lists(_WORDS, max_size=5), min_size=1, max_size=5), st.lists(_TEXTS, min_size=1, max_size=4))
def test_each_list_is_held_exactly_when_the_text_holds_one_of_its_words(lists: list[list[str]],
                                                                          texts: list[str]) -> None:
    words = WordLists(*lists)
    for text in texts:  # one automaton, read for several texts
        expected = sum(1 << index for index, found in enumerate(lists) if any(word in text for word in found))
        assert words.held(text) == expected


def test_lists_with_no_word_hold_nothing_and_an_empty_word_is_held_everywhere() -> None:
    assert WordLists([], []).held("any text") == 0
    assert WordLists([], [""]).held("") == 0b10
