"""A company in a question the way people write it, read as the company its documents state."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.domain.files import GLOSSARY
from ragspine.domain.glossary_file import read_glossary
from ragspine.facts.glossary import Glossary
from ragspine.facts.open_vocabulary import open_entity_code, with_open_terms
from ragspine.qa.company_spelling import compact, with_company_names
from tests.unit.qa.derived.statement_set import finance_domain


@pytest.fixture(scope="module")
def glossary(tmp_path_factory: pytest.TempPathFactory) -> Glossary:
    folder = finance_domain(tmp_path_factory.mktemp("domain") / "domain")
    companies = ["The Boeing Company", "KRAFTHEINZ", "COCACOLA", "American Water Works Company, Inc.", "3M"]
    codes = [("REVENUE", str(open_entity_code(name))) for name in companies]
    return with_open_terms(read_glossary(folder / GLOSSARY), codes)


@pytest.mark.parametrize("written, read", [
    ("What is Boeing's FY2018 net PP&E?", "What is the boeing company's FY2018 net PP&E?"),
    ("Kraft Heinz inventory turnover FY2019", "kraftheinz inventory turnover FY2019"),
    ("What is the FY2017 ROA for Coca Cola?", "What is the FY2017 ROA for cocacola?"),
    ("ROA for Coca-Cola in FY2017", "ROA for cocacola in FY2017"),
    ("How much did American Water Works pay out?", "How much did american water works company pay out?"),
    ("3M capex FY2018", "3m capex FY2018"),
])
def test_the_forms_people_write_are_the_documents_company(glossary: Glossary, written: str, read: str) -> None:
    assert with_company_names(written, glossary) == read


def test_words_of_no_document_company_stay_as_written(glossary: Glossary) -> None:
    question = "We need the FY2018 net PP&E of Airbus. Round your answer."
    assert with_company_names(question, glossary) == question


@given(st.sampled_from(["Coca-Cola", "Coca Cola", "coca cola", "COCA-COLA", "The Coca-Cola Company",
                        "Coca-Cola Inc.", "Coca-Cola's"]))
def test_one_compact_form_for_every_spelling(written: str) -> None:
    assert compact(written) == "cocacola"
