"""A question's FAQ hit: the entry matched, how well and how (``FaqIndex.match``).

Built only when a question matches an entry (``qa.faq`` loads this module then): apart from the index so
that a question no entry answers does not create the class at a cold start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ragspine.qa.faq import FaqEntry


@dataclass(frozen=True, slots=True)
class FaqHit:
    """A matched entry, how well the question matched and how.

    ``score`` is 100 for the same normalised text, the fuzzy ratio (0-100) for a fuzzy hit
    and the cosine score (0-1) for a ``semantic`` one.
    """

    entry: FaqEntry
    score: float
    method: str = "exact"
