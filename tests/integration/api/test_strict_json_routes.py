"""Every route of the service reads JSON bodies strictly: a body not in UTF-8 is refused on each, the page's too."""

from __future__ import annotations

import importlib
import json
import pkgutil
from typing import Any

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

import ragspine.api.routers
from ragspine.api.app import create_local_app
from ragspine.api.strict_json import StrictJsonRoute
from ragspine.settings import Settings

FEEDBACK = {"rating": "up", "reason": "helpful", "question": "q", "answer": "a"}
WIDE_ENCODINGS = ["utf-16", "utf-16-le", "utf-32"]


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_local_app(settings)


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return TestClient(app)


def _routers() -> dict[str, APIRouter]:
    found: dict[str, APIRouter] = {}
    for module in pkgutil.iter_modules(ragspine.api.routers.__path__):
        loaded = importlib.import_module(f"ragspine.api.routers.{module.name}")
        found.update({f"{module.name}.{name}": value for name, value in vars(loaded).items()
                      if isinstance(value, APIRouter)})
    return found


def _walk(routes: list[Any], prefix: str = "") -> dict[str, APIRoute]:
    """Every API route the app serves, by its full path (FastAPI keeps an included router's routes in it)."""
    found: dict[str, APIRoute] = {}
    for route in routes:
        if isinstance(route, APIRoute):
            found[prefix + route.path] = route
        elif hasattr(route, "original_router"):
            found.update(_walk(route.original_router.routes, prefix + route.include_context.prefix))
    return found


def test_every_router_and_every_route_of_the_app_parses_json_strictly(app: FastAPI) -> None:
    routers = _routers()
    assert {"page.router", "ask_stream.router", "ask.router", "webhook.router"} <= set(routers)
    assert [name for name, router in routers.items() if not issubclass(router.route_class, StrictJsonRoute)] == []
    routes = _walk(app.routes)
    assert {"/v1/feedback", "/v1/ask/stream", "/webhook/{path:webhook_path}"} <= set(routes)
    assert [path for path, route in routes.items() if not isinstance(route, StrictJsonRoute)] == []


def test_utf8_feedback_is_kept(client: TestClient) -> None:
    reply = client.post("/v1/feedback", content=json.dumps(FEEDBACK).encode(),
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 201, reply.text


@pytest.mark.parametrize("encoding", WIDE_ENCODINGS)
def test_feedback_that_is_not_utf8_is_refused(client: TestClient, encoding: str) -> None:
    reply = client.post("/v1/feedback", content=json.dumps(FEEDBACK).encode(encoding),
                        headers={"Content-Type": "application/json"})
    assert reply.status_code == 400, reply.text
    assert "UTF-8" in reply.text
    assert client.get("/v1/feedback").json() == []


@pytest.mark.parametrize("encoding", WIDE_ENCODINGS)
def test_a_streamed_question_that_is_not_utf8_is_refused_before_the_stream(client: TestClient, encoding: str) -> None:
    body = json.dumps({"question": "What is the refund policy?"}).encode(encoding)
    reply = client.post("/v1/ask/stream", content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400, reply.text[:300]
    assert "UTF-8" in reply.text
