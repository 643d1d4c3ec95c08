"""The deployed page signs in before it asks: authorization code with PKCE against an identity provider.

A loopback server plays the stack: its page routes call the page Lambda's handler (the files and
``/ui/config.json`` as deployed), its ``/authorize`` and ``/token`` are an OpenID Connect provider
that checks the PKCE verifier, and its ``/v1/ask`` refuses a call without that provider's token
(as the HTTP API's JWT authorizer does) and forwards the others to the real local service.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import importlib
import json
import secrets
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.browser.conftest import Service

expect = pytest.importorskip("playwright.sync_api").expect
page_lambda = importlib.import_module("functions.page.app")


@dataclass
class Stack:
    """What the loopback stack saw."""

    url: str
    service: Service
    context: Any
    challenges: dict[str, str] = field(default_factory=dict)  # code -> PKCE challenge
    issued: set[str] = field(default_factory=set)
    verified: list[str] = field(default_factory=list)
    asked_with: list[str | None] = field(default_factory=list)


def _handler(stack: Stack) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/authorize":
                query = dict(urllib.parse.parse_qsl(url.query))
                assert query["response_type"] == "code" and query["code_challenge_method"] == "S256"
                code = secrets.token_urlsafe(8)
                stack.challenges[code] = query["code_challenge"]
                back = f"{query['redirect_uri']}?{urllib.parse.urlencode({'code': code, 'state': query['state']})}"
                self._send(302, b"", {"Location": back})
                return
            event = {"version": "1.0", "path": url.path, "httpMethod": "GET", "body": None,
                     "headers": {"Host": self.headers["Host"], "X-Forwarded-Proto": "http"}}
            response = page_lambda.handler(event, stack.context)
            self._send(response["statusCode"], response["body"].encode(), response["headers"])

        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path == "/token":
                form = dict(urllib.parse.parse_qsl(body.decode()))
                challenge = stack.challenges.pop(form.get("code", ""), None)
                digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
                if challenge is None or base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != challenge:
                    self._send(400, b'{"error": "invalid_grant"}', {"Content-Type": "application/json"})
                    return
                token = secrets.token_urlsafe(16)
                stack.issued.add(token)
                stack.verified.append(form["client_id"])
                reply = {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
                self._send(200, json.dumps(reply).encode(), {"Content-Type": "application/json"})
                return
            authorization = self.headers.get("Authorization")
            stack.asked_with.append(authorization)
            if self.path != "/v1/ask" or authorization not in {f"Bearer {t}" for t in stack.issued}:
                self._send(401, b'{"message": "Unauthorized"}', {"Content-Type": "application/json"})
                return
            answer = httpx.post(f"{stack.service.url}/v1/ask", content=body, timeout=60,
                                headers={"Content-Type": "application/json"})
            self._send(answer.status_code, answer.content, {"Content-Type": "application/json"})

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@pytest.fixture
def stack(acme: Service, lambda_context: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    built = Stack(url, acme, lambda_context)
    server.RequestHandlerClass = _handler(built)
    monkeypatch.setenv("RAGSPINE_PAGE_CLIENT_ID", "ask-page")
    monkeypatch.setenv("RAGSPINE_PAGE_AUTHORIZE_URL", f"{url}/authorize")
    monkeypatch.setenv("RAGSPINE_PAGE_EXCHANGE_URL", f"{url}/token")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield built
    server.shutdown()


def test_the_deployed_page_signs_in_with_pkce_and_asks_with_the_token(stack: Stack, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(stack.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    # back from the provider: the code was redeemed with its verifier, and the URL is clean again
    assert stack.verified == ["ask-page"] and page.url == stack.url + "/"
    page.fill("#question", "What was ACME_CN revenue in 2024Q3?")
    page.click("#send")
    expect(page.locator("#answers > li")).to_have_count(1, timeout=60_000)
    expect(page.locator("#answers > li button.chip.kind-fact")).to_have_attribute("data-value", "322")
    assert len(stack.asked_with) == 1 and stack.asked_with[0] == f"Bearer {next(iter(stack.issued))}"
    # a reload keeps the tab's token: no second trip to the provider
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert stack.verified == ["ask-page"]
    assert errors == []
    context.close()
