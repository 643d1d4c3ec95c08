"""Pydantic schemas of the files of a domain folder: the shape each YAML file must have.

Validation happens at the edge (when a folder is loaded or checked); the engine then builds
its own frozen types (``Glossary``, ``ScreeningPolicy``, ...) from the validated mapping.
Entries forbid unknown keys, so a misspelt field is reported instead of silently ignored;
the top level of the glossary and the intent cues stays open for engine features that add
sections of their own.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ragspine.numbers.units import ISO_4217, SCALES, is_unit_code

Lang = Literal["zh", "en", "ja"]
Names = dict[Lang, str]
SlotName = Literal["metric", "entity", "period", "channel"]
CODE = r"^[A-Z][A-Z0-9_]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _named(names: dict[str, str]) -> dict[str, str]:
    if not any(value.strip() for value in names.values()):
        raise ValueError("give a display name in at least one of zh, en, ja")
    return names


class MetricSpec(_Strict):
    """A metric: the unit its facts are kept in, display names, the words that name it."""

    unit: str = Field(pattern=CODE)
    names: Names
    aliases: list[str] = []
    additive: bool = Field(default=False, description="Sums over sub-periods and entities are meaningful.")
    formula: str | None = Field(default=None, description="Computed from other metrics: OPERATING_INCOME / REVENUE.")

    _names = field_validator("names")(_named)

    @field_validator("unit")
    @classmethod
    def _stateable(cls, unit: str) -> str:
        """A money unit must be one ingestion can read off a table, or no table's figure would ever match it."""
        if unit[:3] in ISO_4217 and unit[3:4] in ("", "_") and not is_unit_code(unit):
            raise ValueError(
                f"{unit} is not a unit tables can state: a money unit is the ISO 4217 code alone or with one of "
                f"the scales {', '.join('_' + s for s in SCALES)} (JPY billion is JPY_B, CNY 亿元 is CNY_100M)")
        return unit


class EntitySpec(_Strict):
    """An entity of the hierarchy: the group, a segment, a region, a site ..."""

    geography: str | None = None
    names: Names
    aliases: list[str] = []
    parent: str | None = Field(default=None, pattern=CODE)
    level: str | None = None

    _names = field_validator("names")(_named)


class ChannelSpec(_Strict):
    """A sales or service channel (``TOTAL`` is the usual default)."""

    names: Names
    aliases: list[str] = []

    _names = field_validator("names")(_named)


class LevelSpec(_Strict):
    """A level of the entity hierarchy and the words that name all its members (各地区, segments)."""

    names: Names
    aliases: list[str] = []

    _names = field_validator("names")(_named)


class UnitSpec(_Strict):
    """A unit facts are kept in, its display names and, for money, its currency."""

    names: Names
    aliases: list[str] = []
    currency: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")

    _names = field_validator("names")(_named)


class FiscalYearSpec(_Strict):
    """The fiscal calendar: the month the year ends and which calendar year names it."""

    end_month: int = Field(default=12, ge=1, le=12)
    named_by: Literal["end", "start"] = "end"


class PeriodPatternSpec(_Strict):
    """One period spelling: a regex with ``year`` (and for quarters ``q``) groups."""

    type: Literal["FY", "Q", "INVALID"]
    regex: str

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a valid regular expression: {exc}") from exc
        return value


class PeriodsSpec(_Strict):
    """How periods are written; anything left out comes from the engine's defaults."""

    numerals: dict[str, int] | None = None
    patterns: list[PeriodPatternSpec] | None = Field(default=None, min_length=1)
    first_chars: str | None = None
    ordinal_quarters: dict[str, int] | None = None


class GlossaryFile(BaseModel):
    """``glossary.yaml``: metrics, entities and their hierarchy, channels, units, periods."""

    model_config = ConfigDict(extra="allow", frozen=True)

    version: str
    home_entity: str = Field(pattern=CODE)
    default_channel: str = Field(pattern=CODE)
    currency: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")
    fiscal_year: FiscalYearSpec = FiscalYearSpec()
    metrics: dict[str, MetricSpec] = Field(min_length=1)
    entities: dict[str, EntitySpec] = Field(min_length=1)
    channels: dict[str, ChannelSpec] = Field(min_length=1)
    levels: dict[str, LevelSpec] = {}
    units: dict[str, UnitSpec] = {}
    periods: PeriodsSpec = PeriodsSpec()
    fillers: list[str] = []


