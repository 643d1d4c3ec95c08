"""A small memo of values computed under one glossary: the last few kept, a changed glossary computing afresh."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from ragspine.facts.glossary import Glossary

V = TypeVar("V")


class GlossaryMemo(Generic[V]):
    """Up to ``size`` values by key, each kept with the glossary it was computed under (another glossary, as after
    a domain reload, computes afresh). Full, it is emptied: the keys asked again soon are written back at once."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: dict[Hashable, tuple[Glossary, V]] = {}

    def recall(self, key: Hashable, glossary: Glossary, compute: Callable[[], V]) -> V:
        """The value kept for ``key`` under ``glossary``, else ``compute()`` kept and returned."""
        kept = self._kept.get(key)
        if kept is not None and kept[0] is glossary:
            return kept[1]
        value = compute()
        if len(self._kept) >= self._size:
            self._kept.clear()
        self._kept[key] = (glossary, value)
        return value
