"""Scaffolding through the catalog: an explicit entry id, or the best match for a description.

- A curated template (or a descriptor whose recipe names one) is reused through
  :func:`scaffold_dsl`, so it still passes the reuse safety analysis.
- A generated descriptor's start->llm->end recipe becomes a :class:`Description` (its system
  prompt, localized title and inputs) and the fixed graph is generated from it.
- A free-text description is matched against the catalog; only a template match is reused
  (the user's own words make a better system prompt than a generic recipe), otherwise the
  fixed graph is generated from the description. The match is reported either way.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ragspine.workflows.dsl import INPUT_KINDS, Description, InputSpec, NormalizedInput, Origin
from ragspine.workflows.errors import WorkflowInvalidError
from ragspine.workflows.scaffold.catalog import (
    MAX_DESCRIPTION_CHARS,
    Catalog,
    CatalogEntry,
    CatalogHit,
    Lang,
    RecipeKind,
)
from ragspine.workflows.scaffold.scaffolder import (
    Scaffold,
    ScaffoldOptions,
    scaffold_description,
    scaffold_dsl,
    scaffold_input,
)


@dataclass(frozen=True, slots=True)
class CatalogScaffold:
    """A scaffold and the catalog entry behind it (``used`` is False when only reported)."""

    scaffold: Scaffold
    hit: CatalogHit | None = None
    used: bool = False


def _lang(language: str) -> Lang:
    return Lang(language) if language in {lang.value for lang in Lang} else Lang.EN


def _recipe_description(entry: CatalogEntry, lang: Lang) -> Description:
    recipe = entry.recipe
    inputs = tuple(InputSpec(name=item.variable, label=item.label.get(lang),
                             kind=item.type if item.type in INPUT_KINDS else "paragraph", required=item.required)
                   for item in recipe.inputs) or (InputSpec(name="query", label="Input"),)
    text = recipe.system_prompt or entry.description.get(lang)
    return Description(text=text, name=entry.titles.get(lang)[:40], language=lang.value, inputs=inputs)


def scaffold_entry(entry: CatalogEntry, *, catalog: Catalog, options: ScaffoldOptions | None = None,
                   lang: Lang = Lang.EN) -> Scaffold:
    """Scaffold one catalog entry: reuse its template, or generate from its recipe.

    Raises:
        CatalogEntryNotFoundError: the recipe names a template the catalog does not ship.
    """
    options = options or ScaffoldOptions()
    if entry.recipe.kind is RecipeKind.TEMPLATE and entry.recipe.template:
        reused = scaffold_dsl(catalog.template_document(entry.recipe.template), options, origin=Origin.TEMPLATE)
        return dataclasses.replace(reused, warnings=(f"catalog entry {entry.id}", *reused.warnings))
    generated = scaffold_description(_recipe_description(entry, lang), options)
    return dataclasses.replace(generated, origin=Origin.TEMPLATE, warnings=(f"catalog entry {entry.id}",))


def scaffold_with_catalog(normalized: NormalizedInput | None, *, catalog: Catalog,
                          options: ScaffoldOptions | None = None, entry_id: str | None = None,
                          match: bool = True) -> CatalogScaffold:
    """Scaffold an explicit catalog entry, or a normalised input with an optional catalog match.

    Raises:
        CatalogEntryNotFoundError: ``entry_id`` is not in the catalog.
        WorkflowInvalidError: neither an entry id nor an input was given, or the input is malformed.
    """
    options = options or ScaffoldOptions()
    if entry_id is not None:
        language = normalized.description.language if normalized and normalized.description else "en"
        entry = catalog.get(entry_id)
        return CatalogScaffold(scaffold_entry(entry, catalog=catalog, options=options, lang=_lang(language)),
                               CatalogHit(entry=entry, score=1.0, matched=()), used=True)
    if normalized is None:
        raise WorkflowInvalidError("give a description, a workflow document or a catalog template id", pointer="")
    described = normalized.description
    if not match or described is None or len(described.text) > MAX_DESCRIPTION_CHARS:
        return CatalogScaffold(scaffold_input(normalized, options))
    hit = catalog.best_match(described.text)
    if hit is not None and hit.entry.recipe.kind is RecipeKind.TEMPLATE:
        result = scaffold_entry(hit.entry, catalog=catalog, options=options, lang=_lang(described.language))
        return CatalogScaffold(result, hit, used=True)
    return CatalogScaffold(scaffold_input(normalized, options), hit, used=False)
