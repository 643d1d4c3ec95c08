"""The document context on OpenSearch (osmem-server): stored with each chunk, scored by the lexical leg."""

from __future__ import annotations

from ragspine.ingestion.document_context import DocumentContext, apply_context
from ragspine.retrieval.model import SearchFilters
from tests.fakes.chunks import make_chunk
from tests.integration.opensearch.conftest import MakeIndex

TEXT = "Days payable outstanding were 41 days at the end of the fiscal year."


def test_a_question_naming_company_and_year_reaches_that_filing(make_index: MakeIndex) -> None:
    index = make_index()
    index.ensure_index()
    filings = {"WALMART_2019_10K.pdf": DocumentContext("Walmart Inc.", "FY2019", "10-K annual report"),
               "WALMART_2017_10K.pdf": DocumentContext("Walmart Inc.", "FY2017", "10-K annual report"),
               "COSTCO_2019_10K.pdf": DocumentContext("Costco Wholesale", "FY2019", "10-K annual report")}
    for doc_id, context in filings.items():
        index.add(apply_context([make_chunk(f"{doc_id}-1", TEXT, doc_id=doc_id, source_locator="page=40")], context))
    hits = index.search("Walmart FY2019 days payable outstanding", top_k=3, filters=SearchFilters())
    assert [h.chunk.doc_id for h in hits][0] == "WALMART_2019_10K.pdf"
    assert index.search("Costco days payable", top_k=1, filters=SearchFilters())[0].chunk.doc_id == "COSTCO_2019_10K.pdf"
    # the context comes back with the chunk
    [stored] = index.get(["WALMART_2019_10K.pdf-1"])
    assert (stored.company, stored.doc_period, stored.doc_type) == ("Walmart Inc.", "FY2019", "10-K annual report")
