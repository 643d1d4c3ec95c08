"""A table row passage carries its headers; expansion never adds the rest of its table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.ingestion.model import Block, BlockKind
from ragspine.ingestion.table_rows import table_row_texts
from ragspine.retrieval.expansion import ExpansionMode, expand
from ragspine.retrieval.model import Chunk, ScoredChunk, is_row_locator
from tests.fakes.chunks import InMemoryChunkIndex, make_chunk


def _sheet() -> list[Chunk]:
    """A note, three table rows and a note under one sheet parent, linked in reading order."""
    locators = ["sheet=S,cell=A1", "sheet=S,row=3", "sheet=S,row=4", "sheet=S,row=5", "sheet=S,cell=A7"]
    texts = ["Caption", "Caption\nCity: Kobe; Staff: 20", "Caption\nCity: Nara; Staff: 21",
             "Caption\nCity: Oita; Staff: 22", "Figures unaudited."]
    ids = [f"c{n}" for n in range(len(texts))]
    parent = make_chunk("p", "\n".join(texts), doc_id="D", source_locator="sheet=S", is_parent=True)
    return [parent, *(make_chunk(ids[n], text, doc_id="D", source_locator=locators[n], parent_id="p",
                                 prev_id=ids[n - 1] if n else None, next_id=ids[n + 1] if n + 1 < len(ids) else None)
                      for n, text in enumerate(texts))]


@pytest.mark.parametrize("mode", list(ExpansionMode))
def test_a_row_hit_is_quoted_alone_in_every_mode(mode: ExpansionMode) -> None:
    index = InMemoryChunkIndex(_sheet())
    [expanded] = expand([ScoredChunk(index.get(["c2"])[0], 1.0)], index=index, mode=mode, window=2)
    assert expanded.context == "Caption\nCity: Nara; Staff: 21"
    assert expanded.context_chunk_ids == ("c2",)


def test_a_window_around_prose_stops_at_the_tables_rows() -> None:
    index = InMemoryChunkIndex(_sheet())
    [expanded] = expand([ScoredChunk(index.get(["c4"])[0], 1.0)], index=index, mode=ExpansionMode.WINDOW, window=2)
    assert expanded.context == "Figures unaudited."


def test_a_header_of_years_is_kept_on_every_row() -> None:
    block = Block(BlockKind.TABLE, "", "slide=2,table=1",
                  rows=(("Metric", "2023", "2024"), ("Revenue", "1180", "1320")), caption="USD m")
    assert table_row_texts(block) == [("USD m\nMetric: Revenue; 2023: 1180; 2024: 1320", "slide=2,table=1,row=2")]


@given(st.from_regex(r"(sheet=[A-Z]{1,3},|table=\d,|page=\d,table=\d,)row=\d{1,3}(,col=\d)?", fullmatch=True))
def test_row_locators_are_recognised(locator: str) -> None:
    assert is_row_locator(locator)


@pytest.mark.parametrize("locator", ["heading=Rows and columns,para=2", "page=3,para=1", "sheet=arrow=1", "slide=2"])
def test_other_locators_are_not_rows(locator: str) -> None:
    assert not is_row_locator(locator)