class ScopeSpec(_Strict):
    """What the business covers beyond the glossary's words, and what it never covers."""

    business_terms: list[str] = []
    off_topic: list[str] = []


Reason = Literal["PROMPT_INJECTION", "PROMPT_EXTRACTION", "SECRET_REQUEST", "COMPETITOR", "OUT_OF_SCOPE"]


class ScreeningFile(_Strict):
    """``screening.yaml`` of a domain: competitors, scope, and the refusal replies."""

    version: str
    competitors: list[str] = []
    scope: ScopeSpec = ScopeSpec()
    replies: dict[Reason, Names] = {}


class IntentFile(BaseModel):
    """``intent.yaml``: the cue words that choose a route (why, how much, compare)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    version: str
    causal: list[str] = Field(min_length=1)
    quantity: list[str] = Field(min_length=1)
    comparison: list[str] = Field(min_length=1)
    # Analytics cues (qa/analytics/cues.py); each optional: a group left out turns its analysis off.
    year_over_year: list[str] = []
    quarter_over_quarter: list[str] = []
    highest: list[str] = []
    lowest: list[str] = []
    rank: list[str] = []
    top: list[str] = []
    last_year: list[str] = []
    this_year: list[str] = []
    last_quarter: list[str] = []
    this_quarter: list[str] = []
    share: list[str] = []
    sum_of_quarters: list[str] = []
    analysis_fillers: list[str] = []

    @field_validator("top")
    @classmethod
    def _top_has_n(cls, templates: list[str]) -> list[str]:
        for template in templates:
            if "{n}" not in template:
                raise ValueError(f"top cue {template!r} must hold {{n}} where the number goes, e.g. 'top {{n}}'")
        return templates


class ScoresSpec(_Strict):
    """How much a keyword and a slot count when routing to a library."""

    keyword: int = Field(default=2, ge=1)
    slot: int = Field(default=1, ge=0)


class LibrarySpec(_Strict):
    """One document library and what routes a question to it."""

    slots: list[SlotName] = []
    keywords: list[str] = []


class LibrariesFile(_Strict):
    """``libraries.yaml``: which document libraries a narrative question is searched in."""

    version: str
    scores: ScoresSpec = ScoresSpec()
    # Older files listed the libraries an unrouted question searched; every library is searched now.
    default: list[str] | None = Field(default=None, description="Ignored: every question searches every library.")
    libraries: dict[str, LibrarySpec] = Field(min_length=1)


class FaqSource(_Strict):
    """Where a curated answer is stated."""

    doc: str = Field(min_length=1)
    locator: str = Field(min_length=1)


class FaqEntrySpec(_Strict):
    """A curated answer, the questions it answers and its source."""

    id: str = Field(min_length=1)
    questions: list[str] = Field(min_length=1)
    answer: str = Field(min_length=1)
    source: FaqSource


class FaqFile(_Strict):
    """``faq.yaml``: curated answers, each with its own source."""

    version: int | str
    entries: list[FaqEntrySpec] = []


class DomainFile(_Strict):
    """``domain.yaml``: who the company is and how the assistant presents itself."""

    version: Literal["domain-1"]
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    company: Names
    assistant: Names
    system_prompt: str | None = Field(default=None, min_length=20)
    samples: str | None = Field(default=None, description="Folder of sample documents, relative to this folder.")
    sample_question: str | None = None
    include: list[str] = Field(default=[], description="Shipped glossary packs merged under this domain's own, "
                                                       "e.g. [finance].")

    _company = field_validator("company", "assistant")(_named)


class PackFile(BaseModel):
    """A glossary pack: metrics (line items and formula metrics) and the units they use."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: str
    description: str = ""
    fillers: list[str] = []
    units: dict[str, UnitSpec] = {}
    metrics: dict[str, MetricSpec] = Field(min_length=1)
