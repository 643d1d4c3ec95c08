"""Catalog domain types: localized text, recipes, entries and search hits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Lang(StrEnum):
    """A catalog language: every title and description exists in all three."""

    ZH = "zh"
    EN = "en"
    JA = "ja"


class EntryOrigin(StrEnum):
    """Where an entry comes from: a curated template file or the generator."""

    TEMPLATE = "template"
    GENERATED = "generated"


class RecipeKind(StrEnum):
    """How the scaffolder turns an entry into a workflow."""

    START_LLM_END = "start-llm-end"
    TEMPLATE = "template"


@dataclass(frozen=True, slots=True)
class Localized:
    """One text in Chinese, English and Japanese."""

    zh: str
    en: str
    ja: str

    def get(self, lang: Lang) -> str:
        """Return the text in ``lang``."""
        return str(getattr(self, lang.value))

    def values(self) -> tuple[str, str, str]:
        """Return the three texts in the fixed order zh, en, ja."""
        return (self.zh, self.en, self.ja)

    def to_json(self) -> dict[str, str]:
        """Return a JSON-compatible mapping with keys in the fixed order."""
        return {"zh": self.zh, "en": self.en, "ja": self.ja}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Localized:
        """Build from a ``{zh, en, ja}`` mapping."""
        return cls(zh=str(data["zh"]), en=str(data["en"]), ja=str(data["ja"]))


@dataclass(frozen=True, slots=True)
class RecipeInput:
    """One start-node variable a recipe asks the user for."""

    variable: str
    type: str
    required: bool
    label: Localized
    options: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return a compact JSON-compatible mapping (``options`` only when present)."""
        data: dict[str, Any] = {"variable": self.variable, "type": self.type, "required": self.required}
        data["label"] = self.label.to_json()
        if self.options:
            data["options"] = list(self.options)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RecipeInput:
        """Build from the mapping written by :meth:`to_json`."""
        return cls(
            variable=str(data["variable"]),
            type=str(data["type"]),
            required=bool(data["required"]),
            label=Localized.from_json(data["label"]),
            options=tuple(str(option) for option in data.get("options", ())),
        )


@dataclass(frozen=True, slots=True)
class Recipe:
    """What the scaffolder builds for an entry.

    ``START_LLM_END`` recipes carry the start inputs, the prompts and the end output name;
    ``user_prompt`` names inputs as ``{{variable}}``.
    ``TEMPLATE`` recipes name a curated template id and may suggest a ``system_prompt``.
    """

    kind: RecipeKind
    template: str | None = None
    inputs: tuple[RecipeInput, ...] = ()
    system_prompt: str = ""
    user_prompt: str = ""
    output: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return a compact JSON-compatible mapping (empty fields left out)."""
        data: dict[str, Any] = {"kind": self.kind.value}
        if self.template is not None:
            data["template"] = self.template
        if self.inputs:
            data["inputs"] = [item.to_json() for item in self.inputs]
        for key in ("system_prompt", "user_prompt", "output"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Recipe:
        """Build from the mapping written by :meth:`to_json`."""
        template = data.get("template")
        return cls(
            kind=RecipeKind(data["kind"]),
            template=None if template is None else str(template),
            inputs=tuple(RecipeInput.from_json(item) for item in data.get("inputs", ())),
            system_prompt=str(data.get("system_prompt", "")),
            user_prompt=str(data.get("user_prompt", "")),
            output=str(data.get("output", "")),
        )


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """One catalog entry: a curated template or a generated descriptor.

    ``category``, ``task`` and ``variant`` are the vocabulary keys the entry was built from
    (curated templates claim one such combination each, so the catalog covers each once).
    """

    id: str
    origin: EntryOrigin
    mode: str
    category: str
    task: str
    variant: str
    titles: Localized
    description: Localized
    tags: tuple[str, ...]
    node_kinds: tuple[str, ...]
    recipe: Recipe

    def to_json(self) -> dict[str, Any]:
        """Return the descriptor mapping (the origin is implied by the file it lives in)."""
        return {
            "id": self.id,
            "mode": self.mode,
            "category": self.category,
            "task": self.task,
            "variant": self.variant,
            "titles": self.titles.to_json(),
            "description": self.description.to_json(),
            "tags": list(self.tags),
            "node_kinds": list(self.node_kinds),
            "recipe": self.recipe.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, origin: EntryOrigin) -> CatalogEntry:
        """Build from a descriptor or template-index mapping."""
        return cls(
            id=str(data["id"]),
            origin=origin,
            mode=str(data["mode"]),
            category=str(data["category"]),
            task=str(data["task"]),
            variant=str(data["variant"]),
            titles=Localized.from_json(data["titles"]),
            description=Localized.from_json(data["description"]),
            tags=_strings(data["tags"]),
            node_kinds=_strings(data["node_kinds"]),
            recipe=Recipe.from_json(data["recipe"]),
        )


@dataclass(frozen=True, slots=True)
class CatalogHit:
    """One search result: the entry, its score in [0, 1] and the query terms it matched."""

    entry: CatalogEntry
    score: float
    matched: tuple[str, ...]


def _strings(values: Sequence[Any]) -> tuple[str, ...]:
    return tuple(str(value) for value in values)
