"""A chat-completions server on a free loopback port, answering with a model function.

It speaks the subset of the OpenAI protocol ``OpenAICompatibleProvider`` uses: ``POST
/v1/chat/completions`` with ``messages`` in, ``choices[0].message.content`` out.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ragspine.qa.ports import NarrativeRetriever
from ragspine.settings import LLMProviderName, Settings

Model = Callable[[list[dict[str, str]]], str]


class ChatServer:
    """The running server: its base URL, every message list it was sent, and every request body."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.requests: list[list[dict[str, str]]] = []
        self.bodies: list[dict[str, object]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def setup(self) -> None:
                super().setup()  # headers and body go in two writes: without this, Nagle holds the body ~40 ms
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body["messages"])
                server.bodies.append(body)
                if self.path != "/v1/chat/completions":
                    self.send_error(404)
                    return
                text = server.model(body["messages"])
                payload = json.dumps({"id": "local", "model": body["model"], "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
                data = payload.encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                    pass

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's name)
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def serve(self) -> None:
        threading.Thread(target=self._httpd.serve_forever, name="chat-server", daemon=True).start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


@contextmanager
def chat_server(model: Model) -> Iterator[ChatServer]:
    """Start a server for ``model`` on a free loopback port; stop it on exit."""
    server = ChatServer(model)
    server.serve()
    try:
        yield server
    finally:
        server.close()


def ask_through_api(settings: Settings, server: ChatServer, question: str, *, retriever: NarrativeRetriever,
                    timeout_s: float = 10.0, **settings_update: object) -> dict[str, Any]:
    """``POST /v1/ask`` to a local app whose model is ``server`` and whose passages come from ``retriever``.

    The services are built from ``settings`` with the OpenAI-compatible provider pointed at the
    server (``settings_update`` adds to that, e.g. ``openai_structured_output``); the answer is the
    narrative route's JSON body.
    """
    from fastapi.testclient import TestClient

    from ragspine.api.app import create_local_app
    from ragspine.api.deps import services as services_dep
    from ragspine.bootstrap import build_services
    from ragspine.llm.openai_compat import OpenAICompatibleProvider

    wired = settings.model_copy(update={"llm_provider": LLMProviderName.OPENAI, "openai_base_url": server.base_url,
                                        "openai_model": "local-test", "llm_timeout_s": timeout_s, **settings_update})
    built = build_services(wired)
    try:
        assert isinstance(built.qa.llm, OpenAICompatibleProvider), "the services did not wire the loopback model"
        services = replace(built, qa=replace(built.qa, retriever=retriever, clock=lambda: date(2026, 11, 30)))
        app = create_local_app()
        app.dependency_overrides[services_dep] = lambda: services
        response = TestClient(app).post("/v1/ask", json={"question": question})
    finally:
        built.close()  # its stores' connections and worker threads, as a process end would
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["route"] == "narrative", body["route"]
    return body


def narrative_detail(body: dict[str, Any]) -> dict[str, Any]:
    """The answer body's ``narrative_detail`` object."""
    value = body["narrative_detail"]
    assert isinstance(value, dict)
    return value


def cited_sources(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The answer body's sources as (document, locator) pairs."""
    return [(s["doc"], s["locator"]) for s in body["sources"]]
