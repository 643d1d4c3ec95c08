"""Which documents a question names by company and fiscal year (``retrieval.targeting``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ragspine.retrieval.targeting import DocumentRef, company_words, named_documents

FILINGS = [DocumentRef("WALMART_2018_10K.pdf", "Walmart Inc.", "FY2018"),
           DocumentRef("WALMART_2020_10K.pdf", "Walmart Inc.", "FY2020"),
           DocumentRef("COCACOLA_2017_10K.pdf", "Cocacola", "FY2017"),
           DocumentRef("BOEING_2022_10K.pdf", "THE Boeing Company", "FY2022"),
           DocumentRef("3M_2018_10K.pdf", "3M", "FY2018"),
           DocumentRef("3M_2022_10K.pdf", "3M", "FY2022"),
           DocumentRef("LM_2020_10K.pdf", "Lockheed Martin Corporation", "FY2020"),
           DocumentRef("LM_2022_10K.pdf", "Lockheed Martin Corporation", "FY2022"),
           DocumentRef("notes.md", None, None)]


def test_company_and_year_name_one_filing() -> None:
    assert named_documents("What is FY2018 days payable outstanding (DPO) for Walmart?", FILINGS) == (
        "WALMART_2018_10K.pdf",)
    assert named_documents("What is the FY2018 capital expenditure amount for 3M?", FILINGS) == ("3M_2018_10K.pdf",)


def test_a_span_of_years_names_the_latest_filing_that_covers_it() -> None:
    question = "What is Lockheed Martin's 2 year total revenue CAGR from FY2020 to FY2022?"
    assert named_documents(question, FILINGS) == ("LM_2022_10K.pdf",)


def test_a_company_without_a_year_of_its_filings_names_none() -> None:
    # the company alone is no target: its documents may be all but the one that answers
    assert named_documents("Is Walmart a capital-intensive business?", FILINGS) == ()
    assert named_documents("Walmart in FY2019", FILINGS) == ()


def test_a_name_written_apart_matches_one_written_together_and_suffixes_are_ignored() -> None:
    assert named_documents("What is the FY2017 return on assets (ROA) for Coca Cola?", FILINGS) == (
        "COCACOLA_2017_10K.pdf",)
    assert named_documents("How does Boeing's effective tax rate in FY2022 compare?", FILINGS) == (
        "BOEING_2022_10K.pdf",)


def test_no_known_company_names_nothing() -> None:
    assert named_documents("What is the FY2018 DPO of Costco?", FILINGS) == ()
    assert named_documents("", FILINGS) == ()
    # "3m" inside another token is not the company 3M
    assert named_documents("a 13m increase in 2018", FILINGS) == ()


def test_company_words_drop_legal_suffixes() -> None:
    assert company_words("The Kraft Heinz Company") == ("kraft", "heinz")
    assert company_words("American Water Works Company, Inc.") == ("american", "water", "works")
    assert company_words("The Company") == ("the", "company")  # nothing but suffixes: kept as written


@given(st.sampled_from(["lockheed martin", "Lockheed Martin", "LOCKHEED MARTIN", "Lockheed Martin's",
                        "lockheed-martin", "Lockheed  Martin Corporation", "LockheedMartin"]),
       st.sampled_from(["FY2020", "fiscal 2020", "2020", "(2020)"]))
def test_the_name_and_year_match_whatever_their_case_and_punctuation(name: str, year: str) -> None:
    assert named_documents(f"Net sales of {name} in {year}?", FILINGS) == ("LM_2020_10K.pdf",)
