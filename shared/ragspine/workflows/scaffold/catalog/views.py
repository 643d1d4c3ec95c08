"""JSON views of catalog entries and hits, shared by the HTTP routes and the CLI."""

from __future__ import annotations

from typing import Any

from ragspine.workflows.scaffold.catalog.model import CatalogEntry, CatalogHit


def entry_dict(entry: CatalogEntry) -> dict[str, Any]:
    """The descriptor mapping plus its origin (template or generated)."""
    return {**entry.to_json(), "origin": entry.origin.value}


def hit_dict(hit: CatalogHit) -> dict[str, Any]:
    """An entry with its search score (4 decimals) and the query terms it matched."""
    return {**entry_dict(hit.entry), "score": round(hit.score, 4), "matched": list(hit.matched)}
