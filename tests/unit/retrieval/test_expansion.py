"""Parent/window expansion: child citations kept, RESTRICTED text never pulled in."""

from __future__ import annotations

import pytest

from ragspine.retrieval.expansion import ExpansionMode, expand
from ragspine.retrieval.model import Chunk, ScoredChunk
from ragspine.sensitivity import Sensitivity
from tests.fakes.chunks import InMemoryChunkIndex, make_chunk

R = Sensitivity.RESTRICTED


def section(doc: str, texts: list[str], *, parent_text: str | None = None,
            sensitivities: list[Sensitivity] | None = None,
            parent_sensitivity: Sensitivity = Sensitivity.INTERNAL) -> list[Chunk]:
    """A parent chunk and its children linked prev/next, ids ``<doc>-p`` and ``<doc>-1``..."""
    levels = sensitivities or [Sensitivity.INTERNAL] * len(texts)
    ids = [f"{doc}-{n}" for n in range(1, len(texts) + 1)]
    parent = make_chunk(f"{doc}-p", parent_text or " ".join(texts), doc_id=doc, source_locator="heading=Section",
                        sensitivity=parent_sensitivity)
    children = [make_chunk(chunk_id, text, doc_id=doc, source_locator=f"heading=Section,para={n + 1}",
                           parent_id=parent.chunk_id, prev_id=ids[n - 1] if n else None,
                           next_id=ids[n + 1] if n + 1 < len(ids) else None, sensitivity=levels[n], position=n)
                for n, (chunk_id, text) in enumerate(zip(ids, texts, strict=True))]
    return [parent, *children]


def hit_of(index: InMemoryChunkIndex, chunk_id: str) -> ScoredChunk:
    return ScoredChunk(index.get([chunk_id])[0], 0.5)


@pytest.fixture
def index() -> InMemoryChunkIndex:
    return InMemoryChunkIndex(section("D", ["one.", "two.", "three.", "four."]))


class TestCitationStaysTheChilds:
    def test_parent_mode_uses_parent_text_as_context_but_cites_the_child(self, index: InMemoryChunkIndex) -> None:
        # GIVEN a hit on the second paragraph
        child = hit_of(index, "D-2")
        # WHEN it is expanded to its parent
        [expanded] = expand([child], index=index, mode=ExpansionMode.PARENT)
        # THEN the context is the section, the citation the paragraph
        assert expanded.context == "one. two. three. four."
        assert expanded.context_chunk_ids == ("D-p",)
        assert (expanded.chunk_id, expanded.doc_id, expanded.source_locator) == ("D-2", "D", "heading=Section,para=2")
        assert expanded.hit == child and expanded.score == 0.5

    def test_window_mode_joins_the_neighbours_in_document_order(self, index: InMemoryChunkIndex) -> None:
        [expanded] = expand([hit_of(index, "D-2")], index=index, mode=ExpansionMode.WINDOW, window=1)
        assert expanded.context == "one.\ntwo.\nthree."
        assert expanded.context_chunk_ids == ("D-1", "D-2", "D-3")
        assert expanded.source_locator == "heading=Section,para=2"

    def test_a_wider_window_walks_one_batched_get_per_step(self, index: InMemoryChunkIndex) -> None:
        child = hit_of(index, "D-1")
        index.gets.clear()
        [expanded] = expand([child], index=index, mode=ExpansionMode.WINDOW, window=2)
        assert expanded.context_chunk_ids == ("D-1", "D-2", "D-3")
        assert index.gets == [["D-2"], ["D-3"]]

    def test_none_mode_uses_the_childs_own_text_without_reading_the_index(self, index: InMemoryChunkIndex) -> None:
        child = hit_of(index, "D-3")
        index.gets.clear()
        [expanded] = expand([child], index=index, mode=ExpansionMode.NONE)
        assert expanded.context == "three." and index.gets == []

    def test_parent_or_window_prefers_the_parent_and_falls_back_when_it_is_too_long(
            self, index: InMemoryChunkIndex) -> None:
        [with_parent] = expand([hit_of(index, "D-2")], index=index)
        assert with_parent.context_chunk_ids == ("D-p",)
        [too_long] = expand([hit_of(index, "D-2")], index=index, max_context_chars=20)
        assert too_long.context_chunk_ids == ("D-1", "D-2", "D-3")

    def test_a_size_limit_trims_far_neighbours_but_never_the_child(self, index: InMemoryChunkIndex) -> None:
        [expanded] = expand([hit_of(index, "D-2")], index=index, mode=ExpansionMode.WINDOW, window=2,
                            max_context_chars=len("two.") + 1 + len("one."))
        assert expanded.context_chunk_ids == ("D-1", "D-2")
        [tiny] = expand([hit_of(index, "D-2")], index=index, mode=ExpansionMode.WINDOW, max_context_chars=1)
        assert tiny.context == "two."

    def test_a_neighbour_of_another_document_is_not_joined(self) -> None:
        stray = make_chunk("X-1", "elsewhere", doc_id="X")
        own = make_chunk("D-1", "here", doc_id="D", next_id="X-1")
        index = InMemoryChunkIndex([own, stray])
        [expanded] = expand([ScoredChunk(own, 1.0)], index=index, mode=ExpansionMode.WINDOW)
        assert expanded.context == "here"


