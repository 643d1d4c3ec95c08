"""Which name of a share question is its whole: the channel named, or the figure over all channels.

"What percentage of Hong Kong revenue was online" divides Hong Kong's online revenue by Hong Kong's revenue over
all channels (the glossary's default channel); "what share of online revenue came from Japan" divides Japan's
online revenue by its parent's online revenue. The words that write the whole tell them apart: "percentage
of X", "as a share of X", (在)X中…占比, 占X的比例, Xに占める, Xのうち, "…はXの何%". A channel named outside the
whole is the part asked; one named inside it is the whole's, and the share is of the parent, as without one.
"""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.lazy import LazyPattern

# Each writes its whole in the group ``whole`` (the normalised question: NFKC, lower case).
_WHOLES = (
    LazyPattern(r"(?:share|percentage|percent|proportion|fraction|%)\s+of\s+(?:the\s+|its\s+)?(?P<whole>.+?)"
                r"(?=\s+(?:was|were|is|are|came|come|comes|did|does|do|from|that|which|made|accounted|account|in)\b"
                r"|[,?？]|$)"),
    LazyPattern(r"(?P<whole>[^，,。？?在]+?)中(?:的)?[^，,。？?中]*?(?:占比|比例|比重|份额)"),
    LazyPattern(r"占(?!比)(?:其)?(?P<whole>[^，,。？?占]+?)的?(?:比例|比重|百分比|份额|多少)"),
    LazyPattern(r"(?P<whole>[^、。？?]+?)(?:に占める|のうち|における)"),
    LazyPattern(r"(?:は|が)(?P<whole>[^、。？?]+?)の(?:何%|何パーセント|何割|割合|比率)"),
)


def channel_is_part(question: str, glossary: Glossary) -> bool:
    """True when a share question names a channel outside the words of its whole (the channel is the part asked)."""
    default = glossary.default_channel
    channels = [m for m in glossary.scan(question) if m.kind is SlotKind.CHANNEL and m.code not in (None, default)]
    if not channels:
        return False
    text = normalize_text(question)
    for pattern in _WHOLES:
        match = pattern.search(text)
        if match is None:
            continue
        start, end = match.span("whole")
        inside = [m for m in channels if start <= m.start and m.end <= end]
        return not inside
    return False
