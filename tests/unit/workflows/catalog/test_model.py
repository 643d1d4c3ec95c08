"""Catalog entries round-trip through JSON and read their localized text."""

from __future__ import annotations

from ragspine.workflows.scaffold.catalog import CatalogEntry, EntryOrigin, Lang, default_catalog


class TestEntryModel:
    def test_every_entry_round_trips_through_its_json_form(self) -> None:
        for entry in default_catalog().entries():
            assert CatalogEntry.from_json(entry.to_json(), origin=entry.origin) == entry

    def test_localized_text_is_read_by_language(self) -> None:
        entry = default_catalog().get("tpl-meeting-minutes")
        assert entry.origin is EntryOrigin.TEMPLATE
        assert entry.titles.get(Lang.JA) == "議事録の作成"
        assert entry.titles.get(Lang.EN) == "Meeting Minutes"
