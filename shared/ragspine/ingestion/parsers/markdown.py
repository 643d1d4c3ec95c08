"""Markdown (CommonMark plus GFM tables) via markdown-it-py: headings build the heading path."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers._blocks import SectionCounter, decode_text, table_block, text_block

if TYPE_CHECKING:
    from markdown_it.token import Token

# YAML front matter is metadata, not prose; CommonMark would read its fences as rules and
# its last line as a setext heading, so it is cut off before parsing.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_FRONT_TITLE = re.compile(r"^title:[ \t]*[\"']?(.+?)[\"']?[ \t]*$", re.MULTILINE)
_LIST_DEPTH = {"bullet_list_open": 1, "ordered_list_open": 1, "bullet_list_close": -1, "ordered_list_close": -1}


class MarkdownParser:
    """Reads Markdown; raw HTML blocks and comments are skipped."""

    media_types = ("text/markdown", "text/x-markdown")
    extensions = (".md", ".markdown")

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Headings, paragraphs, list items, code blocks and tables, in source order."""
        from markdown_it import MarkdownIt

        text = decode_text(data, what="Markdown")
        title = ""
        front = _FRONT_MATTER.match(text)
        if front:
            found = _FRONT_TITLE.search(front.group(1) or "")
            title = found.group(1) if found else ""
            text = text[front.end() :]
        tokens = MarkdownIt("commonmark").enable("table").parse(text)
        blocks = _blocks(tokens)
        if not title:
            title = next((b.text for b in blocks if b.kind is BlockKind.HEADING), "")
        return ParsedDocument(
            doc_id=doc_id, title=title, media_type="text/markdown", blocks=tuple(blocks), metadata={"format": "md"}
        )


def _blocks(tokens: list[Token]) -> list[Block]:
    """Walk the flat token stream, tracking list depth and the table being read."""
    section = SectionCounter()
    blocks: list[Block] = []
    list_depth = 0
    table: list[list[str]] | None = None
    for index, token in enumerate(tokens):
        list_depth += _LIST_DEPTH.get(token.type, 0)
        opener = tokens[index - 1] if index else None
        if token.type == "table_open":
            table = []
        elif token.type == "tr_open" and table is not None:
            table.append([])
        elif token.type == "table_close" and table is not None:
            block = table_block(table, locator=section.next_table(), heading_path=section.path)
            blocks.extend([block] if block else [])
            table = None
        elif token.type in ("fence", "code_block") and token.content.strip():
            blocks.append(
                text_block(BlockKind.PARAGRAPH, token.content.rstrip("\n"), section.next_paragraph(), section.path)
            )
        elif token.type == "inline" and opener is not None:
            content = _inline_text(token).strip()
            if table is not None and table:
                table[-1].append(content)
            elif opener.type == "heading_open" and content:
                locator = section.enter_heading(content, int(opener.tag[1:]))
                blocks.append(text_block(BlockKind.HEADING, content, locator, section.path[:-1]))
            elif content:
                kind = BlockKind.LIST_ITEM if list_depth > 0 else BlockKind.PARAGRAPH
                blocks.append(text_block(kind, content, section.next_paragraph(), section.path))
    return blocks


def _inline_text(token: Token) -> str:
    """Plain text of an inline token: markup dropped, image alt text kept, line breaks kept."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "image"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)
