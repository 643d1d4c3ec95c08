"""Which retrieved passages the model is shown: each text once.

The model reads a passage's context (its whole section) rather than the paragraph hit, so two
paragraphs of one section, or one slide indexed twice, reach the prompt as the same text under
two numbers. Retrieval's near-duplicate filter compares the hits, not what the model reads. A
1.5B model given five passages of which two or three repeat each other spread its answer over
the copies or took a clause from an unrelated sixth; the repeats add reading time and nothing to say.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragspine.qa.ports import Evidence


def shown_text(item: Evidence) -> str:
    """The text the prompt gives for ``item``: its context when it has one, else the hit."""
    return item.context or item.text


def shown_and_repeats(evidence: Sequence[Evidence]) -> tuple[list[Evidence], list[Evidence]]:
    """``evidence`` split into the passages shown to the model and the repeats left out, both best first.

    A passage is left out when its shown text, with whitespace ignored, is the same as or contained
    in the shown text of a passage kept before it; the first (best-ranked) copy is shown. The
    repeats are those of another citation than every passage before them (the other paragraphs of
    a shown section): a sentence the model wrote from one of them can still be cited to it.
    """
    shown: list[Evidence] = []
    repeats: list[Evidence] = []
    seen: list[str] = []
    places: set[tuple[str, str]] = set()
    for item in evidence:
        text = "".join(shown_text(item).split())
        place = (item.doc, item.locator)
        if not any(text in other for other in seen):
            shown.append(item)
            seen.append(text)
        elif place not in places:
            repeats.append(item)
        places.add(place)
    return shown, repeats
