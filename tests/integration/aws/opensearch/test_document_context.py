"""The document context on OpenSearch (osmem-server): stored with each chunk, scored by the lexical leg."""

from __future__ import annotations

from ragspine.ingestion.document_context import DocumentContext, apply_context
from ragspine.retrieval.model import SearchFilters
from tests.fakes.chunks import make_chunk
from tests.integration.aws.opensearch.conftest import MakeIndex

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


def test_the_document_list_and_the_named_filing_first_on_opensearch(make_index: MakeIndex) -> None:
    from ragspine.retrieval.pipeline import HybridRetriever, RetrievalConfig
    from ragspine.retrieval.targeting import DocumentRef

    index = make_index()
    index.ensure_index()
    filings = {"WALMART_2019_10K.pdf": DocumentContext("Walmart Inc.", "FY2019", "10-K annual report"),
               "COSTCO_2019_10K.pdf": DocumentContext("Costco Wholesale", "FY2019", "10-K annual report")}
    for doc_id, context in filings.items():
        # Costco's passages say the asked words more often than Walmart's
        extra = "" if doc_id.startswith("WALMART") else " Days payable outstanding: days payable."
        texts = [f"{TEXT}{extra}", f"Payable days stood at 41 in the fourth quarter.{extra}",
                 f"Suppliers were paid on outstanding payable terms of 40 days.{extra}"]
        index.add(apply_context([make_chunk(f"{doc_id}-{i}", text, doc_id=doc_id, source_locator=f"page={i}")
                                 for i, text in enumerate(texts, start=1)], context))
    # GIVEN one terms aggregation lists each document once with its context
    assert sorted(index.documents(), key=lambda ref: ref.doc_id) == [
        DocumentRef("COSTCO_2019_10K.pdf", "Costco Wholesale", "FY2019"),
        DocumentRef("WALMART_2019_10K.pdf", "Walmart Inc.", "FY2019")]
    # WHEN a question names Walmart and FY2019, THEN Walmart's three passages lead
    retriever = HybridRetriever(index, config=RetrievalConfig(top_k=5, per_library_k=10))
    result = retriever.retrieve("Walmart FY2019 days payable outstanding")
    assert result.documents == ("WALMART_2019_10K.pdf",)
    assert [h.chunk.doc_id for h in result.hits][:3] == ["WALMART_2019_10K.pdf"] * 3


def test_a_year_only_question_ranks_the_answer_above_that_years_cover_page(make_index: MakeIndex) -> None:
    # The embedded index's test_year_only_questions, on OpenSearch: title and context are fields of
    # their own there, so a thin cover page gains nothing from them over the passage that answers.
    index = make_index()
    index.ensure_index()
    deck = DocumentContext("ACME", "FY2024", "review")
    mda = DocumentContext("ACME", "FY2024", "MD&A")
    index.add(apply_context([
        make_chunk("deck-1", "All amounts are millions of US dollars.", doc_id="ACME_FY2024_Review.md",
                   source_locator="slide=1", title="ACME Group FY2024 Review"),
        make_chunk("deck-2", "Group revenue and net profit grew year on year.", doc_id="ACME_FY2024_Review.md",
                   source_locator="slide=7", title="ACME Group FY2024 Review")], deck)
        + apply_context([
            make_chunk("mda-1", "2024财年，香港营业收入同比下降7.4%，主要原因是入境旅客消费走弱，以及位于广东道的三家门店关闭。",
                       doc_id="ACME_FY2024_MDA.md", source_locator="heading=香港,para=1",
                       title="ACME集团 2024财年管理层讨论与分析")], mda))
    ranked = [h.chunk.chunk_id for h in index.search("Why did Hong Kong sales shrink during 2024?", top_k=3,
                                                     filters=SearchFilters())]
    assert ranked.index("mda-1") < ranked.index("deck-1"), ranked
