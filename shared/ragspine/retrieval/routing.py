"""Per-library routing: which libraries a question is searched in, chosen by configuration."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ragspine.domain.files import LIBRARIES, default_domain_dir, read_file
from ragspine.errors import ConfigurationError

if TYPE_CHECKING:
    from ragspine.facts.glossary import Glossary

SLOT_NAMES = frozenset({"metric", "entity", "period", "channel"})  # the four slots of seed 001
_RULE_KEYS = frozenset({"slots", "keywords"})

SlotDetector = Callable[[str], Collection[str]]


def _fold(text: str) -> str:
    """NFKC (full-width to ASCII) and case folding: the form keywords and questions meet in."""
    return unicodedata.normalize("NFKC", text).casefold()


def _keyword_regex(keywords: Collection[str]) -> re.Pattern[str] | None:
    parts = []
    for keyword in sorted(keywords, key=len, reverse=True):  # longest first: 会员等级 before 会员
        body = re.escape(keyword)
        # ASCII words match whole words only ("board" is not in "dashboard"); Chinese and
        # Japanese have no spaces, so their keywords match anywhere.
        parts.append(rf"(?<![0-9a-z]){body}(?![0-9a-z])" if keyword.isascii() else body)
    return re.compile("|".join(parts)) if parts else None


@dataclass(frozen=True, slots=True)
class LibraryRule:
    """When a library is chosen: any of its keywords in the question, or any of its slots present."""

    library: str
    keywords: tuple[str, ...]
    slots: frozenset[str]
    pattern: re.Pattern[str] | None

    @classmethod
    def from_spec(cls, library: str, spec: Mapping[str, Any]) -> LibraryRule:
        """A rule from its YAML entry (``slots`` and ``keywords`` lists)."""
        unknown = set(spec) - _RULE_KEYS
        if unknown:
            raise ConfigurationError(f"library {library!r} has unknown keys {sorted(unknown)}")
        slots = frozenset(str(s) for s in spec.get("slots") or ())
        if slots - SLOT_NAMES:
            raise ConfigurationError(f"library {library!r} names unknown slots {sorted(slots - SLOT_NAMES)}")
        keywords = tuple(dict.fromkeys(_fold(str(k)).strip() for k in spec.get("keywords") or ()))
        if "" in keywords:
            raise ConfigurationError(f"library {library!r} has an empty keyword")
        return cls(library, keywords, slots, _keyword_regex(keywords))

    def score(self, folded_query: str, slots: Collection[str], *, keyword_score: int, slot_score: int) -> int:
        """How strongly the question points at this library (0: not at all)."""
        matched = set(self.pattern.findall(folded_query)) if self.pattern else set()
        return keyword_score * len(matched) + slot_score * len(self.slots.intersection(slots))


@dataclass(frozen=True, slots=True)
class LibraryRouter:
    """Chooses the libraries a question points at, from keywords (zh/en/ja) and slots.

    Routing only boosts: the retriever searches every library the caller may see and ranks
    the chosen ones' passages higher, so a user's own library is never hidden.
    """

    version: str
    rules: tuple[LibraryRule, ...]
    keyword_score: int = 2
    slot_score: int = 1

    @property
    def libraries(self) -> tuple[str, ...]:
        """Every library the configuration declares, in file order."""
        return tuple(rule.library for rule in self.rules)

    def route(self, query: str, *, slots: Collection[str] = ()) -> tuple[str, ...]:
        """The libraries the question points at, most relevant first.

        Args:
            query: the question.
            slots: names of the slots the question carries (``metric``, ``entity``, ...).

        Returns:
            Every library whose keywords or slots match, by descending score (ties keep the
            configuration order); empty when none matches.
        """
        folded = _fold(query)
        scored = [(rule.score(folded, slots, keyword_score=self.keyword_score, slot_score=self.slot_score), n, rule)
                  for n, rule in enumerate(self.rules)]
        chosen = sorted((item for item in scored if item[0] > 0), key=lambda item: (-item[0], item[1]))
        return tuple(rule.library for _, _, rule in chosen)

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> LibraryRouter:
        """Build a router from the YAML mapping, validating it.

        Raises:
            ConfigurationError: a section is missing or malformed.
        """
        # ``default`` (the libraries an unrouted question searched) is accepted and ignored: an
        # unrouted question now searches every library, so older files still load.
        try:
            rules = tuple(LibraryRule.from_spec(str(name), spec or {}) for name, spec in raw["libraries"].items())
            scores = raw.get("scores") or {}
            router = cls(str(raw["version"]), rules, int(scores.get("keyword", 2)), int(scores.get("slot", 1)))
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ConfigurationError(f"library routing is malformed: {exc!r}") from exc
        if router.keyword_score < 1 or router.slot_score < 0:
            raise ConfigurationError("library routing scores: keyword must be >= 1 and slot >= 0")
        return router

    @classmethod
    def from_file(cls, path: Path) -> LibraryRouter:
        """Load a routing YAML file.

        Raises:
            ConfigurationError: the file cannot be read or is malformed.
        """
        try:
            raw = yaml.load(path.read_text(encoding="utf-8"),  # noqa: S506 (a safe loader)
                            Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigurationError(f"cannot read library routing {path}: {exc}") from exc
        if not isinstance(raw, Mapping):
            raise ConfigurationError(f"library routing {path} is not a mapping")
        return cls.from_mapping(raw)


def default_library_router() -> LibraryRouter:
    """The routing of the shipped demo domain: a retriever's when it is given none."""
    return library_router_of(default_domain_dir())


@lru_cache(maxsize=4)
def library_router_of(folder: Path) -> LibraryRouter:
    """The routing of the domain folder ``folder`` (its ``libraries.yaml``), loaded once per folder."""
    return LibraryRouter.from_mapping(read_file(folder / LIBRARIES, LIBRARIES))


def glossary_slot_detector(glossary: Glossary) -> SlotDetector:
    """A slot detector naming the slots the glossary recognises in a question (malformed mentions ignored)."""

    def detect(query: str) -> frozenset[str]:
        return frozenset(mention.kind.value for mention in glossary.scan(query) if mention.code is not None)

    return detect
