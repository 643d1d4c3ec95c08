"""Structure-aware chunking: locators, parents, neighbours, table rows, deterministic ids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragspine.ingestion.chunking import ChunkLimits, ChunkMeta, chunk_document
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.sensitivity import Sensitivity
from ragspine.sentence_spans import split_spans
from tests.unit.retrieval.index.acme_corpus import acme_chunked

DECK = ParsedDocument("deck-1", "FY2024 Review", "application/pptx", (
    Block(BlockKind.TITLE, "FY2024 Review", "slide=1"),
    Block(BlockKind.PARAGRAPH, "Revenue grew 5% on online sales.", "slide=1,para=1"),
    Block(BlockKind.TABLE, "Region | Revenue\nHK | 1320\nJP | 990", "slide=2,table=1", caption="Revenue by region",
          rows=(("Region", "Revenue"), ("HK", "1320"), ("JP", "990"))),
    Block(BlockKind.HEADING, "Outlook", "slide=3,heading=Outlook"),
    Block(BlockKind.PARAGRAPH, "Stable demand.", "slide=3,para=1", heading_path=("Outlook",)),
    Block(BlockKind.NOTE, "Speaker: mention Lotus.", "slide=3,notes"),
))
META = ChunkMeta(sensitivity=Sensitivity.CONFIDENTIAL, library="financial_reports", entity="ACME_GROUP",
                 period="FY2024", space_id="sp-1", document_id="doc-9", version_id="ver-2", tags=("annual",))


class TestChildren:
    def test_each_content_block_becomes_a_child_with_its_own_locator(self) -> None:
        # GIVEN a deck WHEN it is chunked
        children = chunk_document(DECK, meta=META).children
        # THEN titles and headings are not chunks; every child cites its block (or table row)
        assert [c.source_locator for c in children] == [
            "slide=1,para=1", "slide=2,table=1,row=2", "slide=2,table=1,row=3", "slide=3,para=1", "slide=3,notes"]

    def test_children_carry_title_heading_path_and_metadata(self) -> None:
        child = chunk_document(DECK, meta=META).children[3]
        assert (child.title, child.heading_path, child.doc_id) == ("FY2024 Review", ("Outlook",), "deck-1")
        assert (child.sensitivity, child.library, child.entity, child.period) == (
            Sensitivity.CONFIDENTIAL, "financial_reports", "ACME_GROUP", "FY2024")
        assert (child.space_id, child.document_id, child.version_id, child.tags) == ("sp-1", "doc-9", "ver-2", ("annual",))

    def test_table_rows_read_as_header_value_pairs(self) -> None:
        row = chunk_document(DECK).children[1]
        assert row.text == "Revenue by region\nRegion: HK; Revenue: 1320"

    def test_xlsx_rows_use_the_sheet_row_number(self) -> None:
        doc = ParsedDocument("x", "Q", "xlsx", (Block(
            BlockKind.TABLE, "", "sheet=2024", rows=(("Region", "Q1"), ("CN", "12.5")),
            cell_refs=(("A4", "B4"), ("A5", "B5"))),))
        (row,) = chunk_document(doc).children
        assert (row.source_locator, row.text) == ("sheet=2024,row=5", "Region: CN; Q1: 12.5")

    def test_table_without_header_joins_cells(self) -> None:
        doc = ParsedDocument("t", "T", "pdf", (Block(BlockKind.TABLE, "", "page=2,table=1",
                                                     rows=(("2024", "1320"), ("2025", "1400"))),))
        assert [c.text for c in chunk_document(doc).children] == ["2024 | 1320", "2025 | 1400"]

    def test_neighbours_link_children_in_reading_order(self) -> None:
        children = chunk_document(DECK).children
        assert children[0].prev_id is None and children[-1].next_id is None
        for before, after in zip(children, children[1:], strict=False):
            assert before.next_id == after.chunk_id and after.prev_id == before.chunk_id


class TestParents:
    def test_parent_is_the_slide_and_holds_its_children_text(self) -> None:
        chunked = chunk_document(DECK, meta=META)
        parents = {p.chunk_id: p for p in chunked.parents}
        outlook = parents[chunked.children[3].parent_id or ""]
        assert outlook.is_parent and outlook.source_locator == "slide=3"
        assert outlook.text == "Stable demand.\nSpeaker: mention Lotus."
        assert chunked.children[3].parent_id == chunked.children[4].parent_id

    def test_parents_are_flagged_and_children_are_not(self) -> None:
        chunked = chunk_document(DECK)
        assert all(p.is_parent for p in chunked.parents)
        assert not any(c.is_parent for c in chunked.children)
        assert set(chunked.all()) == set(chunked.parents) | set(chunked.children)

    def test_long_section_is_split_into_parent_windows_within_budget(self) -> None:
        blocks = tuple(Block(BlockKind.PARAGRAPH, f"Sentence number {i} " * 10, f"page=1,para={i}")
                       for i in range(1, 13))
        chunked = chunk_document(ParsedDocument("p", "P", "pdf", blocks),
                                 limits=ChunkLimits(max_chars=200, max_parent_chars=500))
        assert len(chunked.parents) > 1
        assert all(len(p.text) <= 500 and p.source_locator == "page=1" for p in chunked.parents)
        assert {c.parent_id for c in chunked.children} == {p.chunk_id for p in chunked.parents}


def split_text(text: str, max_chars: int) -> list[str]:
    """The pieces ``split_spans`` cuts, as text."""
    stripped = text.strip()
    return [stripped[start:end] for start, end in split_spans(stripped, max_chars)]


class TestSplitting:
    def test_long_paragraph_splits_on_cjk_sentence_ends(self) -> None:
        text = "香港营业收入下降。" * 30 + "日本毛利率回升！" * 30
        pieces = split_text(text, 100)
        assert all(len(p) <= 100 for p in pieces)
        assert all(p.endswith(("。", "！")) for p in pieces)
        assert "".join(pieces) == text

    def test_english_splits_after_a_full_stop_but_not_inside_numbers(self) -> None:
        pieces = split_text("Revenue rose 7.4% in Hong Kong. Margins held steady overall. " * 4, 70)
        assert all(len(p) <= 70 for p in pieces) and "7.4%" in pieces[0]

    def test_a_sentence_longer_than_the_limit_is_cut_evenly(self) -> None:
        pieces = split_text("日本" * 301, 200)
        assert [len(p) for p in pieces] == [151, 151, 150, 150]

    def test_split_children_keep_the_block_locator(self) -> None:
        doc = ParsedDocument("d", "D", "md", (Block(BlockKind.PARAGRAPH, "很长的句子。" * 200, "para=1"),))
        children = chunk_document(doc, limits=ChunkLimits(max_chars=300)).children
        assert len(children) > 1 and {c.source_locator for c in children} == {"para=1"}
        assert len({c.chunk_id for c in children}) == len(children)

    def test_limits_are_checked(self) -> None:
        with pytest.raises(ValueError, match="max_chars"):
            ChunkLimits(max_chars=500, max_parent_chars=100)


class TestIds:
    def test_ids_are_deterministic_and_depend_on_the_version(self) -> None:
        first = chunk_document(DECK, meta=ChunkMeta(version_id="v1"))
        again = chunk_document(DECK, meta=ChunkMeta(version_id="v1"))
        other = chunk_document(DECK, meta=ChunkMeta(version_id="v2"))
        assert [c.chunk_id for c in first.all()] == [c.chunk_id for c in again.all()]
        assert not {c.chunk_id for c in first.all()} & {c.chunk_id for c in other.all()}


class TestAcmeCorpus:
    def test_every_acme_child_has_a_locator_a_parent_and_fits_the_limit(self) -> None:
        for chunked in acme_chunked():
            parents = {p.chunk_id for p in chunked.parents}
            assert chunked.children
            for child in chunked.children:
                assert child.source_locator.strip() and child.parent_id in parents
                assert 0 < len(child.text) <= 800

    def test_mda_paragraph_is_under_its_region_heading(self) -> None:
        mda = next(c for c in acme_chunked() if c.children[0].doc_id == "ACME_FY2024_MDA.docx")
        decline = next(c for c in mda.children if "下降7.4%" in c.text)
        assert decline.heading_path == ("香港（ACME_HK）",)
        parent = next(p for p in mda.parents if p.chunk_id == decline.parent_id)
        assert decline.text in parent.text and parent.heading_path == ("香港（ACME_HK）",)

    def test_policy_list_items_are_separate_children(self) -> None:
        policy = next(c for c in acme_chunked() if c.children[0].doc_id == "ACME_Product_Policy.md")
        tiers = [c for c in policy.children if c.source_locator.startswith("heading=Membership,para=2,item=")]
        assert [t.text.split("**")[1] for t in tiers] == ["Silver", "Gold", "Black"]


class TestPackedPages:
    """Page-located text (PDF) is packed into children of about ``target_chars``, cited by page."""

    LIMITS = ChunkLimits(max_chars=200, max_parent_chars=1000, target_chars=500)

    @staticmethod
    def pdf(*blocks: tuple[int, str, tuple[str, ...]]) -> ParsedDocument:
        counters: dict[int, int] = {}
        out = []
        for page, text, path in blocks:
            counters[page] = counters.get(page, 0) + 1
            out.append(Block(BlockKind.PARAGRAPH, text, f"page={page},para={counters[page]}", heading_path=path))
        return ParsedDocument("r.pdf", "R", "application/pdf", tuple(out))

    def test_short_paragraphs_of_a_page_become_one_child_cited_by_page(self) -> None:
        doc = self.pdf(*[(3, f"Paragraph {i} of the liquidity section.", ("Item 7", "Liquidity")) for i in range(8)])
        (child,) = chunk_document(doc, limits=self.LIMITS).children
        assert child.source_locator == "page=3" and child.heading_path == ("Item 7", "Liquidity")
        assert child.text.count("\n") == 7

    def test_a_new_heading_starts_a_new_child(self) -> None:
        doc = self.pdf((3, "Cash rose.", ("Liquidity",)), (3, "Debt fell.", ("Debt",)))
        children = chunk_document(doc, limits=self.LIMITS).children
        assert [(c.text, c.heading_path) for c in children] == [("Cash rose.", ("Liquidity",)), ("Debt fell.", ("Debt",))]

    def test_a_paragraph_cut_by_the_page_break_is_one_child_spanning_both_pages(self) -> None:
        doc = self.pdf((3, "x" * 480, ("A",)), (3, "The dividend was paid", ("A",)), (4, "in March.", ("A",)))
        children = chunk_document(doc, limits=self.LIMITS).children
        assert [c.source_locator for c in children] == ["page=3", "page=3-4"]
        parents = chunk_document(doc, limits=self.LIMITS).parents
        assert parents[0].source_locator == "page=3-4"

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.tuples(st.integers(1, 4), st.text("ab .", min_size=1, max_size=300), st.sampled_from(["A", "B"])),
                    min_size=1, max_size=25))
    def test_packing_keeps_every_text_in_order_within_the_target(self, raw: list[tuple[int, str, str]]) -> None:
        blocks = sorted(raw, key=lambda b: b[0])  # pages in reading order
        doc = self.pdf(*[(page, text, (head,)) for page, text, head in blocks if text.strip()])
        children = chunk_document(doc, limits=self.LIMITS).children
        joined = "\n".join(c.text for c in children)
        assert [w for w in joined.split() if w] == [w for b in doc.blocks for w in b.text.split()]
        for child in children:
            assert len(child.text) <= self.LIMITS.target_chars
            assert child.source_locator.startswith("page=")
            pages = {b.locator.split(",")[0] for b in doc.blocks if b.text.strip() and b.text.strip() in child.text}
            assert pages, child.source_locator
