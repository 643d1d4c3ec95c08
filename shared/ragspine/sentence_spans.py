"""Text cut into pieces of at most so many characters, at sentence ends where it can be."""

from __future__ import annotations

import re

# A sentence ends after 。！？ (no space follows in CJK), after .!? followed by
# whitespace (so 7.4% and v1.2 stay whole), after ；; or at a line break.
_SENTENCE_END = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+|\n+")
_SOFT_BREAK = re.compile(r"[\s，、,]")


def split_spans(text: str, max_chars: int) -> list[tuple[int, int]]:
    """The (start, end) in ``text.strip()`` of pieces of at most ``max_chars``.

    Cuts fall at sentence ends when possible, else at a space or comma; the pieces are slices
    of the stripped text (spacing kept), and an over-long sentence is cut into near-equal parts
    so no tiny tail is left over.
    """
    text = text.strip()
    if len(text) <= max_chars:
        return [(0, len(text))] if text else []
    spans: list[tuple[int, int]] = []
    start = 0
    for end in [*(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]:
        if end > start:
            spans.extend(_hard_spans(text, start, end, max_chars))
            start = end
    pieces: list[tuple[int, int]] = []
    begin, until = spans[0]
    for span_start, span_end in spans[1:]:
        if span_end - begin <= max_chars:
            until = span_end
        else:
            pieces.append(_stripped(text, begin, until))
            begin, until = span_start, span_end
    pieces.append(_stripped(text, begin, until))
    return [(a, b) for a, b in pieces if b > a]


def _stripped(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` without its surrounding whitespace, as offsets (what ``str.strip`` keeps)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _hard_spans(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` into near-equal spans of at most ``max_chars``, at a soft break if one is near."""
    spans: list[tuple[int, int]] = []
    while end - start > max_chars:
        target = -(-(end - start) // -(-(end - start) // max_chars))  # ceil(len / ceil(len / max))
        window = text[start:start + target]
        breaks = [m.end() for m in _SOFT_BREAK.finditer(window) if m.end() > target * 0.6]
        cut = start + (breaks[-1] if breaks else target)
        spans.append((start, cut))
        start = cut
    spans.append((start, end))
    return spans
