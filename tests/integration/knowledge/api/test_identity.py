"""Service token and user assertion on every request; the commands that create them, against a live data folder."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from typer.testing import CliRunner

from ragspine.cli import app
from ragspine.knowledge.identity import dev_key
from ragspine.settings import Settings, get_settings
from tests.support.knowledge_api import Gateway


def _spaces(gateway: Gateway, **headers: str) -> int:
    sent = gateway.headers(key=False)
    sent.update(headers)
    for name in [k for k, v in headers.items() if v == ""]:
        sent.pop(name)
    return int(gateway.call("GET", "/spaces", headers=sent).status_code)


def _claims(settings: Settings, **overrides: object) -> dict[str, object]:
    now = int(time.time())
    return {"sub": "u1", "roles": [], "securityDomains": ["internal"], "iss": settings.knowledge_assertion_issuer,
            "aud": settings.knowledge_assertion_audience, "iat": now, "exp": now + 300, **overrides}


def test_a_valid_token_and_assertion_pass(gateway: Gateway) -> None:
    assert _spaces(gateway) == 200


@pytest.mark.parametrize("authorization", ["", "Bearer", "Basic abc", "Bearer kgt_nope_nope", "Bearer garbage"])
def test_a_missing_or_wrong_service_token_is_unauthenticated(gateway: Gateway, authorization: str) -> None:
    assert _spaces(gateway, Authorization=authorization) == 401
    assert gateway.last.json()["meta"]["error"]["code"] == "KNOWLEDGE_UNAUTHENTICATED"


def test_a_right_token_id_with_a_wrong_secret_is_refused(gateway: Gateway) -> None:
    token_id = gateway.token.split("_")[1]
    assert _spaces(gateway, Authorization=f"Bearer kgt_{token_id}_{'x' * 43}") == 401


def test_the_assertion_is_required_and_checked(gateway: Gateway) -> None:
    settings, key = gateway.settings, dev_key(gateway.settings.data_dir)
    assert _spaces(gateway, **{"X-User-Assertion": ""}) == 401
    cases = {
        "wrong key": jwt.encode(_claims(settings), b"another-key-of-32-bytes-at-least!!", algorithm="HS256"),
        "issuer": jwt.encode(_claims(settings, iss="elsewhere"), key, algorithm="HS256"),
        "audience": jwt.encode(_claims(settings, aud="other-api"), key, algorithm="HS256"),
        "expired": jwt.encode(_claims(settings, iat=int(time.time()) - 900, exp=int(time.time()) - 300), key,
                              algorithm="HS256"),
        "too long-lived": jwt.encode(_claims(settings, exp=int(time.time()) + 601), key, algorithm="HS256"),
        "no sub": jwt.encode({k: v for k, v in _claims(settings).items() if k != "sub"}, key, algorithm="HS256"),
        "roles not a list": jwt.encode(_claims(settings, roles="admin"), key, algorithm="HS256"),
        "alg none": jwt.encode(_claims(settings), None, algorithm="none"),
    }
    for case, token in cases.items():
        assert _spaces(gateway, **{"X-User-Assertion": token}) == 401, case
    exactly_ten_minutes = jwt.encode(_claims(settings, exp=int(time.time()) + 600), key, algorithm="HS256")
    assert _spaces(gateway, **{"X-User-Assertion": exactly_ten_minutes}) == 200


def test_a_small_clock_skew_is_allowed(gateway: Gateway) -> None:
    key = dev_key(gateway.settings.data_dir)
    now = int(time.time())
    skewed = jwt.encode(_claims(gateway.settings, iat=now - 320, exp=now - 10), key, algorithm="HS256")
    assert _spaces(gateway, **{"X-User-Assertion": skewed}) == 200


def _key_pair(algorithm: str) -> tuple[Any, Any, dict[str, Any]]:
    if algorithm == "ES256":
        private: Any = ec.generate_private_key(ec.SECP256R1())
        return private, ec.generate_private_key(ec.SECP256R1()), json.loads(
            jwt.algorithms.ECAlgorithm.to_jwk(private.public_key()))
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return private, rsa.generate_private_key(public_exponent=65537, key_size=2048), json.loads(
        jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key()))


@pytest.mark.parametrize("algorithm", ["ES256", "RS256"])
def test_asymmetric_assertions_verify_with_the_configured_key_set(gateway: Gateway, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  algorithm: str) -> None:
    private, other, public = _key_pair(algorithm)
    (tmp_path / "jwks.json").write_text(json.dumps({"keys": [{**public, "kid": "idp-1", "alg": algorithm}]}))
    monkeypatch.setenv("RAGSPINE_KNOWLEDGE_ASSERTION_JWKS", str(tmp_path / "jwks.json"))
    monkeypatch.setenv("RAGSPINE_ENV", "production")  # the dev HS256 key is no longer trusted
    get_settings.cache_clear()
    signed = jwt.encode(_claims(gateway.settings), private, algorithm=algorithm, headers={"kid": "idp-1"})
    assert _spaces(gateway, **{"X-User-Assertion": signed}) == 200
    assert _spaces(gateway) == 401  # HS256 with the local key: refused in production
    forged = jwt.encode(_claims(gateway.settings), other, algorithm=algorithm, headers={"kid": "idp-1"})
    assert _spaces(gateway, **{"X-User-Assertion": forged}) == 401


def test_the_commands_print_a_token_and_an_assertion_the_running_service_accepts(gateway: Gateway) -> None:
    runner = CliRunner()
    created = runner.invoke(app, ["knowledge", "token", "create", "--name", "crm"])
    assert created.exit_code == 0, created.output
    token = created.output.strip().splitlines()[-1]
    signed = runner.invoke(app, ["knowledge", "assertion", "--user", "alice", "--roles", "knowledge-admin",
                                 "--domains", "internal"])
    assertion = signed.output.strip().splitlines()[-1]
    response = gateway.client.get("/internal/v1/knowledge/spaces",
                                  headers={"Authorization": f"Bearer {token}", "X-User-Assertion": assertion})
    assert response.status_code == 200
    assert runner.invoke(app, ["knowledge", "token", "create", "--name", "crm"]).exit_code == 2  # names are unique


def test_tokens_are_stored_hashed(gateway: Gateway) -> None:
    folder = gateway.settings.knowledge_db_path.parent
    stored = [path.read_bytes() for path in folder.glob("knowledge.db*")]
    assert stored and all(gateway.token.split("_", 2)[2].encode() not in raw for raw in stored)
