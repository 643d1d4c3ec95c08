"""Rows named in one phrase around a shared head word are each asked, never one row for the phrase.

"The domestic and international discount rates" names the rows ``Domestic discount rate`` and
``International discount rate``; "国内和国际的折现率" and "国内及び海外の割引率" name them in
Chinese and Japanese. Each row is read with the head word written once after the last modifier,
and each is answered (or computed over, when the question asks a difference).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.glossary import Glossary
from ragspine.facts.model import Fact
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.answer import QAComponents
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary
from tests.unit.qa.derived.statement_set import answered, finance_domain, statement_fact, statement_qa_with_labels

EN_ROWS = {("domestic", "international", "discount rate"), ("high", "low", "price"),
           ("operating", "finance", "lease liability"), ("basic", "diluted", "earnings per share")}


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


GLOSSARY = glossary_with([
    *(f"{modifier} {head}".capitalize() for first, second, head in EN_ROWS for modifier in (first, second)),
    "European discount rate", "国内折现率", "国际折现率", "欧洲折现率", "国内の割引率", "海外の割引率", "Interest income", "Other income",
    "Interest and other income", "Foreign taxes"])
ASKS = st.sampled_from(["What were the {} in 2019?", "What is the {} for 2019?", "Show the {} in fiscal 2019",
                        "WHAT WERE THE {} IN 2019?"])


def _plural(head: str) -> str:
    return head if head.endswith("share") else f"{head}s"


@given(rows=st.sampled_from(sorted(EN_ROWS)), joiner=st.sampled_from([" and ", " & ", ", and ", " or ", " vs ", " versus "]),
       plural=st.booleans(), ask=ASKS)
def test_two_english_rows_sharing_a_head_word_are_each_asked(rows: tuple[str, str, str], joiner: str, plural: bool,
                                                             ask: str) -> None:
    first, second, head = rows
    phrase = f"the {first}{joiner}{second} {_plural(head) if plural else head}"
    parsed = parse_slots(ask.format(phrase.upper() if ask.isupper() else phrase), glossary=GLOSSARY)
    assert parsed.metrics == (f"label:{first} {head}", f"label:{second} {head}")


@given(joiner=st.sampled_from(["和", "与", "及", "以及", "、"]), particle=st.sampled_from(["", "的"]),
       ask=st.sampled_from(["2019年{}是多少？", "{}在2019年是多少", "请问2019年的{}"]))
def test_two_chinese_rows_sharing_a_head_word_are_each_asked(joiner: str, particle: str, ask: str) -> None:
    parsed = parse_slots(ask.format(f"国内{joiner}国际{particle}折现率"), glossary=GLOSSARY)
    assert parsed.metrics == ("label:国内折现率", "label:国际折现率")


@given(joiner=st.sampled_from(["及び", "および", "と", "や", "、"]),
       ask=st.sampled_from(["2019年の{}は？", "2019年度の{}を教えてください", "{}はいくらでしたか（2019年）"]))
def test_two_japanese_rows_sharing_a_head_word_are_each_asked(joiner: str, ask: str) -> None:
    parsed = parse_slots(ask.format(f"国内{joiner}海外の割引率"), glossary=GLOSSARY)
    assert parsed.metrics == ("label:国内の割引率", "label:海外の割引率")
    assert not parsed.unknown_names


@pytest.mark.parametrize("question", [
    "What were the domestic, European and international discount rates in 2019?",
    "What were the domestic, European, and international discount rates in 2019?",
])
def test_three_rows_sharing_a_head_word_are_each_asked(question: str) -> None:
    assert parse_slots(question, glossary=GLOSSARY).metrics == (
        "label:domestic discount rate", "label:european discount rate", "label:international discount rate")


def test_three_chinese_rows_sharing_a_head_word_are_each_asked() -> None:
    assert parse_slots("2019年国内、欧洲和国际的折现率", glossary=GLOSSARY).metrics == (
        "label:国内折现率", "label:欧洲折现率", "label:国际折现率")


def test_a_phrase_that_is_itself_a_rows_name_is_that_row() -> None:
    parsed = parse_slots("What was the interest and other income in 2019?", glossary=GLOSSARY)
    assert parsed.metrics == ("label:interest and other income",)


def test_a_modifier_whose_row_the_documents_do_not_name_reads_no_row_of_its_own() -> None:
    parsed = parse_slots("What were the domestic and foreign taxes in 2019?", glossary=GLOSSARY)
    assert parsed.metrics == ("label:foreign taxes",)


def fact(label: str, value: float, unit: str) -> Fact:
    return statement_fact(f"label:{label}", "2024", value, unit=unit, source_locator=f"table=1,row={label},col=FY2024")


@pytest.fixture(scope="module")
def qa(tmp_path_factory: pytest.TempPathFactory) -> QAComponents:
    folder = finance_domain(tmp_path_factory.mktemp("finance") / "domain")
    facts = [fact("domestic discount rate", 3.5, "PCT"), fact("international discount rate", 4.25, "PCT"),
             fact("high price", 52.0, "EUR"), fact("low price", 40.0, "EUR"),
             fact("国内折现率", 3.1, "PCT"), fact("国际折现率", 4.2, "PCT"),
             fact("国内の割引率", 1.1, "PCT"), fact("海外の割引率", 2.2, "PCT")]
    return statement_qa_with_labels(folder, facts)


@pytest.mark.parametrize(("question", "figures"), [
    ("What were the domestic and international discount rates in 2024?",
     [("row=domestic discount rate", "3.5"), ("row=international discount rate", "4.25")]),
    ("2024年国内和国际的折现率是多少？", [("row=国内折现率", "3.1"), ("row=国际折现率", "4.2")]),
    ("2024年の国内及び海外の割引率は？", [("row=国内の割引率", "1.1"), ("row=海外の割引率", "2.2")]),
])
def test_each_row_of_the_phrase_is_answered_with_its_source(qa: QAComponents, question: str,
                                                            figures: list[tuple[str, str]]) -> None:
    result = answered(qa, question)
    for locator, value in figures:
        line = next(line for line in result.answer.splitlines() if locator in line)
        assert f"{value} PCT" in line


def test_a_difference_asked_over_the_phrase_is_computed_from_both_rows(qa: QAComponents) -> None:
    result = answered(qa, "What is the difference between the high and low price in 2024?")
    first = result.answer.splitlines()[0]
    assert "12.0 EUR" in first
    assert "row=high price" in first and "row=low price" in first


def test_a_ratio_asked_over_the_phrase_is_computed_from_both_rows(qa: QAComponents) -> None:
    first = answered(qa, "What is the ratio of the high to low price in 2024?").answer.splitlines()[0]
    assert "1.30" in first
    assert "row=high price" in first and "row=low price" in first


@pytest.mark.parametrize(("question", "mean", "rows"), [
    ("What is the average of the domestic and international discount rates in 2024?", "3.875 PCT",
     ("row=domestic discount rate", "row=international discount rate")),
    ("What is the average high and low price in 2024?", "46 EUR", ("row=high price", "row=low price")),
    ("2024年国内和国际的折现率的平均值是多少？", "3.65 PCT", ("row=国内折现率", "row=国际折现率")),
])
def test_an_average_asked_over_the_phrase_in_one_year_is_the_mean_of_the_rows(qa: QAComponents, question: str,
                                                                            mean: str, rows: tuple[str, str]) -> None:
    first = answered(qa, question).answer.splitlines()[0]
    assert mean in first
    assert all(row in first for row in rows)
