"""What a question asks about, and whether the passages an answer cites speak of it.

Asked about something the passages never mention (the RESTRICTED board minutes are never
retrieved), a small model still answers and cites the nearest passage: "The board decided to
continue the Project Lotus program" for a question on Project Falcon. No figure is invented and
the reply is not the question said back, so the number and off-question checks pass it. The
question's subject is read in three parts: the entities it names (through the glossary; the home
group is every passage's subject), the names it writes in Latin letters that the glossary does
not know (Project Falcon), and the years it names. Each part the question has must be met by the
passages the answer cites:

- an entity or a year is met when a cited passage names it (its text, expanded context, locator
  or document name); a cited passage naming no entity (no year) cannot tell and meets it too;
- a name is met when a cited passage writes it. A passage written only in CJK may have
  translated an English question's name (Canton Road is 广东道) and cannot tell, so for an
  English question the name counts as unmet only when every cited passage writes Latin words of
  its own (each would have written this one); a Chinese or Japanese question writing a name in
  Latin letters uses the documents' own spelling, and it must be there.

An answer citing no passage meets nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ragspine.facts.glossary import Glossary, entity_codes_in
from ragspine.numbers.years import years
from ragspine.qa.evidence import Evidence
from ragspine.qa.language import Lang

# A run of capitalised Latin words (Project Falcon, ACME, WeChat), joined by single spaces or hyphens.
_NAME_PART_SEPARATOR = re.compile(r"[_\-\s]+")
_NAME_RUN = re.compile(r"[A-Z][A-Za-z0-9_&'’.]*(?:[ \-][A-Z][A-Za-z0-9_&'’.]*)*")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_SENTENCE_START = re.compile(r"(?:^|[.!?。！？]\s*)[\"'“‘(（]*$")
# Capitalised words that are no name: calendar words (a period, read as years), the pronoun.
_NOT_NAMES = frozenset({
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "fy", "q1", "q2", "q3", "q4", "h1", "h2", "i",
})


@dataclass(frozen=True, slots=True)
class Subject:
    """What a question asks about: entity codes, names in Latin letters, years."""

    entities: frozenset[str] = frozenset()
    names: tuple[str, ...] = ()
    years: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.entities or self.names or self.years)


def subject_of(question: str, lang: Lang, glossary: Glossary | None) -> Subject:
    """The entities (home group aside), Latin-letter names the glossary does not know, and years of ``question``."""
    text = unicodedata.normalize("NFKC", question)
    asked_years = years(text)  # before the glossary's periods are blanked with its other mentions
    entities: frozenset[str] = frozenset()
    if glossary is not None:
        mentions = glossary.scan(text)
        entities = entity_codes_in(mentions) - {glossary.home_entity}
        text = _blanked(text, [(m.start, m.end) for m in mentions])
    return Subject(entities, _names(text, lang), asked_years)


def unmet(subject: Subject, cited: Sequence[Evidence], lang: Lang, glossary: Glossary | None) -> tuple[str, ...]:
    """The parts of ``subject`` no cited passage speaks of: entity codes, names as written, years."""
    if not subject:
        return ()
    if not cited:
        return (*sorted(subject.entities), *subject.names, *sorted(subject.years))
    missing: list[str] = []
    if subject.entities and glossary is not None:
        named = [_entities(e, glossary) for e in cited]
        if all(named) and not any(n & subject.entities for n in named):
            missing += sorted(subject.entities)
    written = [_folded(" ".join((e.text, e.context, e.locator, e.doc))) for e in cited]
    absent = [n for n in subject.names if not any(_folded(n) in w for w in written)]
    if absent and (lang is not Lang.EN or all(_writes_latin(e, glossary) for e in cited)):
        missing += absent
    if subject.years:
        stated = [years(" ".join((e.text, e.context, e.locator, e.doc))) for e in cited]
        if all(stated) and not any(s & subject.years for s in stated):
            missing += sorted(subject.years)
    return tuple(missing)


def speaks_of(subject: Subject, item: Evidence, glossary: Glossary | None) -> bool:
    """Whether a passage may be about the entities and years ``subject`` names: it names one, or none (cannot tell).

    Its document's name counts too, read part by part (``ACME_JP_2025_Report.md`` is ACME_JP's, which a
    scan of the whole name, one word to the glossary, does not see); the home group names no one entity.
    """
    if subject.entities and glossary is not None:
        named = (_entities(item, glossary) | _document_entities(item.doc, glossary)) - {glossary.home_entity}
        if named and not named & subject.entities:
            return False
    if subject.years:
        stated = years(" ".join((item.text, item.context, item.locator, item.doc)))
        if stated and not stated & subject.years:
            return False
    return True


def _names(text: str, lang: Lang) -> tuple[str, ...]:
    found: list[str] = []
    for run in _NAME_RUN.finditer(text):
        words = run.group(0).split(" ")
        if lang is Lang.EN and _SENTENCE_START.search(text[:run.start()]):
            words = words[1:]  # "Why", "What", "Does": capitalised for the sentence, not for a name
        words = [w.rstrip(".").removesuffix("'s").removesuffix("’s") for w in words]
        kept = [w for w in words if w and w.lower() not in _NOT_NAMES and not any(c.isdigit() for c in w)]
        if kept:
            found.append(" ".join(kept))
    return tuple(dict.fromkeys(found))


def _entities(item: Evidence, glossary: Glossary) -> frozenset[str]:
    where = " ".join((item.text, item.context, item.locator, item.doc))
    return glossary.entity_codes(where)


def _document_entities(doc: str, glossary: Glossary) -> frozenset[str]:
    """The entities a document's name names in any run of its parts (``ACME_JP`` in ``ACME_JP_2025_Report``)."""
    parts = [part for part in _NAME_PART_SEPARATOR.split(doc.rsplit(".", 1)[0]) if part]
    runs = " | ".join("_".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1))
    return glossary.entity_codes(runs)


def _writes_latin(item: Evidence, glossary: Glossary | None) -> bool:
    """True when the passage's own text writes Latin-letter words that are no glossary term, code or figure."""
    text = unicodedata.normalize("NFKC", f"{item.text} {item.context}")
    if glossary is not None:
        text = _blanked(text, [(m.start, m.end) for m in glossary.scan(text)])
    return any(len(w) > 1 and "_" not in w and not any(c.isdigit() for c in w) and w.lower() not in _NOT_NAMES
               for w in _LATIN_WORD.findall(text))


def _blanked(text: str, spans: Sequence[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())
