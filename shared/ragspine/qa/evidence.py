"""A retrieved passage: built by the narrative retriever, which a figure read from the facts never asks."""

from __future__ import annotations

from dataclasses import dataclass

from ragspine.sensitivity import Sensitivity


@dataclass(frozen=True, slots=True)
class Evidence:
    """A retrieved passage: its citation (doc, locator) and the text given to the model.

    ``text`` is the hit itself; ``context`` is optional expanded text (parent or window) that
    goes to generation but never changes the citation.
    """

    chunk_id: str
    doc: str
    locator: str
    text: str
    sensitivity: Sensitivity
    score: float = 0.0
    library: str = ""
    context: str = ""
