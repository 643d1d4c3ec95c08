"""Plain text, Markdown and HTML parse into located blocks with their heading paths."""

from __future__ import annotations

from ragspine.ingestion.model import Block, BlockKind
from ragspine.ingestion.parsers import HtmlParser, MarkdownParser, TextParser


def by_kind(blocks: tuple[Block, ...], kind: BlockKind) -> list[Block]:
    return [block for block in blocks if block.kind is kind]


class TestPlainText:
    def test_paragraphs_are_numbered_in_order(self) -> None:
        parsed = TextParser().parse(b"First line\nstill first.\n\nSecond.\n", doc_id="notes.txt")
        assert [(b.locator, b.text) for b in parsed.blocks] == [("para=1", "First line\nstill first."), ("para=2", "Second.")]
        assert parsed.doc_id == "notes.txt"


class TestMarkdown:
    SOURCE = """---
title: Store policy
owner: ops
---
Intro before any heading.

# Policy

## Returns

Items can be returned within **30 days**
with a receipt.

- Silver tier
- Gold tier

| Tier | Discount |
| --- | --- |
| Gold | 5% |

```
code stays
```
"""

    def test_front_matter_gives_the_title_and_is_not_indexed(self) -> None:
        parsed = MarkdownParser().parse(self.SOURCE.encode(), doc_id="d")
        assert parsed.title == "Store policy"
        assert all("owner: ops" not in b.text for b in parsed.blocks)

    def test_paragraphs_carry_heading_locators_and_paths(self) -> None:
        parsed = MarkdownParser().parse(self.SOURCE.encode(), doc_id="d")
        paragraphs = by_kind(parsed.blocks, BlockKind.PARAGRAPH)
        assert paragraphs[0].locator == "para=1"
        assert paragraphs[1].locator == "heading=Returns,para=1"
        assert paragraphs[1].text == "Items can be returned within 30 days\nwith a receipt."
        assert paragraphs[1].heading_path == ("Policy", "Returns")
        assert paragraphs[2].text == "code stays"

    def test_list_items_and_tables_are_their_own_blocks(self) -> None:
        parsed = MarkdownParser().parse(self.SOURCE.encode(), doc_id="d")
        items = by_kind(parsed.blocks, BlockKind.LIST_ITEM)
        assert [(b.text, b.locator) for b in items] == [
            ("Silver tier", "heading=Returns,para=2"),
            ("Gold tier", "heading=Returns,para=3"),
        ]
        (table,) = by_kind(parsed.blocks, BlockKind.TABLE)
        assert table.locator == "table=1"
        assert table.rows == (("Tier", "Discount"), ("Gold", "5%"))
        assert table.heading_path == ("Policy", "Returns")

    def test_title_falls_back_to_the_first_heading(self) -> None:
        parsed = MarkdownParser().parse(b"# Annual report\n\nText.", doc_id="d")
        assert parsed.title == "Annual report"


class TestHtml:
    PAGE = """<!doctype html><html><head><title>Policy page</title>
<style>p { color: red }</style><script>var secret = "do not index";</script></head>
<body><nav>Home</nav>
<h1>Policy</h1><p>Returns within <b>30</b> days.<br>Receipt needed.</p>
<div>Loose text in a div <span>with inline</span> parts</div>
<h2>Tiers</h2>
<ul><li>Silver<ul><li>Entry</li></ul></li><li>Gold</li></ul>
<table><caption>Discounts (%)</caption>
<thead><tr><th rowspan="2">Tier</th><th colspan="2">FY2024</th></tr>
<tr><th>H1</th><th>H2</th></tr></thead>
<tbody><tr><td>Gold</td><td>5</td><td>6</td></tr></tbody></table>
<!-- a comment --><noscript>enable js</noscript>
</body></html>"""

    def test_scripts_styles_and_comments_are_not_text(self) -> None:
        parsed = HtmlParser().parse(self.PAGE.encode(), doc_id="d")
        text = "\n".join(b.text for b in parsed.blocks)
        assert "secret" not in text
        assert "color" not in text
        assert "comment" not in text
        assert "enable js" not in text
        assert parsed.title == "Policy page"

    def test_headings_paragraphs_and_lists_in_reading_order(self) -> None:
        parsed = HtmlParser().parse(self.PAGE.encode(), doc_id="d")
        summary = [(b.kind, b.text, b.locator) for b in parsed.blocks if b.kind is not BlockKind.TABLE]
        assert summary == [
            (BlockKind.PARAGRAPH, "Home", "para=1"),
            (BlockKind.HEADING, "Policy", "heading=Policy"),
            (BlockKind.PARAGRAPH, "Returns within 30 days.\nReceipt needed.", "heading=Policy,para=1"),
            (BlockKind.PARAGRAPH, "Loose text in a div with inline parts", "heading=Policy,para=2"),
            (BlockKind.HEADING, "Tiers", "heading=Tiers"),
            (BlockKind.LIST_ITEM, "Silver", "heading=Tiers,para=1"),
            (BlockKind.LIST_ITEM, "Entry", "heading=Tiers,para=2"),
            (BlockKind.LIST_ITEM, "Gold", "heading=Tiers,para=3"),
        ]
        assert parsed.blocks[-1].heading_path == ("Policy", "Tiers")

    def test_spanning_table_cells_fill_every_slot_they_cover(self) -> None:
        parsed = HtmlParser().parse(self.PAGE.encode(), doc_id="d")
        (table,) = by_kind(parsed.blocks, BlockKind.TABLE)
        assert table.rows == (("Tier", "FY2024", "FY2024"), ("Tier", "H1", "H2"), ("Gold", "5", "6"))
        assert table.caption == "Discounts (%)"
        assert table.locator == "table=1"

    def test_a_declared_legacy_charset_is_honoured(self) -> None:
        page = '<html><head><meta charset="shift_jis"></head><body><p>売上高</p></body></html>'
        parsed = HtmlParser().parse(page.encode("shift_jis"), doc_id="d")
        assert [b.text for b in parsed.blocks] == ["売上高"]

    def test_markup_without_text_parses_to_no_blocks(self) -> None:
        assert HtmlParser().parse(b"<!-- nothing -->", doc_id="d").blocks == ()
