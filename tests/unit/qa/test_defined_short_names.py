"""A name that defines its short name ('Apple Inc. ("Apple")', トヨタ自動車株式会社（以下「当社」）) is read by it.

The documents name a line once in full with the short name they use afterwards; a question asking by
the short name, or by the full name without its definition, reads that row.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.glossary import Glossary
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.answer import QAComponents
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import answered, finance_domain, statement_fact, statement_qa_with_labels


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


DEFINERS_EN = st.sampled_from(['("{}")', "(“{}”)", '(the "{}")', '(hereinafter "{}")',
                               '(hereinafter referred to as "{}")', '( "{}" )'])
DEFINERS_CJK = st.sampled_from(["（以下「{}」）", "（以下「{}」という。）", "(以下、「{}」)", "（以下简称“{}”）",
                                "（以下称“{}”）", "（“{}”）", "（『{}』）"])


@given(definer=DEFINERS_EN, short=st.sampled_from(["Apple", "Term Loan", "Notes"]),
       ask=st.sampled_from(["What was {} in 2019?", "How much was the {} in 2019?", "Show {} for fiscal 2019"]))
def test_an_english_short_name_reads_the_row_defining_it(definer: str, short: str, ask: str) -> None:
    label = f"Full name of the line {definer.format(short)}"
    glossary = glossary_with([label, "Revenue from services"])
    code = open_metric_code(label)
    assert parse_slots(ask.format(short), glossary=glossary).metrics == (code,)
    assert parse_slots(ask.format("full name of the line"), glossary=glossary).metrics == (code,)


@given(definer=DEFINERS_CJK, short=st.sampled_from(["当社", "本公司", "本债券"]),
       ask=st.sampled_from(["2019年{}是多少？", "2019年の{}は？"]))
def test_a_chinese_or_japanese_short_name_reads_the_row_defining_it(definer: str, short: str, ask: str) -> None:
    label = f"トヨタ自動車株式会社{definer.format(short)}"
    glossary = glossary_with([label, "営業収益"])
    assert parse_slots(ask.format(short), glossary=glossary).metrics == (open_metric_code(label),)


def test_a_name_in_brackets_that_defines_nothing_adds_no_short_name() -> None:
    glossary = glossary_with(["Revenue (restated)"])
    assert parse_slots("What was restated in 2019?", glossary=glossary).metrics == ()


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    folder = finance_domain(tmp_path_factory.mktemp("finance") / "domain")
    facts = [statement_fact(f"label:{label}", "2024", value, source_locator=f"table=2,row={label},col=FY2024")
             for label, value in (('apple inc. ("apple")', 391.0), ("toyota motor corporation (“tmc”)", 45.1),
                                  ("トヨタ自動車株式会社(以下「当社」)", 45.0))]
    return statement_qa_with_labels(folder, facts)


@pytest.mark.parametrize(("question", "value", "row"), [
    ("What was Apple in 2024?", "391.0", 'row=apple inc. ("apple")'),
    ("What was TMC in 2024?", "45.1", "row=toyota motor corporation (“tmc”)"),
    ("2024年の当社は？", "45.0", "row=トヨタ自動車株式会社(以下「当社」)"),
])
def test_the_short_name_is_answered_from_the_row_that_defines_it(qa: QAComponents, question: str, value: str,
                                                                row: str) -> None:
    answer = answered(qa, question).answer
    assert f"{value} EUR_M" in answer
    assert row in answer
