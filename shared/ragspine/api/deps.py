"""``Annotated`` dependency aliases shared by the routers."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ragspine.api.blocking import run_blocking
from ragspine.bootstrap import Services, current_services
from ragspine.settings import Settings, get_settings


async def services(request: Request) -> Services:
    """The process-wide services (override with ``app.dependency_overrides`` in tests), rebuilt when
    stale (``current_services``: building them reads the backing stores, so ``run_blocking``)."""
    return await run_blocking(request, current_services)


def settings() -> Settings:
    """The process-wide settings, without building any adapter."""
    return get_settings()


ServicesDep = Annotated[Services, Depends(services)]
SettingsDep = Annotated[Settings, Depends(settings)]
