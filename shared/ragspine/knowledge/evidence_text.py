"""Evidence budgets counted in Unicode code points, cut only between grapheme clusters.

A Python ``str`` is a sequence of code points, so ``len`` is the seed's count; the cut point
is the end of the last whole extended grapheme cluster (``regex``'s ``\\X``, UAX #29) that fits,
so a combining sequence, an emoji ZWJ sequence or a flag is kept whole or dropped whole.
"""

from __future__ import annotations

from ragspine.knowledge.graphemes import forward_end


def clip(text: str, limit: int) -> tuple[str, bool]:
    """The longest prefix of ``text`` made of whole grapheme clusters with at most ``limit`` code points.

    Returns:
        The prefix and whether anything was cut.
    """
    if len(text) <= limit:
        return text, False

    return text[:forward_end(text, 0, limit)], True
