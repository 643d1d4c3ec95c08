"""CSV: one or more tables separated by blank rows, each located as ``table=N``.

A row with a single filled cell above a table (``Unit: JPY million``, a title) is its
caption; the table's cells keep their text exactly as written.
"""

from __future__ import annotations

import csv
import io

from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers._blocks import decode_text, table_block, text_block

_DELIMITERS = ",;\t|"


class CsvParser:
    """Reads UTF-8 (or BOM-marked) comma, semicolon, tab or pipe separated tables."""

    media_types = ("text/csv",)
    extensions = (".csv", ".tsv")

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Each run of non-blank rows is a table; single-cell rows before it are its caption."""
        text = decode_text(data, what="CSV")
        rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text), delimiter=_delimiter(text))]
        blocks: list[Block] = []
        notes: list[str] = []
        run: list[list[str]] = []
        for line, row in enumerate([*rows, []], start=1):
            filled = [cell for cell in row if cell]
            if len(filled) == 1 and not run:
                notes.append(filled[0])
                blocks.append(text_block(BlockKind.NOTE, filled[0], f"line={line}"))
            elif filled:
                run.append(row)
            elif run:
                table = table_block(run, locator=f"table={sum(b.kind is BlockKind.TABLE for b in blocks) + 1}",
                                    caption="; ".join(notes))
                blocks.extend([table] if table else [])
                run, notes = [], []
        return ParsedDocument(doc_id=doc_id, title="", media_type=self.media_types[0], blocks=tuple(blocks),
                              metadata={"format": "csv"})


def _delimiter(text: str) -> str:
    """The delimiter that splits the most first lines into two or more cells, of the fewest widths (comma on a tie).

    ``Net sales;1,234`` splits on both; only ``;`` splits every such line into the same width.
    """
    sample = text[:8192]

    def score(sep: str) -> tuple[int, int]:
        widths = [len(row) for row in csv.reader(io.StringIO(sample), delimiter=sep) if len(row) > 1]
        return len(widths), -len(set(widths))

    return max(_DELIMITERS, key=score)
