"""The ``FactStore`` port: where structured facts live."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Protocol

from ragspine.facts.model import Fact, FactKey


class FactStore(Protocol):
    """Persistence of facts with their lineage (SQLite embedded, DynamoDB on AWS)."""

    def put_many(self, facts: Iterable[Fact]) -> int:
        """Insert or replace facts, refusing any without lineage.

        Args:
            facts: the facts to write; each must carry source_doc_id and source_locator.

        Returns:
            How many facts were written.

        Raises:
            MissingLineageError: a fact lacks lineage; nothing of the batch is written.
        """
        ...

    def get(self, key: FactKey) -> Fact | None:
        """Return the fact with this key, or None."""
        ...

    def find(self, *, metric_code: str, entity: str) -> list[Fact]:
        """All facts of one metric of one entity (every channel and period), sorted by key."""
        ...

    def put_conflicts(self, facts: Iterable[Fact]) -> int:
        """Record figures that differ from the kept fact of the same key (another document's or table's).

        One per key, source document and locator (a later write replaces it); they are never
        returned by ``get`` or ``find``, only by ``conflicts``, so an answer can show both.

        Raises:
            MissingLineageError: a fact lacks lineage; nothing of the batch is written.
        """
        ...

    def conflicts(self, key: FactKey) -> list[Fact]:
        """The differing figures recorded for this key (some may since equal the kept fact: compare)."""
        ...

    def get_with_conflicts(self, key: FactKey) -> tuple[Fact | None, list[Fact]]:
        """``get(key)`` and ``conflicts(key)`` in one read (one request; one statement for a fact without
        differing figures): the structured answer of every question needs both."""
        ...

    def count(self) -> int:
        """Number of facts stored."""
        ...

    def open_codes(self) -> list[tuple[str, str]]:
        """The distinct ``(metric_code, entity)`` pairs of facts whose metric or entity was coded from a
        document's own words (``label:…``, ``company:…``; see ``facts.open_vocabulary``), sorted."""
        ...

    def delete_by_source(self, source_doc_id: str, *, keep: Collection[FactKey] = ()) -> int:
        """Remove the facts extracted from one document, except those under ``keep``; return how many.

        The document's differing figures (``put_conflicts``) are removed too, whatever ``keep`` says.

        ``keep`` lets a new version be written first and its predecessor's leftovers removed
        after, so a reader never finds the document's facts missing in between.
        """
        ...
