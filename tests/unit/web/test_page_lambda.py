"""The deployed page: the page Lambda serves the ask page and its files, and tells the page how to sign in.

The sign-in endpoints come from the stack (its own Cognito user pool) or, for a company identity
provider given by its issuer only, from the issuer's discovery document (a real HTTP server here).
"""

from __future__ import annotations

import http.server
import importlib
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ragspine.api.page_login import discovered_endpoints, page_login
from ragspine.errors import ConfigurationError

page = importlib.import_module("functions.page.app")
HOST = "abc123.execute-api.eu-west-1.amazonaws.com"
COGNITO = {"RAGSPINE_PAGE_CLIENT_ID": "client-1",
           "RAGSPINE_PAGE_AUTHORIZE_URL": "https://login.example.com/oauth2/authorize",
           "RAGSPINE_PAGE_EXCHANGE_URL": "https://login.example.com/oauth2/token"}


def _event(path: str, method: str = "GET") -> dict[str, Any]:
    return {"version": "1.0", "path": path, "httpMethod": method, "headers": {"Host": HOST},
            "requestContext": {"requestId": "r-1"}, "body": None, "isBase64Encoded": False}


@pytest.fixture
def cognito(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in COGNITO.items():
        monkeypatch.setenv(name, value)


@pytest.mark.usefixtures("cognito")
def test_the_ask_page_is_served_with_a_policy_that_lets_it_redeem_its_sign_in(lambda_context: Any) -> None:
    response = page.handler(_event("/"), lambda_context)
    assert response["statusCode"] == 200 and "<html" in response["body"]
    policy = response["headers"]["Content-Security-Policy"]
    assert "connect-src 'self' https://login.example.com;" in policy and "script-src 'self';" in policy
    script = page.handler(_event("/ui/auth.js"), lambda_context)
    assert script["statusCode"] == 200 and script["headers"]["Content-Type"].startswith("text/javascript")
    assert "code_challenge_method" in script["body"]
    locale = page.handler(_event("/ui/locales/ja.json"), lambda_context)
    assert locale["statusCode"] == 200 and json.loads(locale["body"])


@pytest.mark.usefixtures("cognito")
def test_the_config_names_the_provider_the_client_and_the_page_as_redirect(lambda_context: Any) -> None:
    response = page.handler(_event("/ui/config.json"), lambda_context)
    assert json.loads(response["body"]) == {"login": {
        "authorizeUrl": "https://login.example.com/oauth2/authorize",
        "tokenUrl": "https://login.example.com/oauth2/token", "clientId": "client-1",
        "redirectUri": f"https://{HOST}/", "scope": "openid email profile"}, "stream": False, "gateway": False}


@pytest.mark.parametrize("path", ["/ui/../pyproject.toml", "/ui/", "/ui/.hidden", "/ui//etc/passwd", "/documents/x",
                                  "/ui/locales/../../__init__.py", "/ui/missing.js", "/v1/ask"])
def test_nothing_outside_the_page_files_is_served(lambda_context: Any, path: str) -> None:
    response = page.handler(_event(path), lambda_context)
    assert response["statusCode"] == 404 and "NOT_FOUND" in response["body"]


def test_only_reads_are_served(lambda_context: Any) -> None:
    assert page.handler(_event("/", "POST"), lambda_context)["statusCode"] == 404


def test_without_a_client_there_is_no_login(lambda_context: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGSPINE_PAGE_CLIENT_ID", raising=False)
    response = page.handler(_event("/ui/config.json"), lambda_context)
    assert json.loads(response["body"]) == {"login": None, "stream": False, "gateway": False}
    assert "connect-src 'self';" in response["headers"]["Content-Security-Policy"]


class _Discovery(http.server.BaseHTTPRequestHandler):
    document: dict[str, Any] = {}

    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        if self.path != "/tenant/.well-known/openid-configuration":
            self.send_error(404)
            return
        body = json.dumps(self.document).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def issuer() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Discovery)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    discovered_endpoints.cache_clear()
    yield f"http://127.0.0.1:{server.server_address[1]}/tenant"
    server.shutdown()
    discovered_endpoints.cache_clear()


def test_a_company_provider_given_by_its_issuer_is_discovered(issuer: str) -> None:
    _Discovery.document = {"issuer": issuer, "authorization_endpoint": "https://idp.example.com/authorize",
                           "token_endpoint": "https://idp.example.com/token"}
    login = page_login("https://page.example.com/", {"RAGSPINE_PAGE_CLIENT_ID": "c", "RAGSPINE_PAGE_ISSUER": issuer})
    assert login is not None and login.authorizeUrl == "https://idp.example.com/authorize"
    assert login.token_origin == "https://idp.example.com"


def test_a_discovery_document_without_endpoints_is_a_configuration_error(issuer: str) -> None:
    _Discovery.document = {"issuer": issuer}
    with pytest.raises(ConfigurationError, match="names no authorization_endpoint"):
        page_login("https://p/", {"RAGSPINE_PAGE_CLIENT_ID": "c", "RAGSPINE_PAGE_ISSUER": issuer})


def test_an_unreachable_issuer_or_none_is_a_configuration_error(issuer: str) -> None:
    with pytest.raises(ConfigurationError, match="could not read"):
        page_login("https://p/", {"RAGSPINE_PAGE_CLIENT_ID": "c", "RAGSPINE_PAGE_ISSUER": issuer + "/elsewhere"})
    with pytest.raises(ConfigurationError, match="set the issuer"):
        page_login("https://p/", {"RAGSPINE_PAGE_CLIENT_ID": "c"})


def test_a_misconfigured_sign_in_is_a_500_that_names_no_secret(lambda_context: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGSPINE_PAGE_CLIENT_ID", "c")
    for name in ("RAGSPINE_PAGE_ISSUER", "RAGSPINE_PAGE_AUTHORIZE_URL", "RAGSPINE_PAGE_EXCHANGE_URL"):
        monkeypatch.delenv(name, raising=False)
    response = page.handler(_event("/"), lambda_context)
    assert response["statusCode"] == 500 and "KNOWLEDGE_CONFIGURATION_ERROR" in response["body"]
