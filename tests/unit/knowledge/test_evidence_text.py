"""The evidence trimmer: code-point budgets cut only between grapheme clusters, whatever the text."""

from __future__ import annotations

import regex
from hypothesis import given
from hypothesis import strategies as st

from ragspine.knowledge.evidence_text import clip
from ragspine.knowledge.search import chapter_path, page_of

# Pieces that are one grapheme cluster of several code points, mixed with CJK and plain letters.
CLUSTERS = ["e\u0301", "a\u0308\u0323", "\U0001F469\u200D\U0001F4BB", "\U0001F1EF\U0001F1F5", "\U0001F44D\U0001F3FD",
            "\u1100\u1161\u11A8", "\r\n", "中", "文", "日本", "x", " ", "\U0001F600"]


def clusters(text: str) -> list[str]:
    return [str(c) for c in regex.findall(r"\X", text)]


@given(st.lists(st.sampled_from(CLUSTERS) | st.text(max_size=3), max_size=60).map("".join),
       st.integers(min_value=0, max_value=80))
def test_the_cut_is_the_longest_whole_cluster_prefix_within_the_budget(text: str, limit: int) -> None:
    kept, cut = clip(text, limit)
    assert len(kept) <= limit and text.startswith(kept) and cut == (len(text) > limit)
    whole = clusters(text)
    assert clusters(kept) == whole[:len(clusters(kept))]  # no cluster was split
    if cut:
        nxt = whole[len(clusters(kept))]
        assert len(kept) + len(nxt) > limit  # the next whole cluster would not have fitted


def test_a_combining_sequence_or_emoji_is_never_split() -> None:
    assert clip("ab" + "e\u0301", 3) == ("ab", True)
    assert clip("中" * 2 + "\U0001F469\u200D\U0001F4BB", 4) == ("中中", True)
    assert clip("文字", 2) == ("文字", False)


def test_pages_and_chapter_paths() -> None:
    assert page_of("page=3,para=2") == 3 and page_of("page=4-6") == 4 and page_of("heading=A,para=1") is None
    assert page_of("page=0") is None and page_of("slide=7") is None
    trail = chapter_path(tuple(f"h{i}" for i in range(10)) + ("x" * 300, "  "))
    assert len(trail) == 8 and trail[-1] == "x" * 200 and trail[0] == "h3"
