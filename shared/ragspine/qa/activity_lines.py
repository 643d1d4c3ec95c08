"""A metric named inside the words of a cash flow line is that line: "cash used in investing activities" is no balance.

"cash" names the glossary's cash balance, but "cash used in investing activities", "cash provided by
operating activities" and "how much cash was used in financing activities" name a line of the cash
flow statement. Where the words right after a metric say it was used in, provided by or generated
from an activity, the metric is read as the one glossary metric whose names hold both the metric's
words and that activity ("net cash used in investing activities"); when none or several do, as no
metric at all, so the question is asked back and never answered with the balance.
"""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, Mention, SlotKind, normalize_text
from ragspine.lazy import LazyPattern

# "… flows were used in the investing activities", "… provided by operating activities", "… from financing activities"
_ACTIVITY = LazyPattern(r"(?:\s+flows?)?(?:\s+(?:was|were|is|has\s+been|net))*\s+"
                        r"(?:(?:used|provided|generated|spent|received)(?:\s+(?:in|by|from|for))?|from)\s+"
                        r"(?:(?:the|its|our)\s+)?(?P<activity>[a-z]+)\s+activities\b")


def with_activity_lines(question: str, mentions: list[Mention], glossary: Glossary) -> list[Mention]:
    """``mentions`` with each metric named inside a cash flow line's words read as that line (or dropped)."""
    norm = normalize_text(question)
    if "activit" not in norm:
        return mentions
    read: list[Mention] = []
    for mention in mentions:
        match = _ACTIVITY.match(norm, mention.end) if mention.kind is SlotKind.METRIC and mention.code else None
        if match is None:
            read.append(mention)
            continue
        named = norm[mention.start:mention.end].strip()
        activity = f"{match['activity']} activities"
        lines = {code for alias, (kind, code) in glossary.aliases.items()
                 if kind is SlotKind.METRIC and code != mention.code and activity in alias
                 and f" {named} " in f" {alias} "}
        if len(lines) == 1:
            read.append(Mention(SlotKind.METRIC, lines.pop(), norm[mention.start:match.end()], mention.start,
                                match.end()))
    return read
