"""Composition root: settings in, wired services out. The only module naming concrete adapters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from ragspine.facts.glossary import Glossary, default_glossary
from ragspine.facts.ports import FactStore
from ragspine.llm.ports import LLMProvider
from ragspine.qa.answer import QAComponents
from ragspine.qa.faq import FaqIndex
from ragspine.settings import Backend, LLMProviderName, Settings, get_settings


@dataclass(frozen=True)
class Services:
    """Everything a request needs, built once per process."""

    settings: Settings
    facts: FactStore
    glossary: Glossary
    clock: Callable[[], date]
    qa: QAComponents

    def today(self) -> date:
        """The current date as the services see it (pinned by RAGSPINE_TODAY in tests)."""
        return self.clock()


def build_fact_store(settings: Settings) -> FactStore:
    """The fact store the backend setting asks for."""
    if settings.backend is Backend.AWS:
        from ragspine.aws.dynamo_facts import DynamoFactStore

        assert settings.facts_table is not None  # enforced by Settings validation
        return DynamoFactStore(settings.facts_table, region=settings.aws_region,
                               endpoint_url=settings.dynamodb_endpoint_url)
    from ragspine.facts.sqlite_store import SqliteFactStore

    return SqliteFactStore(settings.facts_db_path)


def build_llm(settings: Settings) -> LLMProvider:
    """The language model the settings name (the offline extractive one by default)."""
    if settings.llm_provider is LLMProviderName.BEDROCK:
        from ragspine.aws.bedrock_llm import BedrockConverseProvider

        return BedrockConverseProvider(settings.bedrock_model_id, region=settings.aws_region,
                                       timeout_s=settings.llm_timeout_s)
    if settings.llm_provider is LLMProviderName.OPENAI:
        from ragspine.llm.openai_compat import OpenAICompatibleProvider

        assert settings.openai_base_url is not None  # enforced by Settings validation
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
        return OpenAICompatibleProvider(settings.openai_base_url, key, settings.openai_model,
                                        timeout_s=settings.llm_timeout_s)
    from ragspine.llm.extractive import ExtractiveProvider

    return ExtractiveProvider()


def build_faq(settings: Settings) -> FaqIndex | None:
    """The FAQ index (the sample corpus's faq.yaml unless RAGSPINE_FAQ_PATH says otherwise)."""
    if not settings.faq_enabled:
        return None
    from ragspine.demo import sample_dir

    return FaqIndex.from_file(settings.faq_path or sample_dir() / "faq.yaml", threshold=settings.faq_threshold)


def build_services(settings: Settings) -> Services:
    """Wire the adapters of ``settings.backend`` into a ``Services`` bundle."""
    from ragspine.qa.intent import RuleIntentParser
    from ragspine.qa.screening import ScreeningPolicy

    pinned = settings.today
    clock: Callable[[], date] = (lambda: pinned) if pinned else date.today
    glossary = default_glossary()
    facts = build_fact_store(settings)
    qa = QAComponents(
        facts=facts, glossary=glossary, screening=ScreeningPolicy.default(glossary=glossary),
        intent=RuleIntentParser.from_file(glossary), llm=build_llm(settings), clock=clock,
        faq=build_faq(settings), retriever=None, max_chars=settings.max_question_chars,
    )
    return Services(settings=settings, facts=facts, glossary=glossary, clock=clock, qa=qa)


@lru_cache(maxsize=1)
def get_services() -> Services:
    """Process-wide services, built on first use (never at import: keeps cold starts short)."""
    return build_services(get_settings())
