"""The embedded index scores a document's title and context once per document.

BM25 reads two fields of a chunk: the passage (heading path, text) and the document field
(title; company, period, type). A match in the document field weighs the same on every passage
of the document, however long or short the passage is; the passage field decides between them.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.model import Chunk, SearchFilters
from tests.fakes.chunks import make_chunk

# Words no query below asks for: passages made of them match only through the document field.
FILLER = st.lists(st.sampled_from(["lorem", "ipsum", "dolor", "amet", "tempor", "magna"]), min_size=1, max_size=60)


def _deck(doc_id: str, company: str, period: str, texts: list[str]) -> list[Chunk]:
    return [make_chunk(f"{doc_id}-{i}", text, doc_id=doc_id, source_locator=f"slide={i}", title=f"{company} review",
                       heading_path=(f"{company} review",), company=company, doc_period=period, doc_type="review")
            for i, text in enumerate(texts, start=1)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lengths=st.lists(FILLER, min_size=2, max_size=6))
def test_a_document_field_match_scores_alike_on_every_passage(tmp_path: Path, lengths: list[list[str]]) -> None:
    index = EmbeddedChunkIndex(tmp_path / f"{abs(hash(str(lengths)))}.db")
    texts = [" ".join(words) for words in lengths]
    index.add(_deck("northwind-2024", "Northwind", "FY2024", texts)
              + _deck("contoso-2023", "Contoso", "FY2023", ["lorem ipsum"]))
    hits = index.search("2024 northwind", top_k=20, filters=SearchFilters())
    scores = {round(h.score, 5) for h in hits if h.chunk.doc_id == "northwind-2024"}
    assert len([h for h in hits if h.chunk.doc_id == "northwind-2024"]) == len(texts)
    assert len(scores) == 1, scores  # a one-word cover scores as a long slide does
    assert all(h.chunk.doc_id == "northwind-2024" for h in hits)  # the other document matches nothing
    index.close()


def test_the_passage_that_says_the_word_ranks_above_its_siblings(index: EmbeddedChunkIndex) -> None:
    index.add(_deck("northwind-2024", "Northwind", "FY2024",
                    ["USD millions.", "Revenue in Hong Kong declined as visitors spent less and three stores closed "
                                      "after their leases ended, while the team shifted its focus to local customers.",
                     "Group revenue grew."]))
    hits = index.search("Why did visitors spend less in FY2024?", top_k=3, filters=SearchFilters())
    assert hits[0].chunk.chunk_id == "northwind-2024-2"


def test_the_title_repeated_as_the_first_heading_counts_once(index: EmbeddedChunkIndex) -> None:
    # GIVEN two documents whose title says "tariffs"; one repeats its title as its first heading
    repeated = make_chunk("a-1", "Imports were steady.", doc_id="a", title="Tariffs overview", heading_path=("Tariffs overview",))
    plain = make_chunk("b-1", "Imports were steady.", doc_id="b", title="Tariffs overview")
    index.add([repeated, plain])
    # THEN neither gets the title's words twice
    scores = {round(h.score, 5) for h in index.search("tariffs", top_k=2, filters=SearchFilters())}
    assert len(scores) == 1, scores
