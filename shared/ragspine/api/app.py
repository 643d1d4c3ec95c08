"""``create_app``: one FastAPI app per Lambda (its own routers) or all routers locally."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

import ragspine
from ragspine.api.body_guard import BodyLimitMiddleware
from ragspine.api.body_limits import BodyLimits
from ragspine.api.envelope import ErrorEnvelope
from ragspine.api.errors import install_error_handlers
from ragspine.api.header_auth import guards_for
from ragspine.api.openapi_contract import install_openapi
from ragspine.ingestion.full_collections import freeze_startup_heap
from ragspine.settings import Settings, get_settings

_ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorEnvelope, "description": "Invalid input (KNOWLEDGE_INVALID_INPUT)"},
    413: {"model": ErrorEnvelope, "description": "Body too large"},
    500: {"model": ErrorEnvelope, "description": "Internal error (opaque message, request id)"},
    503: {"model": ErrorEnvelope, "description": "A backing service is unavailable; retryable"},
}


@asynccontextmanager
async def _local_lifespan(_app: FastAPI) -> AsyncIterator[None]:
    # The routes share the process with the ingestion workers: a full collection after a step must
    # not walk the 100,000 objects built at startup with the interpreter lock held (full_collections).
    freeze_startup_heap()
    yield


def create_app(*, routers: Sequence[APIRouter], settings: Settings | None = None, local: bool = False) -> FastAPI:
    """Build an app mounting ``routers`` with the shared error handling.

    Args:
        local: the embedded service (routes and ingestion workers in one process): at startup its
            objects are kept out of later garbage collections.
    """
    settings = settings or get_settings()
    app = FastAPI(
        title="RAGSpine Serverless",
        version=ragspine.__version__,
        description="Enterprise Q&A that answers numbers from a fact table, each with its source.",
        responses=_ERROR_RESPONSES,
        lifespan=_local_lifespan if local else None,
    )
    app.state.body_limits = BodyLimits.from_settings(settings)
    for router in routers:
        app.include_router(router)
    app.state.header_guards = guards_for(getattr(route, "path", "") for router in routers for route in router.routes)
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware)  # outermost: a body over its limit never reaches a route
    install_openapi(app, settings)
    return app


def create_local_app(settings: Settings | None = None) -> FastAPI:
    """The embedded default: every router in one local service."""
    from ragspine.api.routers import ask, dify, health, knowledge, n8n, n8n_executions, page, search, webhook, workflows

    app = create_app(routers=[health.router, ask.router, search.router, workflows.router, dify.router, n8n.router,
                              n8n_executions.router, webhook.router], settings=settings, local=True)
    knowledge.install(app, settings or get_settings())
    page.install(app)
    return app
