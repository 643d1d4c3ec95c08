"""The workflow catalog: 7 curated Dify templates and 993 generated descriptors.

Everything is package data, read on first use: ``templates/index.json`` (the curated
templates' titles, facets and files), ``templates/*.yml`` (the Dify DSL itself) and
``data/descriptors.jsonl`` (written by :mod:`ragspine.workflows.scaffold.catalog.generate`).
No upstream workflow text, URL or credential is shipped.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ragspine.workflows.scaffold.catalog import resources
from ragspine.workflows.scaffold.catalog.errors import CatalogEntryNotFoundError, CatalogQueryError
from ragspine.workflows.scaffold.catalog.model import CatalogEntry, CatalogHit, EntryOrigin, Lang
from ragspine.workflows.scaffold.catalog.search import SearchIndex

MAX_QUERY_CHARS = 500
MAX_DESCRIPTION_CHARS = 4000
MAX_LIMIT = 100
BEST_MATCH_THRESHOLD = 0.5
"""Lowest score :meth:`Catalog.best_match` accepts.

A score is 0.9 × keyword coverage + 0.1 × title similarity. Coverage reaches 0.5 only when
the catalog words of a description land mostly in an entry's tags or title (tags count 2/3
of a title hit), e.g. a task word and a domain word; one generic word that only occurs in
descriptions ("write", "text") stays near 0.33 and is refused, so the scaffolder falls back
to the fixed start→llm→end graph instead of reusing a poor match.
"""


class Catalog:
    """Read-only access to the catalog; loads its package data on first use (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, CatalogEntry] | None = None
        self._files: dict[str, str] = {}
        self._indexes: dict[Lang | None, SearchIndex] = {}

    def __len__(self) -> int:
        return len(self._load())

    def entries(self) -> tuple[CatalogEntry, ...]:
        """Return every entry: the curated templates first, then the descriptors in file order."""
        return tuple(self._load().values())

    def templates(self) -> tuple[CatalogEntry, ...]:
        """Return the curated templates in index order."""
        return tuple(entry for entry in self._load().values() if entry.origin is EntryOrigin.TEMPLATE)

    def get(self, entry_id: str) -> CatalogEntry:
        """Return the entry with ``entry_id``.

        Raises:
            CatalogEntryNotFoundError: no entry has that id.
        """
        entry = self._load().get(entry_id)
        if entry is None:
            raise CatalogEntryNotFoundError(f"no catalog entry has the id {entry_id!r}")
        return entry

    def template_text(self, template_id: str) -> str:
        """Return a curated template's Dify DSL exactly as shipped (YAML text).

        Raises:
            CatalogEntryNotFoundError: ``template_id`` is not a curated template.
        """
        self._load()
        file = self._files.get(template_id)
        if file is None:
            raise CatalogEntryNotFoundError(f"no curated template has the id {template_id!r}")
        return resources.read_text(resources.TEMPLATE_DIR, file)

    def template_document(self, template_id: str) -> dict[str, Any]:
        """Return a curated template's Dify DSL parsed into a mapping (top-level order kept).

        Raises:
            CatalogEntryNotFoundError: ``template_id`` is not a curated template.
        """
        import yaml  # lazy: only template consumers pay for the YAML parser

        document = yaml.safe_load(self.template_text(template_id))
        if not isinstance(document, Mapping):
            raise TypeError(f"template {template_id!r} is not a YAML mapping")
        return dict(document)

    def search(self, query: str, *, lang: Lang | str | None = None, limit: int = 10) -> list[CatalogHit]:
        """Search titles, tags and descriptions in Chinese, English and Japanese.

        Args:
            query: keywords or a phrase, 1 to ``MAX_QUERY_CHARS`` characters.
            lang: restrict titles and descriptions to one language (tags always count).
            limit: the most hits to return, 1 to ``MAX_LIMIT``.

        Returns:
            Hits best first; empty when no word of the query is in the catalog.

        Raises:
            CatalogQueryError: empty or too long query, bad ``limit`` or unknown ``lang``.
        """
        text = _checked_text(query, "query", MAX_QUERY_CHARS)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise CatalogQueryError(f"limit must be an integer from 1 to {MAX_LIMIT}")
        return self._index(_checked_lang(lang)).search(text, limit=limit)

    def best_match(self, description: str, *, lang: Lang | str | None = None) -> CatalogHit | None:
        """Return the best entry for a free-text workflow description, or None.

        The top hit is returned only when its score reaches ``BEST_MATCH_THRESHOLD``.

        Raises:
            CatalogQueryError: empty or longer than ``MAX_DESCRIPTION_CHARS``, or unknown ``lang``.
        """
        text = _checked_text(description, "description", MAX_DESCRIPTION_CHARS)
        hits = self._index(_checked_lang(lang)).search(text, limit=1)
        return hits[0] if hits and hits[0].score >= BEST_MATCH_THRESHOLD else None

    def _index(self, lang: Lang | None) -> SearchIndex:
        entries = self._load()
        with self._lock:
            index = self._indexes.get(lang)
            if index is None:
                index = self._indexes[lang] = SearchIndex(tuple(entries.values()), lang=lang)
        return index

    def _load(self) -> dict[str, CatalogEntry]:
        with self._lock:
            if self._entries is None:
                self._entries = self._read()
            return self._entries

    def _read(self) -> dict[str, CatalogEntry]:
        entries: dict[str, CatalogEntry] = {}
        for item in resources.template_index():
            entry = CatalogEntry.from_json(item, origin=EntryOrigin.TEMPLATE)
            entries[entry.id] = entry
            self._files[entry.id] = str(item["file"])
        for line in resources.descriptor_lines():
            entry = CatalogEntry.from_json(json.loads(line), origin=EntryOrigin.GENERATED)
            if entry.id in entries:
                raise ValueError(f"duplicate catalog id {entry.id!r}")
            entries[entry.id] = entry
        return entries


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """Return the process-wide catalog (its data still loads lazily, on first use)."""
    return Catalog()


def _checked_text(value: object, name: str, max_chars: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CatalogQueryError(f"{name} must be a non-empty string")
    if len(value) > max_chars:
        raise CatalogQueryError(f"{name} is {len(value)} characters long; the limit is {max_chars}")
    return value


def _checked_lang(lang: Lang | str | None) -> Lang | None:
    if lang is None or isinstance(lang, Lang):
        return lang
    try:
        return Lang(str(lang).lower())
    except ValueError:
        raise CatalogQueryError(f"lang must be one of {', '.join(code.value for code in Lang)}") from None
