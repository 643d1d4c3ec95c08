"""Sensitivity levels of documents, chunks and facts (seed 000 trust boundaries)."""

from __future__ import annotations

import enum


class Sensitivity(enum.IntEnum):
    """Ordered levels: PUBLIC < INTERNAL < CONFIDENTIAL < RESTRICTED.

    RESTRICTED content never reaches a model prompt or an answer; it is removed at two
    independent exits (the index query and prompt assembly).
    """

    PUBLIC = 0
    INTERNAL = 1
    CONFIDENTIAL = 2
    RESTRICTED = 3

    @classmethod
    def parse(cls, text: str) -> Sensitivity:
        """Read a level name case-insensitively (``"restricted"`` -> RESTRICTED).

        Raises:
            ValueError: the name is not a level.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError as exc:
            raise ValueError(f"unknown sensitivity {text!r}; use one of {', '.join(m.name for m in cls)}") from exc
