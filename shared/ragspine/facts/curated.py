"""Reading a curated facts file (CSV with full lineage) into ``Fact`` records."""

from __future__ import annotations

import csv
from pathlib import Path

from ragspine.errors import InvalidInputError
from ragspine.facts.model import Fact, parse_number
from ragspine.sensitivity import Sensitivity

COLUMNS = (
    "metric_code", "entity", "geography", "channel", "period_type", "period", "value", "unit",
    "source_doc_id", "source_locator", "source_file_hash", "extractor_version", "mapping_version",
)


def read_facts_csv(path: Path) -> list[Fact]:
    """Parse a facts CSV; empty optional lineage cells become None.

    Raises:
        InvalidInputError: the header is wrong or a value is not a number, naming the line.
    """
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in COLUMNS[:10] if c not in (reader.fieldnames or [])]
        if missing:
            raise InvalidInputError(f"{path.name}: missing columns {', '.join(missing)}")
        facts = []
        for line, row in enumerate(reader, start=2):
            try:
                value = parse_number(row["value"])
            except ValueError as exc:
                raise InvalidInputError(f"{path.name} line {line}: value {row['value']!r} is not a number") from exc
            facts.append(Fact(
                row["metric_code"], row["entity"], row["geography"], row["channel"], row["period_type"],
                row["period"], value, row["unit"], row["source_doc_id"], row["source_locator"],
                source_file_hash=row.get("source_file_hash") or None,
                extractor_version=row.get("extractor_version") or None,
                mapping_version=row.get("mapping_version") or None,
                sensitivity=_sensitivity(row.get("sensitivity"), path.name, line),
            ))
    return facts


def _sensitivity(text: str | None, name: str, line: int) -> Sensitivity:
    """The optional sensitivity column; INTERNAL when absent (the level of the sample decks)."""
    if not text:
        return Sensitivity.INTERNAL
    try:
        return Sensitivity.parse(text)
    except ValueError as exc:
        raise InvalidInputError(f"{name} line {line}: {exc}") from exc
