"""Catalog errors, rendered by the API layer through their ``ragspine.errors`` base classes."""

from __future__ import annotations

from ragspine.errors import InvalidInputError, NotFoundError


class CatalogQueryError(InvalidInputError):
    """A catalog search was malformed: empty or too long, a bad ``limit`` or an unknown ``lang``."""


class CatalogEntryNotFoundError(NotFoundError):
    """No catalog entry (or no curated template) has the requested id."""
