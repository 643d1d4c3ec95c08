"""An acronym the question writes in capitals is read only as itself, never fuzzed into another measure's.

"EBITA" and "EBITDA" are one letter apart and different measures: asked for the adjusted EBITA
margin of a company where the glossary knows only the adjusted EBITDA margin, the answer must not compute the
EBITDA one. Two of its letters swapped ("EBIDTA") is still read as the typo it is. Through
``answer_question`` on a domain folder fresh from ``domain init`` with the finance pack and a
domain's own metric.
"""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.domain.files import GLOSSARY
from ragspine.qa.answer import QAComponents, answer_question
from tests.unit.qa.derived.statement_set import finance_domain, statement_fact, statement_qa

# adjusted EBITDA 340 on revenue 2000: an adjusted EBITDA margin of 17 %
FIGURES = {"ADJUSTED_EBITDA": 340.0, "REVENUE": 2000.0}
OWN_METRICS = {
    "ADJUSTED_EBITDA": {"unit": "EUR_M", "additive": True, "names": {"en": "adjusted EBITDA"},
                        "aliases": ["adjusted EBITDA"]},
    "ADJUSTED_EBITDA_MARGIN": {"unit": "PCT", "formula": "ADJUSTED_EBITDA / REVENUE",
                               "names": {"en": "adjusted EBITDA margin"}, "aliases": ["adjusted EBITDA margin"]},
}


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    folder = finance_domain(tmp_path_factory.mktemp("acronyms") / "domain")
    glossary = yaml.safe_load((folder / GLOSSARY).read_text(encoding="utf-8"))
    glossary["metrics"].update(OWN_METRICS)
    (folder / GLOSSARY).write_text(yaml.safe_dump(glossary, allow_unicode=True), encoding="utf-8")
    return statement_qa(folder, [statement_fact(metric, "2024", value) for metric, value in FIGURES.items()])


def test_the_measure_named_by_its_own_acronym_is_computed(qa: QAComponents) -> None:
    result = answer_question("What was Example Group's adjusted EBITDA margin in FY2024?", qa=qa)
    assert "adjusted EBITDA margin (ADJUSTED_EBITDA_MARGIN): 17.00 PCT" in result.answer, result.answer


def test_an_acronym_one_letter_shorter_is_not_read_as_it(qa: QAComponents) -> None:
    result = answer_question("What was Example Group's adjusted EBITA margin in FY2024?", qa=qa)
    assert "17.00 PCT" not in result.answer and "read 'adjusted ebita margin'" not in result.answer, result.answer


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(position=st.integers(min_value=0, max_value=5), letter=st.sampled_from("ABCEFGHKLMNPRSUVWXYZ"),
       added=st.booleans())
def test_no_letter_added_to_or_dropped_from_an_acronym_reads_it(qa: QAComponents, position: int, letter: str,
                                                                 added: bool) -> None:
    typed = "EBITDA"[:position] + (letter + "EBITDA"[position:] if added else "EBITDA"[position + 1:])
    result = answer_question(f"What was Example Group's adjusted {typed} margin in FY2024?", qa=qa)
    assert "17.00 PCT" not in result.answer, (typed, result.answer)



def test_an_acronym_with_two_letters_swapped_is_still_a_typo(qa: QAComponents) -> None:
    result = answer_question("What was Example Group's adjusted EBIDTA margin in FY2024?", qa=qa)
    assert "17.00 PCT" in result.answer and "read 'adjusted ebidta margin'" in result.answer, result.answer
