"""A config-driven glossary normalising metric, entity, period and channel words to codes."""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ragspine.errors import ConfigurationError


class SlotKind(str, enum.Enum):
    """The four intent slots of seed 001."""

    METRIC = "metric"
    ENTITY = "entity"
    PERIOD = "period"
    CHANNEL = "channel"


@dataclass(frozen=True, slots=True)
class Period:
    """A normalised period: ``FY``/``2024`` or ``Q``/``2024Q3`` (fiscal year = calendar year)."""

    period_type: str
    period: str

    @property
    def label(self) -> str:
        """Human form: FY2024 or 2024Q3."""
        return f"FY{self.period}" if self.period_type == "FY" else self.period

    @classmethod
    def fiscal_year(cls, year: int) -> Period:
        """The fiscal year ``year``."""
        return cls("FY", str(year))


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry: a code, its display names per language and its attributes."""

    code: str
    names: Mapping[str, str]
    unit: str | None = None
    geography: str | None = None

    def name(self, lang: str = "zh") -> str:
        """Display name in ``lang``, falling back to the code."""
        return self.names.get(lang) or self.code


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of a question recognised as a slot; ``code`` is None when it is malformed."""

    kind: SlotKind
    code: str | None
    raw: str
    start: int
    end: int
    period: Period | None = None


@dataclass(frozen=True, slots=True)
class _PeriodPattern:
    period_type: str
    regex: re.Pattern[str]


def normalize_text(text: str) -> str:
    """NFKC (full-width to ASCII) and lower case, the form every alias is matched in."""
    return unicodedata.normalize("NFKC", text).lower()


def _is_ascii_word(alias: str) -> bool:
    return alias.isascii()


