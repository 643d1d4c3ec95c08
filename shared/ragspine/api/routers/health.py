"""``GET /healthz``: liveness, without touching any backing store."""

from __future__ import annotations

from fastapi import APIRouter

import ragspine
from ragspine.api.deps import SettingsDep
from ragspine.api.schemas import HealthResponse
from ragspine.api.strict_json import StrictJsonRoute

router = APIRouter(tags=["health"], route_class=StrictJsonRoute)


@router.get("/healthz", response_model=HealthResponse, summary="Liveness probe")
def healthz(settings: SettingsDep) -> HealthResponse:
    """Report that the process is up and which backend it is wired to."""
    return HealthResponse(status="ok", backend=settings.backend.value, version=ragspine.__version__)
