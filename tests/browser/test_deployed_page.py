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

from ragspine.aws.dynamo_facts import DynamoFactStore
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings
from tests.browser.conftest import ARTIFACTS, Service
from tests.conftest import FACTS_TABLE
from tests.integration.api.test_page_api_evidence import MINUTES, SAMPLES
from tests.support.page_corpus import FEEDBACK_TABLE, Corpus, deployed_corpus
from tests.support.samples import load_sample_facts

expect = pytest.importorskip("playwright.sync_api").expect
page_lambda = importlib.import_module("functions.page.app")


@dataclass
class Stack:
    """What the loopback stack saw."""

    url: str
    service: Service | None
    context: Any
    challenges: dict[str, str] = field(default_factory=dict)  # code -> PKCE challenge
    issued: set[str] = field(default_factory=set)
    verified: list[str] = field(default_factory=list)
    asked_with: list[str | None] = field(default_factory=list)
    claims: dict[str, str] = field(default_factory=lambda: {"sub": "reader-1", "client_id": "ask-page"})


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
            if url.path.startswith("/v1/") and not self._authorized():
                return
            self._page_lambda("GET", url, None)

        def _authorized(self) -> bool:
            """The HTTP API's JWT authorizer: only a token the provider issued passes."""
            authorization = self.headers.get("Authorization")
            stack.asked_with.append(authorization)
            if authorization in {f"Bearer {t}" for t in stack.issued}:
                return True
            self._send(401, b'{"message": "Unauthorized"}', {"Content-Type": "application/json"})
            return False

        def _page_lambda(self, method: str, url: urllib.parse.SplitResult, body: bytes | None) -> None:
            """The page function, with the event the HTTP API sends it (the authorizer's claims included)."""
            event = {"version": "1.0", "path": url.path, "httpMethod": method,
                     "body": body.decode() if body else None, "isBase64Encoded": False,
                     "queryStringParameters": dict(urllib.parse.parse_qsl(url.query)) or None,
                     "headers": {"Host": self.headers["Host"], "X-Forwarded-Proto": "http"},
                     "requestContext": {"authorizer": {"claims": stack.claims}}}
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
            if not self._authorized():
                return
            if self.path == "/v1/feedback":
                self._page_lambda("POST", urllib.parse.urlsplit(self.path), body)
                return
            if self.path != "/v1/ask" or stack.service is None:
                self._send(404, b'{"message": "Not Found"}', {"Content-Type": "application/json"})
                return
            answer = httpx.post(f"{stack.service.url}/v1/ask", content=body, timeout=60,
                                headers={"Content-Type": "application/json"})
            self._send(answer.status_code, answer.content, {"Content-Type": "application/json"})

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


def _serve(service: Service | None, lambda_context: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    built = Stack(url, service, lambda_context)
    server.RequestHandlerClass = _handler(built)
    monkeypatch.setenv("RAGSPINE_PAGE_CLIENT_ID", "ask-page")
    monkeypatch.setenv("RAGSPINE_PAGE_AUTHORIZE_URL", f"{url}/authorize")
    monkeypatch.setenv("RAGSPINE_PAGE_EXCHANGE_URL", f"{url}/token")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield built
    server.shutdown()


@pytest.fixture
def stack(acme: Service, lambda_context: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    yield from _serve(acme, lambda_context, monkeypatch)


@pytest.fixture
def corpus(aws_settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Corpus]:
    yield from deployed_corpus(aws, monkeypatch)


@pytest.fixture
def aws_stack(corpus: Corpus, aws: Any, lambda_context: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    """The stack on moto: the workbook in S3 as the worker left it, the sample facts in the fact table."""
    corpus.add(SAMPLES / "acme" / "ACME_Quarterly_Revenue.xlsx")
    corpus.add(SAMPLES / "acme" / MINUTES, sensitivity=Sensitivity.RESTRICTED)
    load_sample_facts(DynamoFactStore(FACTS_TABLE, client=aws))
    yield from _serve(None, lambda_context, monkeypatch)


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


def test_the_deployed_documents_page_lists_facts_from_dynamodb_and_opens_a_cell_from_s3(
        aws_stack: Stack, aws: Any, browser: Any) -> None:
    from tests.browser.axe import run_axe

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(aws_stack.url + "/documents")
    page.wait_for_selector("body[data-ready=true]")
    # the provider sent the reader back to /, and the page went back to /documents, signed in
    assert aws_stack.verified == ["ask-page"] and page.url == aws_stack.url + "/documents"
    assert page.locator("#gateway").is_hidden()  # the Gateway has its own API on AWS
    row = page.locator('#corpus-documents tr[data-corpus="ACME_Quarterly_Revenue.xlsx"]')
    expect(row.locator("td.fact-count")).to_have_text("24")
    assert page.locator("#corpus-documents tr[data-corpus]").count() == 1  # the RESTRICTED minutes: never named
    row.locator("button[data-action=facts]").click()
    chip = page.locator('button[data-fact="REVENUE/ACME_JP/TOTAL/Q2024Q3"]')
    expect(chip).to_have_text("◆165")
    chip.click()
    expect(page.locator("rs-evidence .cited")).to_have_text("165 (cited cell)")
    expect(page.locator("rs-evidence caption")).to_have_text("2024!D4")
    assert run_axe(page) == []
    page.screenshot(path=str(ARTIFACTS / "deployed-documents-facts.png"), full_page=True)
    token = f"Bearer {next(iter(aws_stack.issued))}"
    assert set(aws_stack.asked_with) == {token}  # every API call carried the provider's token
    # feedback from the deployed ask page lands in the feedback table
    page.goto(aws_stack.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    stored = page.evaluate("""async () => {
        const api = await import("/ui/api.js");
        return api.feedback({ reason: "wrong_number", question: "q", answer: "165", value: "165",
          doc: "ACME_Quarterly_Revenue.xlsx", locator: "sheet=2024,cell=D4" });
    }""")
    assert stored["id"].startswith("fb-")
    items = aws.query(TableName=FEEDBACK_TABLE, KeyConditionExpression="pk = :p",
                      ExpressionAttributeValues={":p": {"S": "FEEDBACK"}})["Items"]
    assert [json.loads(i["body"]["S"])["locator"] for i in items] == ["sheet=2024,cell=D4"]
    # the feedback list: refused to a reader, shown to the administrators' group with its source
    page.goto(aws_stack.url + "/feedback")
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#status")).to_contain_text("administrators")
    aws_stack.claims = {**aws_stack.claims, "cognito:groups": "[ragspine-admins]"}
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#status")).to_have_text("1 items of feedback")
    page.locator("#feedback button.source").click()
    expect(page.locator("rs-evidence .cited")).to_have_text("165 (cited cell)")
    assert run_axe(page) == []
    assert errors == ["Failed to load resource: the server responded with a status of 403 (Forbidden)"]
    context.close()