@dataclass(frozen=True)
class Glossary:
    """Normalises the words of questions and tool arguments to fact-table codes."""

    version: str
    home_entity: str
    default_channel: str
    terms: Mapping[SlotKind, Mapping[str, Term]]
    aliases: Mapping[str, tuple[SlotKind, str]]
    period_patterns: tuple[_PeriodPattern, ...]
    numerals: Mapping[str, int]
    ordinals: Mapping[str, int]
    fillers: tuple[str, ...]
    _alias_regex: re.Pattern[str] = field(repr=False, compare=False)

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> Glossary:
        """Build a glossary from its YAML mapping, validating the structure."""
        try:
            terms: dict[SlotKind, dict[str, Term]] = {}
            aliases: dict[str, tuple[SlotKind, str]] = {}
            for kind, section in ((SlotKind.METRIC, "metrics"), (SlotKind.ENTITY, "entities"),
                                  (SlotKind.CHANNEL, "channels")):
                terms[kind] = {}
                for code, spec in raw[section].items():
                    terms[kind][code] = Term(code, dict(spec.get("names", {})), spec.get("unit"),
                                             spec.get("geography"))
                    for alias in [code, *spec.get("aliases", [])]:
                        key = normalize_text(str(alias)).strip()
                        owner = aliases.setdefault(key, (kind, code))
                        if owner != (kind, code):
                            raise ConfigurationError(f"glossary alias {alias!r} is ambiguous: {owner} and {code}")
            periods = raw["periods"]
            patterns = tuple(
                _PeriodPattern(p["type"], re.compile(p["regex"], re.IGNORECASE)) for p in periods["patterns"]
            )
            ordered = sorted(aliases, key=len, reverse=True)
            alternation = "|".join(
                rf"(?<![a-z0-9_]){re.escape(a)}(?![a-z0-9_])" if _is_ascii_word(a) else re.escape(a)
                for a in ordered
            )
            glossary = cls(
                version=str(raw["version"]),
                home_entity=str(raw["home_entity"]),
                default_channel=str(raw["default_channel"]),
                terms=terms,
                aliases=aliases,
                period_patterns=patterns,
                numerals={str(k): int(v) for k, v in periods.get("numerals", {}).items()},
                ordinals={str(k): int(v) for k, v in periods.get("ordinal_quarters", {}).items()},
                fillers=tuple(sorted((normalize_text(f) for f in raw.get("fillers", [])), key=len, reverse=True)),
                _alias_regex=re.compile(alternation),
            )
        except (KeyError, TypeError, AttributeError, re.error) as exc:
            raise ConfigurationError(f"glossary is malformed: {exc!r}") from exc
        if glossary.home_entity not in terms[SlotKind.ENTITY]:
            raise ConfigurationError(f"glossary home_entity {glossary.home_entity} is not an entity")
        return glossary

    @classmethod
    def from_file(cls, path: Path) -> Glossary:
        """Load a glossary YAML file."""
        import yaml  # only needed when a glossary is first loaded

        try:
            return cls.from_mapping(yaml.safe_load(path.read_text(encoding="utf-8")))
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigurationError(f"cannot read glossary {path}: {exc}") from exc

    def term(self, kind: SlotKind, code: str) -> Term:
        """The entry of a known code."""
        return self.terms[kind][code]

    def normalize(self, kind: SlotKind, raw: str) -> str | None:
        """The code a whole argument names (``营业收入`` -> REVENUE), or None."""
        owner = self.aliases.get(normalize_text(raw).strip())
        return owner[1] if owner and owner[0] is kind else None

    def normalize_period(self, raw: str) -> Period | None:
        """The period a whole argument names (``2024年第三季度`` -> 2024Q3), or None."""
        text = normalize_text(raw).strip()
        for pattern in self.period_patterns:
            match = pattern.regex.fullmatch(text)
            if match:
                return self._period_from(pattern, match)
        return None

    def scan(self, text: str) -> tuple[list[Mention], str]:
        """Find every slot mention in a question.

        Returns:
            The mentions in text order, and the normalised text with every mention removed
            (what is left over, used to spot names the glossary does not know).
        """
        norm = normalize_text(text)
        shown = unicodedata.normalize("NFKC", text)
        if len(shown) != len(norm):  # lower-casing changed the length: report the normalised form
            shown = norm
        mentions: list[Mention] = []
        taken = bytearray(len(norm))
        for pattern in self.period_patterns:
            for match in pattern.regex.finditer(norm):
                start, end = match.span()
                if any(taken[start:end]):
                    continue
                taken[start:end] = b"\x01" * (end - start)
                period = self._period_from(pattern, match)
                mentions.append(Mention(SlotKind.PERIOD, period.label if period else None,
                                        shown[start:end], start, end, period))
        for match in self._alias_regex.finditer(norm):
            start, end = match.span()
            if any(taken[start:end]):
                continue
            taken[start:end] = b"\x01" * (end - start)
            kind, code = self.aliases[match.group(0)]
            mentions.append(Mention(kind, code, shown[start:end], start, end))
        mentions.sort(key=lambda m: m.start)
        leftover = "".join(" " if taken[i] else ch for i, ch in enumerate(norm))
        return mentions, leftover

    def _period_from(self, pattern: _PeriodPattern, match: re.Match[str]) -> Period | None:
        if pattern.period_type not in ("FY", "Q"):
            return None
        year_text = match.group("year")
        year = int(year_text) + 2000 if len(year_text) == 2 else int(year_text)
        if pattern.period_type == "FY":
            return Period.fiscal_year(year)
        q_text = match.group("q").lower()
        quarter = self.ordinals.get(q_text) or self.numerals.get(q_text) or (int(q_text) if q_text.isdigit() else 0)
        return Period("Q", f"{year}Q{quarter}") if 1 <= quarter <= 4 else None


@lru_cache(maxsize=1)
def default_glossary() -> Glossary:
    """The glossary shipped with the package (``ragspine/config/glossary.yaml``)."""
    path = Path(str(resources.files("ragspine") / "config" / "glossary.yaml"))
    return Glossary.from_file(path)
