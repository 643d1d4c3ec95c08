"""The running app and the contract agree: every contract route exists in the app and no app route is undeclared.

Responses are checked against the contract in every Gateway HTTP test (tests/support/knowledge_api.py).
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from ragspine.api.app import create_local_app
from ragspine.knowledge.contract import PREFIX, tools
from ragspine.settings import Settings


def _walk(routes: list[Any], prefix: str = "") -> list[tuple[str, APIRoute]]:
    found: list[tuple[str, APIRoute]] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append((prefix + route.path_format, route))  # {documentId}, not {documentId:gateway_id}
        elif hasattr(route, "original_router"):  # FastAPI's included router
            found += _walk(route.original_router.routes, prefix + route.include_context.prefix)
    return found


def _app_routes(settings: Settings) -> set[tuple[str, str]]:
    app = create_local_app(settings)
    return {(method, path) for path, route in _walk(app.routes) if path.startswith(PREFIX) for method in route.methods}


def test_every_contract_route_is_served_and_nothing_else(settings: Settings) -> None:
    contract = {(t.method, t.path) for t in tools()}
    served = _app_routes(settings)
    assert contract - served == set(), "declared in the contract, missing in the app"
    assert served - contract == set(), "served by the app, missing in the contract"


def test_each_route_handler_is_named_after_its_tool(settings: Settings) -> None:
    app = create_local_app(settings)
    by_route = {(next(iter(r.methods)), path): r.name for path, r in _walk(app.routes) if path.startswith(PREFIX)}
    for t in tools():
        assert by_route[(t.method, t.path)] == t.name


def test_the_running_app_answers_every_contract_route_through_the_gateway(settings: Settings) -> None:
    with TestClient(create_local_app(settings)) as client:
        for t in tools():
            path = re.sub(r"{[^}]+}", "x-1", t.path)
            response = client.request(t.method, path, json={}, follow_redirects=False)
            body = response.json()
            # Not the framework's "no route" nor "method not allowed": the Gateway itself refused the call.
            assert response.status_code in (400, 401, 404), (t.name, response.status_code)
            assert set(body) == {"data", "meta"} and "no route" not in body["meta"]["error"]["message"], t.name
