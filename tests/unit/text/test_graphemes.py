"""Budget cuts on grapheme boundaries: never inside a combining sequence, an emoji ZWJ sequence or a flag."""

from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.knowledge.graphemes import backward_start, forward_end

_GRAPHEMES = ["a", "漢", "e\u0301", "e\u0301\u0323", "👩\u200d👩\u200d👧", "🇯🇵", "😀", "\n", " ", "ก\u0e31"]


def _boundaries(text: str) -> set[int]:
    return {m.start() for m in regex.finditer(r"\X", text)} | {len(text)}


@settings(deadline=None)  # a loaded machine must not fail a property test on time
@given(st.lists(st.sampled_from(_GRAPHEMES), max_size=200).map("".join), st.integers(0, 60), st.data())
def test_cuts_are_boundaries_within_the_budget(text: str, limit: int, data: st.DataObject) -> None:
    bounds = sorted(_boundaries(text))
    at = data.draw(st.sampled_from(bounds))
    end = forward_end(text, at, limit)
    start = backward_start(text, at, limit)
    assert end in bounds and at <= end <= at + limit
    assert start in bounds and at - limit <= start <= at
    # As much as fits: the next boundary would pass the budget (or the text ends).
    after = [b for b in bounds if b > end]
    assert not after or after[0] - at > limit
    before = [b for b in bounds if b < start]
    assert not before or at - before[-1] > limit
