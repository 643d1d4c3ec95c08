"""A small statement set for derived-figure tests: a fresh domain folder with the finance pack, and its facts."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from ragspine.domain.files import GLOSSARY, INTENT
from ragspine.domain.glossary_file import read_glossary
from ragspine.domain.profile import screening_mapping
from ragspine.domain.starter import init_domain
from ragspine.facts.model import Fact
from ragspine.llm.extractive import ExtractiveProvider
from ragspine.qa.answer import REJECTED, QAComponents, answer_question
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.result import AnswerResult
from ragspine.qa.screening import ScreeningPolicy
from tests.fakes.facts import InMemoryFactStore

DOC = "Example_FY2024_Statements.md"
# FY2024 and FY2023 consolidated figures of the home entity, EUR millions (the starter keeps money in EUR_M).
STATED = {
    "2024": {"REVENUE": 2000, "COST_OF_SALES": 1200, "GROSS_PROFIT": 800, "OPERATING_INCOME": 150,
             "NET_INCOME": 100, "NET_INCOME_OWNERS": 90, "TOTAL_ASSETS": 2500, "CURRENT_ASSETS": 900,
             "INVENTORIES": 200, "CURRENT_LIABILITIES": 600, "TOTAL_LIABILITIES": 1250, "NET_ASSETS": 1250,
             "OPERATING_CASH_FLOW": 220, "CAPEX": 80},
    "2023": {"REVENUE": 1800, "OPERATING_INCOME": 126, "NET_INCOME": 81},
    "2021": {"REVENUE": 1500},
    "2022": {"REVENUE": 1650},
}


def statement_fact(metric: str, period: str, value: float, unit: str = "EUR_M", **extra: object) -> Fact:
    """One stated figure of the set, located at its row and column."""
    fields: dict[str, object] = dict(metric_code=metric, entity="EXAMPLE_GROUP", geography="", channel="TOTAL",
                                     period_type="FY", period=period, value=value, unit=unit, source_doc_id=DOC,
                                     source_locator=f"table=1,row={metric},col=FY{period}")
    fields.update(extra)
    return Fact(**fields)  # type: ignore[arg-type]


def statement_facts(**replace: Fact) -> list[Fact]:
    """Every stated figure; ``replace`` swaps the fact of a metric of FY2024 (``OPERATING_INCOME=...``)."""
    facts = [statement_fact(m, p, v) for p, items in STATED.items() for m, v in items.items()]
    return [replace.get(f.metric_code, f) if f.period == "2024" else f for f in facts] + \
        [f for m, f in replace.items() if m not in STATED["2024"]]


def finance_domain(folder: Path) -> Path:
    """``ragspine domain init`` plus ``include: [finance]``."""
    init_domain(folder)
    domain = folder / "domain.yaml"
    domain.write_text(domain.read_text(encoding="utf-8") + "include: [finance]\n", encoding="utf-8")
    return folder


def statement_qa(folder: Path, facts: list[Fact], today: date = date(2025, 9, 15)) -> QAComponents:
    """The engine wired on the finance domain folder and an in-memory fact store holding ``facts``."""
    glossary = read_glossary(folder / GLOSSARY)
    return QAComponents(
        facts=InMemoryFactStore(facts), glossary=glossary,
        screening=ScreeningPolicy.from_mapping(screening_mapping(folder), glossary=glossary),
        intent=RuleIntentParser.from_file(glossary, folder / INTENT), llm=ExtractiveProvider(),
        clock=lambda: today)


def statement_qa_with_labels(folder: Path, facts: list[Fact]) -> QAComponents:
    """``statement_qa`` whose glossary also knows the facts' own row labels (``label:…``), as ingestion teaches it."""
    from dataclasses import replace

    from ragspine.facts.open_vocabulary import with_open_terms

    qa = statement_qa(folder, facts)
    glossary = with_open_terms(qa.glossary, {(f.metric_code, f.entity) for f in facts})
    return replace(qa, glossary=glossary, intent=RuleIntentParser.from_file(glossary, folder / INTENT),
                   screening=ScreeningPolicy.from_mapping(screening_mapping(folder), glossary=glossary))




def answered(qa: QAComponents, question: str) -> AnswerResult:
    """``question``'s answer, which the provenance check did not refuse (a computed figure cites its inputs)."""
    result = answer_question(question, qa=qa)
    assert result.answer not in REJECTED.values(), result.answer
    return result
