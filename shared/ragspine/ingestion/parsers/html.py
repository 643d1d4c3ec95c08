"""HTML via lxml.html: scripts and styles dropped; headings, paragraphs, lists and tables kept."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.parsers._blocks import SectionCounter, one_line, table_block, text_block

if TYPE_CHECKING:
    from lxml.html import HtmlElement

_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "iframe", "object", "select", "button"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Elements that end the running paragraph; everything else is inline and joins the run.
_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "html", "main", "menu", "nav",
    "ol", "p", "section", "summary", "ul", "li", "pre", "table", "caption", "tr", "td", "th",
    "thead", "tbody", "tfoot", *_HEADINGS,
})
_MAX_SPAN = 1000  # the HTML limit for colspan; bounds the grid a hostile table can demand
_DIGITS = re.compile(r"\d+")


class HtmlParser:
    """Reads HTML documents; UTF-8 unless the page declares another charset."""

    media_types = ("text/html", "application/xhtml+xml")
    extensions = (".html", ".htm", ".xhtml")

    def parse(self, data: bytes, *, doc_id: str) -> ParsedDocument:
        """Walk the body in document order, one block per heading, paragraph, list item or table."""
        import lxml.html
        from lxml import etree

        try:
            data.decode("utf-8")
            encoding: str | None = "utf-8"
        except UnicodeDecodeError:
            encoding = None  # let libxml2 honour the page's own <meta charset>
        parser = lxml.html.HTMLParser(encoding=encoding, remove_comments=True, remove_pis=True)
        try:
            root = lxml.html.document_fromstring(data, parser=parser)
        except etree.ParserError:  # nothing but whitespace or markup: the registry reports it empty
            return ParsedDocument(doc_id=doc_id, title="", media_type="text/html", blocks=())
        walker = _Walker()
        walker.walk(root, BlockKind.PARAGRAPH)
        title = one_line(str(root.findtext(".//title") or ""))
        if not title:
            title = next((b.text for b in walker.blocks if b.kind is BlockKind.HEADING), "")
        return ParsedDocument(
            doc_id=doc_id, title=title, media_type="text/html", blocks=tuple(walker.blocks), metadata={"format": "html"}
        )


class _Walker:
    """Collects blocks while walking the element tree; inline runs become paragraphs."""

    def __init__(self) -> None:
        self.section = SectionCounter()
        self.blocks: list[Block] = []

    def walk(self, element: HtmlElement, kind: BlockKind) -> None:
        run = [_squash(element.text)]
        for child in element:
            tag = _tag(child)
            if tag in _BLOCKS:
                self._flush(run, kind)
                run = []
                self._block(child, tag, kind)
            elif tag not in _SKIP:
                run.append(_inline(child))
            run.append(_squash(child.tail))
        self._flush(run, kind)

    def _block(self, element: HtmlElement, tag: str, kind: BlockKind) -> None:
        if tag in _HEADINGS:
            text = one_line(_inline(element))
            if text:
                locator = self.section.enter_heading(text, int(tag[1]))
                self.blocks.append(text_block(BlockKind.HEADING, text, locator, self.section.path[:-1]))
        elif tag == "table":
            self._table(element)
        elif tag == "pre":
            text = element.text_content().strip("\n")
            if text.strip():
                self.blocks.append(
                    text_block(BlockKind.PARAGRAPH, text, self.section.next_paragraph(), self.section.path)
                )
        else:
            self.walk(element, BlockKind.LIST_ITEM if tag in ("ul", "ol", "li", "menu") else kind)

    def _flush(self, run: list[str], kind: BlockKind) -> None:
        lines = (one_line(line) for line in "".join(run).split("\n"))
        text = "\n".join(line for line in lines if line)
        if text:
            self.blocks.append(text_block(kind, text, self.section.next_paragraph(), self.section.path))

    def _table(self, table: HtmlElement) -> None:
        caption = table.find("caption")
        rows = [
            [(_inline(cell), _span(cell, "colspan"), _span(cell, "rowspan")) for cell in row.xpath("./td|./th")]
            for row in table.xpath("./tr|./thead/tr|./tbody/tr|./tfoot/tr")
        ]
        block = table_block(
            _grid(rows),
            locator=self.section.next_table(),
            heading_path=self.section.path,
            caption=_inline(caption) if caption is not None else "",
        )
        if block is not None:
            self.blocks.append(block)


def _grid(rows: list[list[tuple[str, int, int]]]) -> list[list[str]]:
    """Lay cells out on a grid, copying a spanning cell's text into every slot it covers."""
    slots: dict[tuple[int, int], str] = {}
    for r, cells in enumerate(rows):
        c = 0
        for text, colspan, rowspan in cells:
            while (r, c) in slots:
                c += 1
            for dr in range(min(rowspan, len(rows) - r)):
                for dc in range(colspan):
                    slots.setdefault((r + dr, c + dc), text)
            c += colspan
    width = max((c for _, c in slots), default=-1) + 1
    return [[slots.get((r, c), "") for c in range(width)] for r in range(len(rows))]


def _inline(element: HtmlElement) -> str:
    """Text of an element as a reader sees it: whitespace squashed, ``<br>`` kept as a newline."""
    tag = _tag(element)
    if tag in _SKIP:
        return ""
    if tag == "br":
        return "\n"
    parts = [_squash(element.text)]
    for child in element:
        # Block children (a nested table in a cell) must not glue their words to ours.
        gap = " " if _tag(child) in _BLOCKS else ""
        parts.extend((gap, _inline(child), gap, _squash(child.tail)))
    return "".join(parts)


def _squash(text: str | None) -> str:
    return re.sub(r"\s+", " ", text) if text else ""


def _span(cell: HtmlElement, name: str) -> int:
    found = _DIGITS.search(cell.get(name) or "")
    return max(1, min(int(found.group()), _MAX_SPAN)) if found else 1


def _tag(element: HtmlElement) -> str:
    tag = element.tag
    return tag.lower() if isinstance(tag, str) else ""
