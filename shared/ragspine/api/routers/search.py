"""``POST /v1/search``: the narrative index's hits, with document, locator, library and score."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from ragspine.api.deps import ServicesDep
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.retrieval.search import run_search

router = APIRouter(prefix="/v1", tags=["search"], route_class=StrictJsonRoute)


class SearchRequest(BaseModel):
    """A search over the narrative index (RESTRICTED passages are never returned)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"query": "香港收入为什么下降"}]})

    query: str = Field(min_length=1, max_length=2000)
    library: list[str] = Field(default_factory=list, max_length=10, description="Only these libraries.")
    top_k: StrictInt = Field(default=5, ge=1, le=20, description="How many hits (1-20); a JSON integer.")


@router.post("/search", summary="Search the narrative index")
def search(body: SearchRequest, services: ServicesDep) -> dict[str, Any]:
    """Hits best first: chunk id, document, locator, library, score and text."""
    return run_search(services, body.query, libraries=tuple(body.library), top_k=body.top_k).to_dict()
