"""Words of the documents' own rows and columns are not read as companies the domain does not know.

A question quoting a row label or a table's segment column capitalises it ("revenue from Apple",
where a row is ``Apple Inc.``); asking back which company "Apple" is would refuse a question the
documents answer. A name no row holds is still asked back, and so is a month inside a fiscal year
("as of September 30, 2018"), even where a row label holds the month. When no row is read, the
row's words still choose the figures offered back.
"""

from __future__ import annotations

from datetime import date

import pytest

from ragspine.facts.glossary import Glossary
from ragspine.facts.open_vocabulary import open_metric_code, with_open_terms
from ragspine.qa.clarify import AskBack, clarify_scope
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.language import Lang
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

ROWS = [
    "Apple Inc. (Apple)", "Huawei Technologies Co., Ltd. (Huawei)", "Network Software & Systems: Balances",
    "Outstanding at September 30", "商誉: 网络软件与系统", "のれん: 海外事業セグメント",
]


def glossary_with(labels: list[str]) -> Glossary:
    base = default_glossary()
    codes = [open_metric_code(label) for label in labels]
    return with_open_terms(base, [(code, base.home_entity) for code in codes if code])


GLOSSARY = glossary_with(ROWS)


@pytest.mark.parametrize("question", [
    "What is the percentage of revenue from Apple in 2017?",
    "What is the average percentage of revenue from Apple and Huawei in 2018?",
    "What was the Network revenue in 2019?",
    "2019年网络软件与系统的商誉是多少？",
    "2024年3月期の海外事業セグメントののれんは",
])
def test_a_word_of_a_documents_row_is_no_unknown_company(question: str) -> None:
    assert parse_slots(question, glossary=GLOSSARY).unknown_names == ()


@pytest.mark.parametrize(("question", "unknown"), [
    ("What is the percentage of revenue from Globex in 2017?", ("Globex",)),
    ("What is the revenue of Apple and Globex in 2018?", ("Globex",)),
    ("2019年华润的收入是多少？", ("华润",)),
    ("2024年3月期のトヨタの売上高は", ("トヨタ",)),
])
def test_a_name_no_row_holds_is_still_unknown(question: str, unknown: tuple[str, ...]) -> None:
    assert parse_slots(question, glossary=GLOSSARY).unknown_names == unknown


def test_a_month_inside_the_fiscal_year_stays_unknown_where_a_row_holds_it() -> None:
    parsed = parse_slots("What were the shares outstanding as of September 30, 2018?", glossary=GLOSSARY)
    assert "September" in parsed.unknown_names


def test_without_document_rows_a_capitalised_name_is_unknown() -> None:
    parsed = parse_slots("What is the percentage of revenue from Apple in 2017?", glossary=default_glossary())
    assert parsed.unknown_names == ("Apple",)


def test_a_rows_word_chooses_the_figures_offered_when_no_row_is_read() -> None:
    glossary = glossary_with(["Audit fees", "Audit-related fees", "Tax fees", "Headcount", "Revenue: Service"])
    intent = RuleIntentParser.from_file(glossary).parse("What were the Fees in 2019?")
    decision = clarify_scope(intent, glossary=glossary, today=date(2025, 9, 15), lang=Lang.EN)
    assert isinstance(decision, AskBack)
    offered = [option.label for option in decision.clarification.options]
    assert offered == ["audit fees", "audit-related fees", "tax fees"], offered
    assert "Fees" not in decision.clarification.question.partition("Choose")[0]  # no company asked about
