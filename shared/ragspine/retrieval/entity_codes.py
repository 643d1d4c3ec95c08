"""The glossary codes of the entities a question names, for the lexical leg.

System exports and workbooks often name an entity only by its code (a table row reads
``Entity: ACME_CN; 2024Q1: 298``), while people ask by name ("Mainland China revenue 2024").
Neither leg can join the two: BM25 finds no shared word, and e5 scores rows that differ only in
a code and their figures as near ties. The lexical query therefore also carries the code of
every entity the question names by an alias of the glossary, so a passage that writes the code
is found as if it wrote the name. The embedder still sees the question as asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ragspine.facts.glossary import SlotKind, normalize_text

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary

EntityCodes = Callable[[str], tuple[str, ...]]


def entity_codes(glossary: Glossary, question: str) -> tuple[str, ...]:
    """The codes of the entities ``question`` names, in question order, each once, none it already writes.

    ``Mainland China revenue 2024`` gives ``("ACME_CN",)``; ``ACME_CN revenue 2024`` gives none
    (the code is already a query word), and so does a question naming no entity.
    """
    written = normalize_text(question)
    codes = (mention.code for mention in glossary.scan(question)
             if mention.kind is SlotKind.ENTITY and mention.code is not None)
    return tuple(code for code in dict.fromkeys(codes) if normalize_text(code) not in written)


def glossary_entity_codes(glossary: Glossary) -> EntityCodes:
    """``entity_codes`` bound to one glossary (the retriever's ``entity_codes`` argument)."""

    def codes(question: str) -> tuple[str, ...]:
        return entity_codes(glossary, question)

    return codes
