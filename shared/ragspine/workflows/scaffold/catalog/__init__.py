"""Workflow catalog: curated Dify templates, generated descriptors and their search."""

from ragspine.workflows.scaffold.catalog.catalog import (
    BEST_MATCH_THRESHOLD,
    MAX_DESCRIPTION_CHARS,
    MAX_QUERY_CHARS,
    Catalog,
    default_catalog,
)
from ragspine.workflows.scaffold.catalog.errors import CatalogEntryNotFoundError, CatalogQueryError
from ragspine.workflows.scaffold.catalog.model import (
    CatalogEntry,
    CatalogHit,
    EntryOrigin,
    Lang,
    Localized,
    Recipe,
    RecipeInput,
    RecipeKind,
)
from ragspine.workflows.scaffold.catalog.views import entry_dict, hit_dict

__all__ = [
    "BEST_MATCH_THRESHOLD",
    "MAX_DESCRIPTION_CHARS",
    "MAX_QUERY_CHARS",
    "Catalog",
    "CatalogEntry",
    "CatalogEntryNotFoundError",
    "CatalogHit",
    "CatalogQueryError",
    "EntryOrigin",
    "Lang",
    "Localized",
    "Recipe",
    "RecipeInput",
    "RecipeKind",
    "default_catalog",
    "entry_dict",
    "hit_dict",
]
