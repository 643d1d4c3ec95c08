"""The published OpenAPI document, shaped to say exactly what the routes do.

Validation errors are answered 400 (never FastAPI's default 422); the webhook operations are
published only for the methods this deployment accepts (RAGSPINE_WORKFLOW_WEBHOOK_METHODS; the
others answer 405 with ``Allow``); and a question or search query may be as long as this
deployment allows (RAGSPINE_MAX_QUESTION_CHARS), not the models' hard ceiling.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from ragspine.settings import Settings

WEBHOOK_PATH = "/webhook/{path}"
_FASTAPI_422 = "Validation Error"
# (component, property) whose length the configured question limit bounds.
_QUESTION_FIELDS = (("AskRequest", "question"), ("SearchRequest", "query"))


def _drop_default_422(schema: dict[str, Any]) -> None:
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            responses = operation.get("responses", {})
            if responses.get("422", {}).get("description") == _FASTAPI_422:
                del responses["422"]


def _publish_webhook_methods(schema: dict[str, Any], methods: frozenset[str]) -> None:
    operations = schema.get("paths", {}).get(WEBHOOK_PATH)
    if operations is None:
        return
    for method in [m for m in operations if m.upper() not in methods]:
        del operations[method]
    if not operations:
        del schema["paths"][WEBHOOK_PATH]


def _bound_questions(schema: dict[str, Any], limit: int) -> None:
    components = schema.get("components", {}).get("schemas", {})
    for name, prop in _QUESTION_FIELDS:
        field = components.get(name, {}).get("properties", {}).get(prop)
        if field is not None:
            field["maxLength"] = min(int(field.get("maxLength", limit)), limit)


def install_openapi(app: FastAPI, settings: Settings) -> None:
    """Replace ``app.openapi`` with a cached builder applying the rules above."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            _drop_default_422(schema)
            _publish_webhook_methods(schema, settings.workflow_webhook_method_set)
            _bound_questions(schema, settings.max_question_chars)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
