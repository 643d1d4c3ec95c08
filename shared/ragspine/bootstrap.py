"""Composition root: settings in, wired services out. The only module naming concrete adapters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from ragspine.facts.glossary import Glossary, default_glossary
from ragspine.facts.ports import FactStore
from ragspine.settings import Backend, Settings, get_settings


@dataclass(frozen=True)
class Services:
    """Everything a request needs, built once per process."""

    settings: Settings
    facts: FactStore
    glossary: Glossary
    clock: Callable[[], date]

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


def build_services(settings: Settings) -> Services:
    """Wire the adapters of ``settings.backend`` into a ``Services`` bundle."""
    pinned = settings.today
    clock: Callable[[], date] = (lambda: pinned) if pinned else date.today
    return Services(settings=settings, facts=build_fact_store(settings), glossary=default_glossary(), clock=clock)


@lru_cache(maxsize=1)
def get_services() -> Services:
    """Process-wide services, built on first use (never at import: keeps cold starts short)."""
    return build_services(get_settings())
