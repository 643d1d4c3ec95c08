"""The glossary codes of the entities a question names, for the lexical leg.

System exports and workbooks often name an entity only by its code (a table row reads
``Entity: ACME_CN; 2024Q1: 298``), while people ask by name ("Mainland China revenue 2024").
Neither leg can join the two: BM25 finds no shared word, and e5 scores rows that differ only in
a code and their figures as near ties. The lexical query therefore also carries the code of
every entity the question names by an alias of the glossary, so a passage that writes the code
is found as if it wrote the name. The embedder still sees the question as asked.

Only the words of a code that tell it apart from the other entities' codes are added (``cn`` of
``ACME_CN``, not the ``acme`` every code shares): a shared word would lift every passage of the
company, whatever entity or year it is about.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from ragspine.facts.glossary import SlotKind, normalize_text
from ragspine.text import query_tokens

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary

EntityCodes = Callable[[str], tuple[str, ...]]

_words_lock = threading.Lock()
_words_of: dict[int, tuple[Glossary, dict[str, tuple[str, ...]]]] = {}  # by glossary identity (a few live)


def entity_codes(glossary: Glossary, question: str) -> tuple[str, ...]:
    """The codes of the entities ``question`` names, in question order, each once, none it already writes.

    ``Mainland China revenue 2024`` gives ``("ACME_CN",)``; ``ACME_CN revenue 2024`` gives none
    (the code is already a query word), and so does a question naming no entity.
    """
    written = normalize_text(question)
    codes = (mention.code for mention in glossary.scan(question)
             if mention.kind is SlotKind.ENTITY and mention.code is not None)
    return tuple(code for code in dict.fromkeys(codes) if normalize_text(code) not in written)


def entity_code_words(glossary: Glossary, question: str) -> tuple[str, ...]:
    """The words to add to the lexical query: each named code's own words the question does not say.

    ``Mainland China revenue 2024`` gives ``("cn",)`` with the sample glossary (its entity codes
    are ``ACME_GROUP``, ``ACME_CN``, ``ACME_HK`` and ``ACME_JP``).
    """
    codes = entity_codes(glossary, question)
    if not codes:
        return ()
    words = _distinctive_words(glossary)
    said = set(query_tokens(question))
    return tuple(dict.fromkeys(word for code in codes for word in words.get(code, ()) if word not in said))


def glossary_entity_codes(glossary: Glossary) -> EntityCodes:
    """``entity_code_words`` bound to one glossary (the retriever's ``entity_codes`` argument)."""

    def words(question: str) -> tuple[str, ...]:
        return entity_code_words(glossary, question)

    return words


def _distinctive_words(glossary: Glossary) -> dict[str, tuple[str, ...]]:
    """Each entity code's words (as the index tokenizes them) that no other entity code has."""
    cached = _words_of.get(id(glossary))
    if cached is not None and cached[0] is glossary:
        return cached[1]
    tokens = {code: tuple(dict.fromkeys(query_tokens(code))) for code in glossary.terms[SlotKind.ENTITY]}
    shared = Counter(word for words in tokens.values() for word in words)
    distinctive = {code: tuple(w for w in words if shared[w] == 1) for code, words in tokens.items()}
    with _words_lock:
        if len(_words_of) > 8:  # glossaries replaced by newer ones (the documents' names grow)
            _words_of.clear()
        _words_of[id(glossary)] = (glossary, distinctive)
    return distinctive
