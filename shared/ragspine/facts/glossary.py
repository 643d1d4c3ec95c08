"""A config-driven glossary normalising metric, entity, period and channel words to codes."""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ragspine.errors import ConfigurationError
from ragspine.facts.calendar import FiscalCalendar
from ragspine.facts.fiscal_dates import NENDO_PATTERN, year_of_nendo
from ragspine.facts.formulas import Formula, FormulaError, formulas_of
from ragspine.facts.matching import SlotRegex, slot_regex
from ragspine.facts.model import UNDATED
from ragspine.lazy import LazyModule, LazyPattern

if TYPE_CHECKING:
    from ragspine import config_loader
else:
    # Loaded on first use, not at import: a Lambda importing this module does not pay for them at cold start.
    config_loader = LazyModule("ragspine.config_loader")


class SlotKind(enum.StrEnum):
    """The four intent slots of seed 001."""

    METRIC = "metric"
    ENTITY = "entity"
    PERIOD = "period"
    CHANNEL = "channel"


@dataclass(frozen=True, slots=True)
class Period:
    """A normalised period: ``FY``/``2024`` or ``Q``/``2024Q3`` (fiscal years and quarters of the domain's calendar)."""

    period_type: str
    period: str

    @property
    def label(self) -> str:
        """Human form: FY2024 or 2024Q3 ("" for the period of an undated fact)."""
        return f"FY{self.period}" if self.period_type == "FY" else self.period

    @property
    def undated(self) -> bool:
        """Whether this is the period of a fact whose document states none."""
        return self.period_type == UNDATED

    @classmethod
    def fiscal_year(cls, year: int) -> Period:
        """The fiscal year ``year``."""
        return cls("FY", str(year))

    @classmethod
    def none_stated(cls) -> Period:
        """The period of a fact whose table and its context state none (``UNDATED``, "")."""
        return cls(UNDATED, "")


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry: a code, its display names per language and its attributes."""

    code: str
    names: Mapping[str, str]
    unit: str | None = None
    geography: str | None = None
    parent: str | None = None  # entities: the next level up of the hierarchy
    level: str | None = None  # entities: the hierarchy level (group, region, segment ...)
    additive: bool = False  # metrics: sums over sub-periods and entities are meaningful

    def name(self, lang: str = "zh") -> str:
        """Display name in ``lang``, falling back to another language, then the code."""
        return self.names.get(lang) or next(iter(self.names.values()), "") or self.code

    @classmethod
    def from_spec(cls, code: str, spec: Mapping[str, Any]) -> Term:
        """A term from its glossary YAML entry."""
        names = dict(spec.get("names", {}))
        return cls(code, names, spec.get("unit"), spec.get("geography"), spec.get("parent"), spec.get("level"),
                   bool(spec.get("additive", False)))


class Mention(NamedTuple):
    """A span of a question recognised as a slot; ``code`` is None when it is malformed.

    A NamedTuple rather than a dataclass: several are built per question on the hot path.
    """

    kind: SlotKind
    code: str | None
    raw: str
    start: int
    end: int
    period: Period | None = None


@dataclass(frozen=True, slots=True)
class _PeriodPattern:
    period_type: str
    # Compiled on first use: most asks read periods through the joined ``slot_regex``, which checks
    # each pattern's syntax as it loads (``ragspine domain check`` compiles each one alone).
    regex: LazyPattern


_SCAN_MEMO_SIZE = 4  # a question, its rewritten and corrected forms
# A mention from all six of its fields: the NamedTuple's own ``__new__`` is a Python function filling in defaults
_new_mention = tuple.__new__
_PERIOD = SlotKind.PERIOD  # read once: on Python 3.11 each read of an enum's member off its class is a slow look-up


@lru_cache(maxsize=8)  # one ask normalises its question from every reader (about ten times): once is enough
def normalize_text(text: str) -> str:
    """NFKC (full-width to ASCII) and lower case, the form every alias is matched in."""
    return unicodedata.normalize("NFKC", text).lower()


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
    _slot_regex: SlotRegex = field(repr=False, compare=False)
    fiscal_calendar: FiscalCalendar = FiscalCalendar()
    currency: str | None = None
    levels: Mapping[str, Term] = field(default_factory=dict)
    units: Mapping[str, Term] = field(default_factory=dict)
    level_aliases: Mapping[str, str] = field(default_factory=dict)  # 各地区 / each region -> region
    formulas: Mapping[str, Formula] = field(default_factory=dict)  # formula metrics (facts/formulas.py)
    period_first_chars: str = "."  # a class every period pattern starts with (the scan's guard)
    _period_cache: dict[tuple[str, str | None, str | None], Period | None] = field(
        default_factory=dict, repr=False, compare=False)
    # The last few scans: one ask scans the same question from several readers (slots, arithmetic cues).
    # Each entry keeps the regex and alias table it was scanned with, so a glossary copied by
    # ``dataclasses.replace`` with other aliases never reads its original's entries.
    _scan_memo: dict[str, tuple[SlotRegex, Mapping[str, tuple[SlotKind, str]], tuple[Mention, ...]]] = field(
        default_factory=dict, repr=False, compare=False)
    # The last few blanked questions, by text and the spans blanked: the slot, derived-word and
    # arithmetic readers each blank the same question's names.
    _leftover_memo: dict[tuple[str, tuple[tuple[int, int], ...]], str] = field(
        default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any], defaults: Mapping[str, Any] | None = None) -> Glossary:
        """Build a glossary from its YAML mapping, validating the structure.

        ``defaults`` (the engine's ``glossary_defaults.yaml`` when None) supplies whatever
        part of ``periods`` the mapping leaves out, and filler words added to its own.
        """
        raw = _with_defaults(raw, default_spellings() if defaults is None else defaults)
        try:
            terms: dict[SlotKind, dict[str, Term]] = {}
            aliases: dict[str, tuple[SlotKind, str]] = {}
            for kind, section in ((SlotKind.METRIC, "metrics"), (SlotKind.ENTITY, "entities"),
                                  (SlotKind.CHANNEL, "channels")):
                terms[kind] = {}
                for code, spec in raw[section].items():
                    terms[kind][code] = Term.from_spec(code, spec)
                    for alias in [code, *spec.get("aliases", [])]:
                        key = normalize_text(str(alias)).strip()
                        owner = aliases.setdefault(key, (kind, code))
                        if owner != (kind, code):
                            raise ConfigurationError(f"glossary alias {alias!r} is ambiguous: {owner} and {code}")
            _with_number_of_the_head(aliases)
            periods = raw["periods"]
            patterns = tuple(
                _PeriodPattern(p["type"], LazyPattern(p["regex"])) for p in periods["patterns"]
            )
            slots = slot_regex([p["regex"] for p in periods["patterns"]], periods.get("first_chars", "."), aliases)
            glossary = cls(
                version=str(raw["version"]),
                home_entity=str(raw["home_entity"]),
                default_channel=str(raw["default_channel"]),
                terms=terms,
                aliases=aliases,
                period_patterns=patterns,
                numerals={str(k): int(v) for k, v in periods.get("numerals", {}).items()},
                ordinals={str(k): int(v) for k, v in periods.get("ordinal_quarters", {}).items()},
                fillers=tuple(sorted({normalize_text(f) for f in raw.get("fillers", [])}, key=len, reverse=True)),
                _slot_regex=slots,
                fiscal_calendar=FiscalCalendar(**dict(raw.get("fiscal_year") or {})),
                currency=raw.get("currency"),
                levels={str(k): Term.from_spec(str(k), v) for k, v in (raw.get("levels") or {}).items()},
                units={str(k): Term.from_spec(str(k), v) for k, v in (raw.get("units") or {}).items()},
                level_aliases={normalize_text(str(alias)).strip(): str(level)
                               for level, spec in (raw.get("levels") or {}).items()
                               for alias in (spec or {}).get("aliases", [])},
                formulas=_formulas(raw["metrics"]),
                period_first_chars=str(periods.get("first_chars") or "."),
            )
        except (KeyError, TypeError, AttributeError, ValueError, re.error) as exc:
            raise ConfigurationError(f"glossary is malformed: {exc!r}") from exc
        if glossary.home_entity not in terms[SlotKind.ENTITY]:
            raise ConfigurationError(f"glossary home_entity {glossary.home_entity} is not an entity")
        return glossary

    def children(self, code: str) -> list[str]:
        """The entities one level below ``code`` in the hierarchy, in glossary order."""
        return [c for c, term in self.terms[SlotKind.ENTITY].items() if term.parent == code]

    def ancestors(self, code: str) -> list[str]:
        """The entities above ``code``, nearest first (the home group last)."""
        found: list[str] = []
        parent = self.terms[SlotKind.ENTITY][code].parent
        while parent is not None and parent not in found:
            found.append(parent)
            parent = self.terms[SlotKind.ENTITY][parent].parent
        return found

    def entities_at(self, level: str) -> list[str]:
        """The entities of one hierarchy level, in glossary order."""
        return [c for c, term in self.terms[SlotKind.ENTITY].items() if term.level == level]

    def term(self, kind: SlotKind, code: str) -> Term:
        """The entry of a known code."""
        return self.terms[kind][code]

    def equivalents(self, text: str) -> list[str]:
        """Every alias and display name of the metrics, entities and channels ``text`` names, and the year of
        each period it names.

        The same subjects in the glossary's other languages (``Hong Kong revenue`` gives 香港,
        营业收入, 売上高, ...), for matching text across languages without a model; a period by its
        year alone (``FY2024`` and ``2024Q3`` give 2024), as 2024财年, 2024年度 and "fiscal 2024" write it.
        """
        mentions = self.scan(text)
        named = {(m.kind, m.code) for m in mentions
                 if m.code is not None and m.kind in (SlotKind.METRIC, SlotKind.ENTITY, SlotKind.CHANNEL)}
        found = [alias for alias, owner in self.aliases.items() if owner in named]
        for kind, code in sorted(named):
            found += self.terms[kind][code].names.values()
        years = {m.period.period[:4] for m in mentions if m.period is not None and m.period.period}
        return found + sorted(years)

    def entity_codes(self, text: str) -> frozenset[str]:
        """The entity codes ``text`` names through the aliases (香港, Hong Kong, ACME_HK -> ACME_HK)."""
        return entity_codes_in(self.scan(text))

    def entities_named(self, text: str) -> frozenset[str]:
        """The entity codes ``text`` names, the home group aside (every document of the domain is about it)."""
        return self.entity_codes(text) - {self.home_entity}

    def normalize(self, kind: SlotKind, raw: str) -> str | None:
        """The code a whole argument names (``营业收入`` -> REVENUE), or None."""
        owner = self.aliases.get(normalize_text(raw).strip())
        return owner[1] if owner and owner[0] is kind else None

    def normalize_period(self, raw: str) -> Period | None:
        """The period a whole argument names (``2024年第三季度`` -> 2024Q3), or None.

        ``2024年度`` of a year ending in January to March is the year starting in 2024 (the Japanese
        convention, ``fiscal_dates.year_of_nendo``), as a question's words are read (``qa/period_words``).
        """
        text = normalize_text(raw).strip()
        for pattern in self.period_patterns:
            match = pattern.regex.fullmatch(text)
            if match:
                groups = match.groupdict()
                year = groups.get("year")
                if year is not None and len(year) == 4 and _NENDO.fullmatch(text):
                    year = str(year_of_nendo(self.fiscal_calendar, int(year)))
                return self._period_from(pattern.period_type, year, groups.get("q"))
        return None

    def scan(self, text: str) -> list[Mention]:
        """Find every slot mention in a question, in text order (spans index the normalised text)."""
        memo = self._scan_memo.get(text)
        if memo is not None and memo[0] is self._slot_regex and memo[1] is self.aliases:
            return list(memo[2])
        mentions = self._scan(text)
        if len(self._scan_memo) >= _SCAN_MEMO_SIZE:
            self._scan_memo.clear()
        self._scan_memo[text] = (self._slot_regex, self.aliases, tuple(mentions))
        return mentions

    def _scan(self, text: str) -> list[Mention]:
        shown = unicodedata.normalize("NFKC", text)
        norm = shown.lower()
        if len(shown) != len(norm):  # lower-casing changed the length: report the normalised form
            shown = norm
        slot = self._slot_regex
        alias_group, aliases, built = slot.alias_group, self.aliases, self._period_cache
        mentions = []
        for match in slot.regex.finditer(norm):
            start, end = match.span()
            last = match.lastindex
            if last == alias_group:
                kind, code = aliases[match.group()]
                mentions.append(_new_mention(Mention, (kind, code, shown[start:end], start, end, None)))
                continue
            where = slot.periods[last or 0]
            key = (self.period_patterns[where.pattern].period_type,
                   match.group(where.year) if where.year else None,
                   match.group(where.quarter) if where.quarter else None)
            # ``_period_from`` without its call once built: a handful of periods, each built once
            period = built[key] if key in built else self._period_from(*key)
            mentions.append(_new_mention(Mention, (_PERIOD, period.label if period else None,
                                                   shown[start:end], start, end, period)))
        return mentions

    def leftover(self, text: str, mentions: list[Mention]) -> str:
        """The normalised question with every mention blanked out (to spot unknown names)."""
        if not mentions:
            return normalize_text(text)
        key = (text, tuple([(m.start, m.end) for m in mentions]))
        left = self._leftover_memo.get(key)
        if left is None:
            left = _blanked(normalize_text(text), sorted(key[1]))
            if len(self._leftover_memo) >= _SCAN_MEMO_SIZE:
                self._leftover_memo.clear()
            self._leftover_memo[key] = left
        return left

    def _period_from(self, period_type: str, year_text: str | None, q_text: str | None) -> Period | None:
        key = (period_type, year_text, q_text)
        if key not in self._period_cache:  # a handful of distinct periods: build each once
            self._period_cache[key] = self._build_period(period_type, year_text, q_text)
        return self._period_cache[key]

    def _build_period(self, period_type: str, year_text: str | None, q_text: str | None) -> Period | None:
        if period_type not in ("FY", "Q") or year_text is None:
            return None
        year = int(year_text) + 2000 if len(year_text) == 2 else int(year_text)
        if period_type == "FY":
            return Period.fiscal_year(year)
        q_text = (q_text or "").lower()
        quarter = self.ordinals.get(q_text) or self.numerals.get(q_text) or (int(q_text) if q_text.isdigit() else 0)
        return Period("Q", f"{year}Q{quarter}") if 1 <= quarter <= 4 else None


# A year written with 年度, alone or with its quarter (2024年度, 2024年度第3四半期): named by its start in Japanese
_NENDO = LazyPattern(NENDO_PATTERN)

# "dividends per share" and "dividend per share": an amount per unit is named with its head in either number
_PER_UNIT = re.compile(r"^(?P<head>[a-z][a-z ]*?[a-z])(?P<rest> per [a-z].*)$")


def _with_number_of_the_head(aliases: dict[str, tuple[SlotKind, str]]) -> None:
    """``aliases`` with each "<things> per <unit>" alias also in the other number of its head word, where
    that spelling names nothing else (the singular "dividend per share" of "dividends per share")."""
    for key, owner in list(aliases.items()):
        match = _PER_UNIT.match(key)
        if match is None or owner[0] is not SlotKind.METRIC:
            continue
        head = match["head"]
        other = head[:-1] if head.endswith("s") and not head.endswith("ss") else f"{head}s"
        aliases.setdefault(other + match["rest"], owner)


def entity_codes_in(mentions: Iterable[Mention]) -> frozenset[str]:
    """The codes of the entities among ``mentions`` (a scan's)."""
    return frozenset(m.code for m in mentions if m.kind is SlotKind.ENTITY and m.code)


def _blanked(norm: str, spans: list[tuple[int, int]]) -> str:
    """``norm`` with the union of the sorted ``spans`` (they may overlap) blanked with spaces."""
    parts, cursor = [], 0
    for start, end in spans:
        if end > cursor:
            if start > cursor:
                parts.append(norm[cursor:start])
            else:
                start = cursor
            parts.append(" " * (end - start))
            cursor = end
    parts.append(norm[cursor:])
    return "".join(parts)


# --- formula metrics ------------------------------------------------------------------------------

def _formulas(metrics: Mapping[str, Any]) -> dict[str, Formula]:
    """The formulas of the glossary's formula metrics (syntax, names and cycles checked)."""
    try:
        return formulas_of(metrics)
    except FormulaError as exc:
        raise ConfigurationError(f"glossary formula is invalid: {exc}") from exc


def _with_defaults(raw: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The glossary mapping with the default period spellings and fillers filled in."""
    merged = dict(raw)
    periods = dict(defaults.get("periods") or {})
    periods.update({k: v for k, v in (raw.get("periods") or {}).items() if v is not None})
    merged["periods"] = periods
    merged["fillers"] = [*(defaults.get("fillers") or []), *(raw.get("fillers") or [])]
    return merged


@lru_cache(maxsize=1)
def default_spellings() -> Mapping[str, Any]:
    """The engine's default period spellings and fillers (``config/glossary_defaults.yaml``)."""
    return config_loader.load_yaml(config_loader.config_path("glossary_defaults.yaml"))
