"""A figure asked per unit of another: "revenue per store", "net income per employee".

The metric after "per" divides the one before it. People write the thing counted in the singular ("per
store") where the glossary names the count in the plural ("stores"), so both numbers are tried. A "per"
inside a name of the glossary ("earnings per share") is that name's own word, never a division.
"""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.lazy import LazyPattern

_PER = LazyPattern(r"(?<![a-z])per\s+(?:each\s+|one\s+)?([a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)")


def metric_per(question: str, metrics: tuple[str, ...], glossary: Glossary) -> str | None:
    """The metric the question divides its one metric by with "per", other than the metrics it names; else None."""
    if len(metrics) != 1:
        return None
    text = normalize_text(question)
    spans = [(m.start, m.end) for m in glossary.scan(question)]
    for match in _PER.finditer(text):
        if any(start <= match.start() < end for start, end in spans):
            continue  # "earnings per share": the name's own word
        words = match.group(1).split()
        for size in (2, 1):
            phrase = " ".join(words[:size])
            for form in (phrase, f"{phrase}s", f"{phrase}es"):
                owner = glossary.aliases.get(form)
                if owner is not None and owner[0] is SlotKind.METRIC and owner[1] not in metrics:
                    return owner[1]
    return None
