"""``InMemoryFactStore``: a FactStore fake that records what happened."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from ragspine.facts.model import Fact, FactKey, require_lineage
from ragspine.facts.open_vocabulary import is_open_code
from ragspine.facts.ports import FactStore


class InMemoryFactStore:
    """Facts in a dict; ``lookups`` records every key asked for."""

    def __init__(self, facts: Iterable[Fact] = ()) -> None:
        self._facts: dict[FactKey, Fact] = {}
        self._conflicts: dict[tuple[FactKey, str, str], Fact] = {}
        self.lookups: list[FactKey] = []
        self.put_many(facts)

    def put_many(self, facts: Iterable[Fact]) -> int:
        checked = [require_lineage(f) for f in facts]
        self._facts.update((f.key, f) for f in checked)
        return len(checked)

    def get(self, key: FactKey) -> Fact | None:
        self.lookups.append(key)
        return self._facts.get(key)

    def find(self, *, metric_code: str, entity: str) -> list[Fact]:
        found = [f for f in self._facts.values() if f.metric_code == metric_code and f.entity == entity]
        return sorted(found, key=lambda f: (f.channel, f.period_type, f.period))

    def put_conflicts(self, facts: Iterable[Fact]) -> int:
        checked = [require_lineage(f) for f in facts]
        self._conflicts.update(((f.key, f.source_doc_id, f.source_locator), f) for f in checked)
        return len(checked)

    def conflicts(self, key: FactKey) -> list[Fact]:
        return [f for (k, _, _), f in sorted(self._conflicts.items()) if k == key]

    def get_with_conflicts(self, key: FactKey) -> tuple[Fact | None, list[Fact]]:
        return self.get(key), self.conflicts(key)

    def count(self) -> int:
        return len(self._facts)

    def open_codes(self) -> list[tuple[str, str]]:
        return sorted({(f.metric_code, f.entity) for f in self._facts.values() if is_open_code(f.metric_code)
                       or is_open_code(f.entity)})

    def delete_by_source(self, source_doc_id: str, *, keep: Collection[FactKey] = ()) -> int:
        self._conflicts = {k: f for k, f in self._conflicts.items() if f.source_doc_id != source_doc_id}
        doomed = [k for k, f in self._facts.items() if f.source_doc_id == source_doc_id and k not in keep]
        for key in doomed:
            del self._facts[key]
        return len(doomed)


_: type[FactStore] = InMemoryFactStore  # the fake must keep matching the port
