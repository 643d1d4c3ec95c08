"""Tables whose figures became facts are not indexed as passages; every other block is."""

from __future__ import annotations

from ragspine.facts.model import Fact
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.ingestion.prepare import without_fact_tables


def _fact(locator: str) -> Fact:
    return Fact("REVENUE", "ACME_HK", "HK", "TOTAL", "FY", "FY2024", 410, "USD_M", "deck.pptx", locator,
                source_file_hash="sha256:ab", extractor_version="table-1", mapping_version="glossary-1")


DOC = ParsedDocument("deck.pptx", "Review", "application/pdf", (
    Block(BlockKind.HEADING, "FY2024 review", "slide=2"),
    Block(BlockKind.PARAGRAPH, "Unit: USD million", "slide=2,para=1"),
    Block(BlockKind.TABLE, "REVENUE | 410", "slide=2,table=1", caption="Unit: USD million"),
    Block(BlockKind.PARAGRAPH, "Hong Kong fell because of the Causeway Bay closure.", "slide=3,para=1"),
    Block(BlockKind.TABLE, "Store | Opened", "slide=4,table=1"),
))


def test_a_table_that_gave_facts_and_its_caption_are_dropped_the_rest_is_kept() -> None:
    kept = without_fact_tables(DOC, [_fact("slide=2,table=1,row=REVENUE,col=FY2024")])
    assert [b.locator for b in kept.blocks] == ["slide=2", "slide=3,para=1", "slide=4,table=1"]


def test_without_facts_every_block_is_kept() -> None:
    assert without_fact_tables(DOC, []) == DOC


def test_a_locator_prefix_of_another_table_does_not_drop_it() -> None:
    kept = without_fact_tables(DOC, [_fact("slide=2,table=10,row=REVENUE,col=FY2024")])
    assert kept == DOC
