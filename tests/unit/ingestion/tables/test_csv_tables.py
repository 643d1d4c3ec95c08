"""CSV files: several tables separated by blank rows, single-cell rows as their captions, any common delimiter."""

from __future__ import annotations

import pytest

from ragspine.ingestion.model import BlockKind
from ragspine.ingestion.parsers.registry import parse_document


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_two_tables_with_captions_in_one_file(sep: str) -> None:
    text = "\n".join([
        "Wholesale (JPY billion)", sep.join(["Metric", "FY2024", "FY2025"]), sep.join(["Net sales", "15.2", "16.8"]),
        "", "Retail (JPY billion)", sep.join(["Metric", "FY2024", "FY2025"]), sep.join(["Net sales", "9.7", "10.3"]),
    ])
    doc = parse_document(text.encode(), filename="seg.csv", doc_id="seg.csv", max_bytes=1_000_000)
    tables = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
    assert [(t.locator, t.caption, t.rows[1]) for t in tables] == [
        ("table=1", "Wholesale (JPY billion)", ("Net sales", "15.2", "16.8")),
        ("table=2", "Retail (JPY billion)", ("Net sales", "9.7", "10.3")),
    ]


def test_quoted_cells_keep_their_commas() -> None:
    doc = parse_document(b'Item,FY2025\n"Property, plant and equipment","1,234"\n', filename="bs.csv",
                         doc_id="bs.csv", max_bytes=1_000_000)
    (table,) = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
    assert table.rows[1] == ("Property, plant and equipment", "1,234")


def test_semicolon_files_with_decimal_commas() -> None:
    doc = parse_document(b"Kennzahl;FY2024;FY2025\nUmsatz;1,5;12,25\nEBIT;0,5;3\n", filename="de.csv",
                         doc_id="de.csv", max_bytes=1_000_000)
    (table,) = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
    assert table.rows == (("Kennzahl", "FY2024", "FY2025"), ("Umsatz", "1,5", "12,25"), ("EBIT", "0,5", "3"))