class TestRestrictedNeverExpands:
    def test_a_restricted_child_is_dropped_before_anything_is_fetched(self) -> None:
        # GIVEN a RESTRICTED hit (an adapter bug let it through) next to an ordinary one
        index = InMemoryChunkIndex([*section("B", ["board resolution"], sensitivities=[R], parent_sensitivity=R),
                                    *section("D", ["one.", "two."])])
        hits = [ScoredChunk(c, 1.0) for c in index.get(["B-1", "D-1"])]
        index.gets.clear()
        # WHEN expanded
        expanded = expand(hits, index=index)
        # THEN only the ordinary hit remains, and nothing of B was even asked for
        assert [e.chunk_id for e in expanded] == ["D-1"]
        assert not any(chunk_id.startswith("B") for call in index.gets for chunk_id in call)

    def test_a_restricted_neighbour_is_never_in_the_context_nor_stepped_over(self) -> None:
        index = InMemoryChunkIndex(section("D", ["public one.", "SECRET two.", "public three."],
                                           sensitivities=[Sensitivity.INTERNAL, R, Sensitivity.INTERNAL]))
        [expanded] = expand([hit_of(index, "D-1")], index=index, mode=ExpansionMode.WINDOW, window=2)
        assert expanded.context == "public one."
        assert "SECRET" not in expanded.context and "D-3" not in expanded.context_chunk_ids

    def test_a_restricted_parent_is_replaced_by_the_window(self) -> None:
        index = InMemoryChunkIndex(section("D", ["one.", "two."], parent_text="SECRET summary",
                                           parent_sensitivity=R))
        for mode in ExpansionMode:
            [expanded] = expand([hit_of(index, "D-1")], index=index, mode=mode)
            assert "SECRET" not in expanded.context
            assert "D-p" not in expanded.context_chunk_ids

    def test_a_lower_ceiling_also_withholds_confidential_neighbours(self) -> None:
        index = InMemoryChunkIndex(section("D", ["open.", "confidential."],
                                           sensitivities=[Sensitivity.INTERNAL, Sensitivity.CONFIDENTIAL]))
        [expanded] = expand([hit_of(index, "D-1")], index=index, mode=ExpansionMode.WINDOW,
                            max_sensitivity=Sensitivity.INTERNAL)
        assert expanded.context == "open."

    def test_the_ceiling_cannot_be_raised_to_restricted(self, index: InMemoryChunkIndex) -> None:
        with pytest.raises(ValueError, match="RESTRICTED"):
            expand([], index=index, max_sensitivity=R)

    @pytest.mark.parametrize("window", [-1, 6])
    def test_an_out_of_range_window_is_refused(self, index: InMemoryChunkIndex, window: int) -> None:
        with pytest.raises(ValueError, match="window"):
            expand([], index=index, window=window)
