"""``ragspine domain check``: every problem of a domain folder, each naming its file, line and field.

Each file is validated against its schema first; then the engine builds its own objects from
the folder exactly as the service will (glossary, screening, intent cues, routing, FAQ), so a
folder the check accepts is a folder the service starts with. Each FAQ answer's numbers are
checked against its cited passage, in the sample files or in the documents ingested.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragspine.domain.checks import SCHEMAS, CheckedFile, check_file
from ragspine.domain.files import DOMAIN, FAQ, GLOSSARY, INTENT, LIBRARIES, SCREENING
from ragspine.domain.marks import Problem
from ragspine.domain.profile import load_profile, screening_mapping
from ragspine.errors import ConfigurationError
from ragspine.facts.glossary import Glossary, SlotKind, normalize_text
from ragspine.lazy import LazyModule
from ragspine.qa.faq import FaqIndex
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.screening import ScreeningPolicy, screening_text
from ragspine.retrieval.routing import LibraryRouter

if TYPE_CHECKING:
    from ragspine.authoring import faq_sources
    from ragspine.qa.faq_check import CitedPassages
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    faq_sources = LazyModule("ragspine.authoring.faq_sources")

OPTIONAL = frozenset({FAQ})


@dataclass(frozen=True)
class DomainCheck:
    """What is wrong in a domain folder, and what could not be checked (notes: no failure)."""

    problems: list[Problem]
    notes: list[Problem] = field(default_factory=list)


def check_domain(folder: Path, *, ingested: CitedPassages | None = None) -> list[Problem]:
    """All problems of ``folder`` (empty when the service can run on it)."""
    return checked_domain(folder, ingested=ingested).problems


def checked_domain(folder: Path, *, ingested: CitedPassages | None = None) -> DomainCheck:
    """The problems and notes of ``folder``; ``ingested`` reads back the passages an FAQ answer cites
    in a document that is not a sample file (the data folder's stored documents)."""
    if not folder.is_dir():
        return DomainCheck([Problem(str(folder), None, "", "not a folder: create it with `ragspine domain init`")])
    checked = {name: check_file(folder, name) for name in SCHEMAS
               if name not in OPTIONAL or (folder / name).exists()}
    problems = [p for c in checked.values() for p in c.problems]
    if problems:
        return DomainCheck(problems)  # the engine objects below need valid files
    return _engine_problems(folder, checked, ingested)


def _engine_problems(folder: Path, checked: dict[str, CheckedFile], ingested: CitedPassages | None) -> DomainCheck:
    problems: list[Problem] = []
    notes: list[Problem] = []

    def build(name: str, make: Callable[[], Any]) -> Any:
        try:
            return make()
        except ConfigurationError as exc:
            problems.append(Problem(name, None, "", exc.message))
            return None

    glossary = build(GLOSSARY, lambda: Glossary.from_mapping(_data(checked, GLOSSARY)))
    if glossary is None:
        return DomainCheck(problems)
    build(SCREENING, lambda: ScreeningPolicy.from_mapping(screening_mapping(folder), glossary=glossary).compiled())
    build(INTENT, lambda: RuleIntentParser(glossary, _data(checked, INTENT)))
    build(LIBRARIES, lambda: LibraryRouter.from_mapping(_data(checked, LIBRARIES)))
    if FAQ in checked:
        build(FAQ, lambda: FaqIndex.from_mapping(_data(checked, FAQ)))
    screening = checked[SCREENING]
    for index, name in enumerate(_data(checked, SCREENING).get("competitors") or []):
        owner = glossary.aliases.get(normalize_text(screening_text(str(name))).strip())
        if owner is not None and owner[0] is SlotKind.ENTITY:
            problems.append(screening.problem(("competitors", index),
                                              f"{name!r} is also an alias of the entity {owner[1]}: "
                                              "questions about it would be refused"))
    profile = build(DOMAIN, lambda: load_profile(folder))
    if profile is not None and profile.samples is not None and not profile.samples.is_dir():
        problems.append(checked[DOMAIN].problem(("samples",), f"{profile.samples} is not a folder"))
    elif profile is not None and FAQ in checked and not problems:
        unstated, notes = faq_sources.faq_source_problems(checked[FAQ], _data(checked, FAQ), profile.samples,
                                                          ingested)
        problems.extend(unstated)
    return DomainCheck(problems, notes)


def _data(checked: dict[str, CheckedFile], name: str) -> dict[str, Any]:
    data = checked[name].data
    assert data is not None  # check_domain returns before this when a file is invalid
    return data
