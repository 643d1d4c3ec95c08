"""PowerPoint (.pptx) via python-pptx: slide titles, text, tables and speaker notes."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers._blocks import one_line, table_block, text_block

if TYPE_CHECKING:
    from pptx.shapes.base import BaseShape
    from pptx.slide import Slide
    from pptx.table import Table
    from pptx.text.text import _Paragraph

_BULLET_ON = ("buChar", "buAutoNum", "buBlip")


class PptxParser:
    """Reads a deck slide by slide; every block of slide N is located as ``slide=N``."""

    media_types = ("application/vnd.openxmlformats-officedocument.presentationml.presentation",)
    extensions = (".pptx",)

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Title, text paragraphs, tables (``slide=N,table=M``) and notes (``slide=N,part=notes``)."""
        from pptx import Presentation

        deck = Presentation(io.BytesIO(data))
        blocks: list[Block] = []
        for number, slide in enumerate(deck.slides, start=1):
            blocks.extend(_slide_blocks(slide, number))
        # The first slide's title is what readers see; core properties often hold a tool default.
        title = next((b.text for b in blocks if b.kind is BlockKind.TITLE), "") or one_line(
            deck.core_properties.title or ""
        )
        return ParsedDocument(
            doc_id=doc_id,
            title=title,
            media_type=self.media_types[0],
            blocks=tuple(blocks),
            metadata={"format": "pptx", "slides": str(len(deck.slides))},
        )


def _slide_blocks(slide: Slide, number: int) -> list[Block]:
    from pptx.enum.shapes import MSO_SHAPE_TYPE
    from pptx.shapes.autoshape import Shape
    from pptx.shapes.graphfrm import GraphicFrame

    where = f"slide={number}"
    title_shape = slide.shapes.title
    title = one_line(title_shape.text_frame.text) if title_shape is not None and title_shape.has_text_frame else ""
    path = (title,) if title else ()
    blocks = [text_block(BlockKind.TITLE, title, where)] if title else []
    shapes = [s for s in _flatten(slide.shapes) if title_shape is None or s.shape_id != title_shape.shape_id]
    # Decks have no captions; a free text box beside a table ("Unit: USD_M") plays that part.
    caption = " ".join(
        one_line(s.text_frame.text) for s in shapes if isinstance(s, Shape) and s.shape_type == MSO_SHAPE_TYPE.TEXT_BOX
    )
    tables = 0
    for shape in shapes:
        if isinstance(shape, GraphicFrame) and shape.has_table:
            tables += 1
            rows = _table_rows(shape.table)
            table = table_block(rows, locator=f"{where},table={tables}", heading_path=path, caption=caption)
            blocks.extend([table] if table else [])
        elif isinstance(shape, Shape) and shape.has_text_frame:
            bulleted = _bulleted_by_default(shape)
            for paragraph in shape.text_frame.paragraphs:
                text = paragraph.text.replace("\v", "\n").strip()
                if text:
                    kind = BlockKind.LIST_ITEM if _is_bullet(paragraph, bulleted) else BlockKind.PARAGRAPH
                    blocks.append(text_block(kind, text, where, path))
    notes = slide.notes_slide.notes_text_frame if slide.has_notes_slide else None
    if notes is not None and notes.text.strip():
        blocks.append(text_block(BlockKind.NOTE, notes.text.replace("\v", "\n").strip(), f"{where},part=notes", path))
    return blocks


def _flatten(shapes: object) -> Iterator[BaseShape]:
    """Shapes in z-order, group members in place of their group."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    for shape in shapes:  # type: ignore[attr-defined]
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _flatten(shape.shapes)
        else:
            yield shape


def _table_rows(table: Table) -> list[list[str]]:
    """Cell texts; a merged range's text is copied into every cell it covers, as for xlsx."""
    grid = [[one_line(cell.text) for cell in row.cells] for row in table.rows]
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            if not cell.is_merge_origin:
                continue
            for dr in range(cell.span_height):
                for dc in range(cell.span_width):
                    if r + dr < len(grid) and c + dc < len(grid[r + dr]):
                        grid[r + dr][c + dc] = grid[r][c]
    return grid


def _bulleted_by_default(shape: BaseShape) -> bool:
    """Body and content placeholders inherit bullets from the slide master; other shapes do not."""
    from pptx.enum.shapes import PP_PLACEHOLDER

    if not shape.is_placeholder:
        return False
    return shape.placeholder_format.type in (PP_PLACEHOLDER.BODY, PP_PLACEHOLDER.OBJECT)


def _is_bullet(paragraph: _Paragraph, default: bool) -> bool:
    properties = paragraph._p.pPr
    if properties is not None:
        for child in properties:
            name = child.tag.rsplit("}", 1)[-1]
            if name in _BULLET_ON:
                return True
            if name == "buNone":
                return False
    return default
