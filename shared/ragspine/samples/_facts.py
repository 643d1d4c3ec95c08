"""Derive the curated facts.csv from the figures and the layout of the built documents."""

from __future__ import annotations

import csv
from typing import TYPE_CHECKING

from ragspine.samples import _layout
from ragspine.samples.acme_figures import (
    ANNUAL,
    CHANNELS,
    ENTITIES,
    METRICS,
    QUARTERLY_REVENUE,
    QUARTERS,
    YEARS,
    AnnualRow,
    channel_label,
    entity,
    metric,
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

FACT_COLUMNS: tuple[str, ...] = (
    "metric_code",
    "entity",
    "geography",
    "channel",
    "period_type",
    "period",
    "value",
    "unit",
    "source_doc_id",
    "source_locator",
    "source_file_hash",
    "extractor_version",
    "mapping_version",
)
EXTRACTOR_VERSION = "curated-1"
MAPPING_VERSION = "glossary-1"

FactRow = dict[str, str]
"""One facts.csv row keyed by column name."""


def curated_facts(file_hashes: Mapping[str, str]) -> list[FactRow]:
    """Return every fact of the corpus, sorted, with the locator that shows its value.

    Args:
        file_hashes: sha256 hex digest of each built source file, keyed by file name.

    Returns:
        114 rows: 90 annual facts and 24 quarterly revenue facts.
    """
    rows = [_annual_fact(row, year, file_hashes) for row in ANNUAL for year in YEARS]
    rows += [
        _quarterly_fact(row.entity, quarter, row.value(quarter), file_hashes)
        for row in QUARTERLY_REVENUE
        for quarter in QUARTERS
    ]
    return sorted(rows, key=_sort_key)


def write_facts(path: Path, rows: list[FactRow]) -> None:
    """Write the rows as UTF-8 CSV with "\\n" line ends (stable across platforms)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FACT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _annual_fact(row: AnnualRow, year: str, file_hashes: Mapping[str, str]) -> FactRow:
    """Build the fact of one annual series for one fiscal year."""
    deck_year = _layout.source_deck_year(year)
    if row.channel == "TOTAL":
        slide = _layout.entity_slide(row.entity)
        label = _layout.metric_row_label(metric(row.metric), deck_year)
    else:
        slide, label = _layout.CHANNEL_SLIDE, channel_label(row)
    doc = _layout.REVIEW_DECKS[deck_year]
    return _fact(
        row.metric,
        row.entity,
        row.channel,
        "FY",
        year,
        row.value(year),
        doc,
        _layout.table_locator(slide, label, year),
        file_hashes,
    )


def _quarterly_fact(entity_code: str, quarter: str, value: str, file_hashes: Mapping[str, str]) -> FactRow:
    """Build the fact of one entity's TOTAL revenue in one quarter."""
    sheet, cell = _layout.quarter_cell(entity_code, quarter)
    doc = _layout.QUARTERLY_WORKBOOK
    return _fact(
        "REVENUE",
        entity_code,
        "TOTAL",
        "Q",
        quarter,
        value,
        doc,
        _layout.cell_locator(sheet, cell, entity_code, quarter),
        file_hashes,
    )


def _fact(
    metric_code: str,
    entity_code: str,
    channel: str,
    period_type: str,
    period: str,
    value: str,
    doc: str,
    locator: str,
    file_hashes: Mapping[str, str],
) -> FactRow:
    """Assemble one row, filling geography, unit and lineage from the metadata."""
    return {
        "metric_code": metric_code,
        "entity": entity_code,
        "geography": entity(entity_code).geography,
        "channel": channel,
        "period_type": period_type,
        "period": period,
        "value": value,
        "unit": metric(metric_code).unit,
        "source_doc_id": doc,
        "source_locator": locator,
        "source_file_hash": f"sha256:{file_hashes[doc]}",
        "extractor_version": EXTRACTOR_VERSION,
        "mapping_version": MAPPING_VERSION,
    }


def _sort_key(row: FactRow) -> tuple[int, int, int, str, str]:
    """Order facts as the specification lists them: entity, metric, channel, then period."""
    return (
        [item.code for item in ENTITIES].index(row["entity"]),
        [item.code for item in METRICS].index(row["metric_code"]),
        CHANNELS.index(row["channel"]),
        row["period_type"],
        row["period"],
    )
