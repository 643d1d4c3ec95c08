"""Build ``QAComponents`` for tests: real policies and glossary, injectable store, retriever and model."""

from __future__ import annotations

from datetime import date

from ragspine.bootstrap import domain_dir
from ragspine.domain.files import INTENT
from ragspine.facts.ports import FactStore
from ragspine.llm.extractive import ExtractiveProvider
from ragspine.llm.ports import LLMProvider
from ragspine.qa.answer import QAComponents
from ragspine.qa.faq import FaqIndex
from ragspine.qa.intent import RuleIntentParser
from ragspine.qa.ports import NarrativeRetriever
from ragspine.qa.screening import ScreeningPolicy
from tests.support.glossary import default_glossary

TODAY = date(2026, 11, 30)


def make_qa(facts: FactStore, *, retriever: NarrativeRetriever | None = None, llm: LLMProvider | None = None,
            faq: FaqIndex | None = None, max_chars: int = 1000, today: date = TODAY) -> QAComponents:
    """The engine as the composition root wires it, with the given adapters."""
    domain = domain_dir()  # the configured folder, as bootstrap passes it
    glossary = default_glossary()
    return QAComponents(
        facts=facts, glossary=glossary, screening=ScreeningPolicy.default(glossary=glossary, domain=domain),
        intent=RuleIntentParser.from_file(glossary, domain / INTENT), llm=llm or ExtractiveProvider(),
        clock=lambda: today,
        faq=faq, retriever=retriever, max_chars=max_chars,
    )
