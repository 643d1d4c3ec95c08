"""Asking a question the two ways a user can: ``answer_question`` or ``POST /v1/ask``; both give the /v1/ask body.

A test module parametrizes its ``ask`` fixture with ``WAYS`` and builds it with ``asker``, so every
behaviour it checks holds for the engine and over HTTP alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi.testclient import TestClient

from ragspine.qa.answer import answer_question

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ragspine.bootstrap import Services

Ask = Callable[[str], dict[str, Any]]
WAYS = ["answer_question", "/v1/ask"]


def asker(way: str, services: Services, *, app: FastAPI | None = None) -> Ask:
    """Ask ``services`` directly (``answer_question``) or over HTTP through ``app`` (default: the local app)."""
    if way == "answer_question":
        def engine(question: str) -> dict[str, Any]:
            from ragspine.api.schemas import AskResponse

            return AskResponse.from_result(answer_question(question, qa=services.qa)).model_dump(mode="json")
        return engine
    if app is None:
        from ragspine.api.app import create_local_app

        app = create_local_app()
    client = TestClient(app)

    def http(question: str) -> dict[str, Any]:
        response = client.post("/v1/ask", json={"question": question})
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body
    return http
