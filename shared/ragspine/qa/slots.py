"""Minimal rule-based slot extraction for the structured route (no LLM)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from ragspine.facts.glossary import Glossary, Mention, Period, SlotKind

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_'\-.&]*|[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Assumption:
    """A slot the question left out and the value assumed for it (listed in the answer)."""

    slot: SlotKind
    value: str
    reason: str


@dataclass(frozen=True, slots=True)
class Unrecognized:
    """The first slot the question names in words the glossary does not know."""

    param: str
    raw: str


@dataclass(frozen=True, slots=True)
class Slots:
    """The normalised slots of a question; several values when the user enumerates them."""

    metrics: tuple[str, ...]
    entities: tuple[str, ...]
    periods: tuple[Period, ...]
    channels: tuple[str, ...]
    assumptions: tuple[Assumption, ...] = ()
    unrecognized: Unrecognized | None = None

    def as_dict(self) -> dict[str, list[str]]:
        """JSON form: code lists per slot (periods as FY2024 / 2024Q3)."""
        return {
            "metric": list(self.metrics),
            "entity": list(self.entities),
            "period": [p.label for p in self.periods],
            "channel": list(self.channels),
        }


def last_completed_fiscal_year(today: date) -> Period:
    """The default period: fiscal year = calendar year, so the last completed one is last year."""
    return Period.fiscal_year(today.year - 1)


def extract_slots(question: str, *, glossary: Glossary, today: date) -> Slots:
    """Parse the four slots of a question.

    A missing entity becomes the home group and a missing period the last completed fiscal
    year, each recorded as an assumption; a malformed period, or a name left over where an
    entity was expected, is reported as unrecognized rather than guessed.
    """
    mentions = glossary.scan(question)
    found: dict[SlotKind, dict[str, None]] = {SlotKind.METRIC: {}, SlotKind.ENTITY: {}, SlotKind.CHANNEL: {}}
    periods: dict[Period, None] = {}
    bad_period: Mention | None = None
    for mention in mentions:  # one pass; dicts keep first-mention order without duplicates
        if mention.kind is SlotKind.PERIOD:
            if mention.period is None:
                bad_period = bad_period or mention
            else:
                periods[mention.period] = None
        else:
            found[mention.kind][mention.code] = None  # type: ignore[index]
    metrics, entities = tuple(found[SlotKind.METRIC]), tuple(found[SlotKind.ENTITY])
    channels = tuple(found[SlotKind.CHANNEL]) or (glossary.default_channel,)
    # Leftover words only matter when a metric or entity is missing: skip the work otherwise.
    names = [] if metrics and entities else unknown_names(question, glossary.leftover(question, mentions), glossary)
    problem: Unrecognized | None = None
    if not metrics:
        problem = Unrecognized("metric", " ".join(names) or question.strip())
    elif bad_period is not None:
        problem = Unrecognized("period", bad_period.raw)
    elif not entities and names:
        problem = Unrecognized("entity", " ".join(names))
    assumptions: list[Assumption] = []
    if not entities:
        entities = (glossary.home_entity,)
        assumptions.append(Assumption(SlotKind.ENTITY, glossary.home_entity, "no entity named: the home group"))
    if not periods and bad_period is None:
        default = last_completed_fiscal_year(today)
        periods[default] = None
        reason = "no period named: the last completed fiscal year"
        assumptions.append(Assumption(SlotKind.PERIOD, default.label, reason))
    return Slots(metrics, entities, tuple(periods), channels, tuple(assumptions), problem)


def unknown_names(question: str, leftover: str, glossary: Glossary) -> list[str]:
    """Words left after removing slots and fillers that look like names.

    CJK runs of two or more characters count; Latin words count only when capitalised in
    the question (a proper noun such as "Globex"), so ordinary English filler never does.
    """
    original = unicodedata.normalize("NFKC", question)
    aligned = len(original) == len(leftover)
    names: list[str] = []
    for token in _TOKEN.finditer(leftover):
        word = token.group(0).strip("'.-").removesuffix("'s")
        if not word:
            continue
        if word.isascii():
            capitalised = aligned and original[token.start()].isupper()
            if word not in glossary.fillers and capitalised:
                names.append(original[token.start():token.start() + len(word)])
            continue
        for filler in glossary.fillers:
            word = word.replace(filler, " ")
        names.extend(part for part in word.split() if len(part) >= 2)
    return names
