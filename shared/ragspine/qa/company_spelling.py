"""A company named in a question the way people write it, read as the company a document states.

Documents name their company one way ("The Boeing Company", "KRAFTHEINZ" from a file name,
"American Water Works Company, Inc."), questions another ("Boeing", "Kraft Heinz", "Coca Cola"
for "Coca-Cola", "American Water Works"). Both are put in one compact form: NFKC, lower case, a
leading "the" and a trailing legal form or "company" left out, then every space, hyphen, dot and
apostrophe dropped. A run of one to four words of the question whose compact form is a document
company's is rewritten to that company's own name before the slots are read, so the company is
an entity (and its documents' facts the only ones used) instead of unknown words.

Only companies read from documents (``company:`` codes) are matched this way: the glossary's own
entities keep their curated aliases.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.facts.open_vocabulary import ENTITY_PREFIX, label_of
from ragspine.lazy import LazyPattern

MAX_WORDS = 4
MIN_COMPACT_CHARS = 2  # "3M" is a company; a single letter never is
_WORD = LazyPattern(r"[A-Za-z0-9][A-Za-z0-9&.'’-]*")
_THE = LazyPattern(r"^the\s+")
_FORM = LazyPattern(r"(?:[\s,]+(?:inc|incorporated|corp|corporation|company|co|ltd|limited|plc|llc|holdings?"
                   r"|group|ag|sa|nv|se|gmbh)\.?)+$")
_POSSESSIVE = LazyPattern(r"['’]s$")
_DROPPED = LazyPattern(r"[\s.'’&,-]+")

_indexes: dict[int, tuple[Glossary, Mapping[str, str]]] = {}  # one index per glossary object (a few live at once)


def compact(name: str) -> str:
    """``The Boeing Company`` -> ``boeing``, ``Coca-Cola`` -> ``cocacola``, ``Kraft Heinz`` -> ``kraftheinz``."""
    text = unicodedata.normalize("NFKC", name).lower().strip()
    text = _POSSESSIVE.sub("", text)
    text = _THE.sub("", text)
    text = _FORM.sub("", text)
    return _DROPPED.sub("", text)


def _index(glossary: Glossary) -> Mapping[str, str]:
    """Compact form -> the company's name as its code spells it, for every document company."""
    held = _indexes.get(id(glossary))
    if held is not None and held[0] is glossary:
        return held[1]
    index: dict[str, str] = {}
    ambiguous: set[str] = set()
    for code in glossary.terms.get(SlotKind.ENTITY, {}):
        if not code.startswith(ENTITY_PREFIX):
            continue
        name = label_of(code)
        key = compact(name)
        if len(key) < MIN_COMPACT_CHARS:
            continue
        if key in index and index[key] != name:
            ambiguous.add(key)  # two companies of one compact form: neither is guessed
        index[key] = name
    for key in ambiguous:
        del index[key]
    if len(_indexes) > 8:
        _indexes.clear()
    _indexes[id(glossary)] = (glossary, index)
    return index


def with_company_names(question: str, glossary: Glossary) -> str:
    """``question`` with each company written in another form replaced by the document company's name."""
    index = _index(glossary)
    if not index:
        return question
    words = list(_WORD.finditer(question))
    out: list[str] = []
    at = 0
    i = 0
    while i < len(words):
        for size in range(min(MAX_WORDS, len(words) - i), 0, -1):
            span = words[i:i + size]
            if any(question[a.end():b.start()].strip(" -") for a, b in zip(span, span[1:], strict=False)):
                continue  # the words must run on, only spaces or hyphens between them
            start, end = span[0].start(), span[-1].end()
            name = index.get(compact(question[start:end]))
            if name is None:
                continue
            written = question[start:end]
            if _POSSESSIVE.search(written):
                end -= 2
            out.append(question[at:start])
            out.append(name)
            at = end
            i += size
            break
        else:
            i += 1
    out.append(question[at:])
    return "".join(out)
