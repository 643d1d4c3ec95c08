"""``Annotated`` dependency aliases shared by the routers."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from ragspine.bootstrap import Services, get_services
from ragspine.settings import Settings, get_settings


def services() -> Services:
    """The process-wide services (override with ``app.dependency_overrides`` in tests).

    Rebuilt once after this process stored facts under labels or companies the glossary does
    not name (a Gateway upload), so questions can name them without a restart.
    """
    from ragspine.facts.open_vocabulary import vocabulary_generation

    found = get_services()
    if found.vocabulary_generation != vocabulary_generation():
        get_services.cache_clear()
        found = get_services()
    return found


def settings() -> Settings:
    """The process-wide settings, without building any adapter."""
    return get_settings()


ServicesDep = Annotated[Services, Depends(services)]
SettingsDep = Annotated[Settings, Depends(settings)]
