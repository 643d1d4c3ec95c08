"""Deployment secrets on moto's Secrets Manager: the handlers read them at cold start and use them.

The Gateway's secret (assertion key set, service token records, URL-signing key) and the API key
pepper are named by environment variables; their values exist only in Secrets Manager. A missing or
malformed secret stops the cold start with a message that names the secret and never its value.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import boto3
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from typer.testing import CliRunner

from ragspine.aws import secrets as aws_secrets
from ragspine.bootstrap import get_knowledge_gateway, get_services
from ragspine.cli import app
from ragspine.errors import ConfigurationError
from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
from ragspine.knowledge.secrets import token_entry
from ragspine.settings import Settings, get_settings
from ragspine.workflows.surfaces.keys import verify_key
from ragspine.workflows.surfaces.records import KeyKind
from tests.support.cfn import dynamodb_create_table_kwargs
from tests.support.process_caches import close_knowledge_gateway, close_services

GATEWAY_SECRET = "ragspine/test/gateway"
PEPPER_SECRET = "ragspine/test/api-key-pepper"
SIGNING_KEY = "u" * 40 + "SIGNINGKEYVALUE"
PEPPER = "PEPPERVALUE-" + "p" * 30
BUCKET = "ragspine-uploads-test"
Invoke = Callable[..., tuple[int, dict[str, Any]]]


def _forget_handlers() -> None:
    """Drop the handler modules this file cold-started, so the next test imports them under its own settings."""
    for module in ("functions.knowledge.app", "functions.workflow.app"):
        sys.modules.pop(module, None)


def _reset(monkeypatch: pytest.MonkeyPatch, **env: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(f"RAGSPINE_{name}", value)
    get_settings.cache_clear()
    close_services()
    close_knowledge_gateway()
    aws_secrets._provider.cache_clear()  # a fresh Powertools cache per test: each test is a cold start


@pytest.fixture
def secretsmanager(aws_settings: Settings) -> Any:
    return boto3.client("secretsmanager", region_name="us-east-1")


@pytest.fixture
def issuer_key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _jwks(key: ec.EllipticCurvePrivateKey) -> dict[str, Any]:
    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    return {"keys": [{**public, "kid": "issuer-1", "use": "sig", "alg": "ES256"}]}


def _assertion(key: ec.EllipticCurvePrivateKey, settings: Settings, roles: list[str]) -> str:
    now = int(time.time())
    claims = {"sub": "alice", "roles": roles, "departments": [], "securityDomains": ["internal"],
              "iss": settings.knowledge_assertion_issuer, "aud": settings.knowledge_assertion_audience,
              "iat": now, "exp": now + 300}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": "issuer-1"})


@pytest.fixture
def gateway_env(aws_settings: Settings, aws: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Knowledge function's tables, bucket and state machine on moto, production settings, caches reset."""
    aws.create_table(**dynamodb_create_table_kwargs("KnowledgeTable", "knowledge-test"))
    aws.create_table(**dynamodb_create_table_kwargs("IngestTable", "ingest-test"))
    boto3.client("s3", region_name="us-east-1").create_bucket(Bucket=BUCKET)
    machine = boto3.client("stepfunctions", region_name="us-east-1").create_state_machine(
        name="ingest", definition=json.dumps({"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}}),
        roleArn="arn:aws:iam::123456789012:role/ingest")["stateMachineArn"]
    _reset(monkeypatch, ENV="production", KNOWLEDGE_TABLE="knowledge-test", KNOWLEDGE_BUCKET=BUCKET,
           INGEST_TABLE="ingest-test", STAGING_BUCKET=BUCKET, INGEST_STATE_MACHINE_ARN=machine,
           KNOWLEDGE_SECRET=GATEWAY_SECRET)
    yield
    _reset(monkeypatch)
    _forget_handlers()


def _cold_start(module: str) -> ModuleType:
    """Import the handler module afresh, as a new Lambda execution environment would."""
    sys.modules.pop(module, None)
    return importlib.import_module(module)


def _invoker(module: ModuleType, load_event: Any, lambda_context: Any) -> Invoke:
    def call(name: str, **replace: str) -> tuple[int, dict[str, Any]]:
        text = json.dumps(load_event(name))
        for old, new in replace.items():
            text = text.replace(old, new)
        response = module.handler(json.loads(text), lambda_context)
        return response["statusCode"], json.loads(response["body"])

    return call


def _event_token(load_event: Any) -> str:
    return str(load_event("knowledge_space_list")["headers"]["Authorization"].split()[1])


class TestGatewaySecret:
    def test_the_secrets_token_and_key_set_authenticate_and_nothing_else_does(
            self, gateway_env: None, secretsmanager: Any, issuer_key: ec.EllipticCurvePrivateKey,
            load_event: Any, lambda_context: Any) -> None:
        # GIVEN a Gateway secret holding the event's token record, the issuer's public key set and a signing key
        token, stored = new_token("crm")
        secretsmanager.create_secret(Name=GATEWAY_SECRET, SecretString=json.dumps(
            {"urlSigningKey": SIGNING_KEY, "assertionJwks": _jwks(issuer_key), "serviceTokens": [token_entry(stored)]}))
        invoke = _invoker(_cold_start("functions.knowledge.app"), load_event, lambda_context)
        settings = get_settings()
        event_token = _event_token(load_event)
        signed = _assertion(issuer_key, settings, ["knowledge-admin"])
        # WHEN a business system calls with that token and an ES256 assertion
        status, body = invoke("knowledge_space_list", **{event_token: token, "ASSERTION": signed})
        # THEN it is served; the Gateway signs URLs with the secret's key
        assert status == 200 and body["data"] == {"items": []}, body
        assert get_knowledge_gateway().config.signing_key == SIGNING_KEY.encode()
        # AND a token missing from the secret, or the development HS256 assertion, is refused (production)
        status, body = invoke("knowledge_space_list", ASSERTION=signed)
        assert status == 401 and body["meta"]["error"]["code"] == "KNOWLEDGE_UNAUTHENTICATED"
        dev = sign_dev_assertion(dev_key(settings.data_dir), user="alice", roles=["knowledge-admin"], departments=[],
                                 domains=["internal"], issuer=settings.knowledge_assertion_issuer,
                                 audience=settings.knowledge_assertion_audience)
        status, _ = invoke("knowledge_space_list", **{event_token: token, "ASSERTION": dev})
        assert status == 401

    def test_a_missing_secret_stops_the_cold_start_naming_the_secret(self, gateway_env: None,
                                                                      secretsmanager: Any) -> None:
        # GIVEN no secret of that name exists
        # WHEN the Knowledge function starts
        with pytest.raises(ConfigurationError) as caught:
            _cold_start("functions.knowledge.app")
        # THEN the error names the secret, the setting and what AWS said
        message = caught.value.message
        assert GATEWAY_SECRET in message and "RAGSPINE_KNOWLEDGE_SECRET" in message
        assert "ResourceNotFoundException" in message

    @pytest.mark.parametrize(("value", "field"), [
        ({"urlSigningKey": "SHORTSECRETVALUE"}, "urlSigningKey"),
        ({"urlSigningKey": SIGNING_KEY, "assertionJwks": "JWKSSECRETVALUE"}, "assertionJwks"),
        ({"urlSigningKey": SIGNING_KEY, "serviceTokens": [{"tokenId": "TOKENSECRETVALUE"}]}, "serviceTokens[0]"),
        ("NOTJSONSECRETVALUE", "JSON"),
    ])
    def test_a_malformed_secret_is_named_with_its_field_and_its_value_never_shown(
            self, gateway_env: None, secretsmanager: Any, value: Any, field: str) -> None:
        # GIVEN a Gateway secret with one malformed field
        text = value if isinstance(value, str) else json.dumps(value)
        secretsmanager.create_secret(Name=GATEWAY_SECRET, SecretString=text)
        # WHEN the Knowledge function starts
        with pytest.raises(ConfigurationError) as caught:
            _cold_start("functions.knowledge.app")
        # THEN the message names the secret and the field, and holds no part of the value
        message = caught.value.message
        assert GATEWAY_SECRET in message and field in message
        assert "SECRETVALUE" not in message and "SIGNINGKEYVALUE" not in message

    def test_token_create_appends_a_record_to_the_secret_and_the_token_works(
            self, gateway_env: None, secretsmanager: Any, issuer_key: ec.EllipticCurvePrivateKey,
            load_event: Any, lambda_context: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        # GIVEN a Gateway secret as the stack creates it: a signing key and the issuer's key set, no tokens
        secretsmanager.create_secret(Name=GATEWAY_SECRET, SecretString=json.dumps(
            {"urlSigningKey": SIGNING_KEY, "assertionJwks": _jwks(issuer_key), "serviceTokens": []}))
        # WHEN the operator creates a token with the command (twice the same name: refused)
        created = CliRunner().invoke(app, ["knowledge", "token", "create", "--name", "erp"])
        again = CliRunner().invoke(app, ["knowledge", "token", "create", "--name", "erp"])
        token = created.stdout.strip().splitlines()[-1]
        # THEN the secret holds its salted digest only, and a fresh function accepts the printed token
        assert created.exit_code == 0, created.output
        assert again.exit_code == 2 and "erp" in again.output
        stored = json.loads(secretsmanager.get_secret_value(SecretId=GATEWAY_SECRET)["SecretString"])
        assert [entry["name"] for entry in stored["serviceTokens"]] == ["erp"]
        assert token.split("_", 2)[2] not in json.dumps(stored)
        _reset(monkeypatch)
        invoke = _invoker(_cold_start("functions.knowledge.app"), load_event, lambda_context)
        signed = _assertion(issuer_key, get_settings(), ["knowledge-admin"])
        status, body = invoke("knowledge_space_list", **{_event_token(load_event): token, "ASSERTION": signed})
        assert status == 200, body


class TestApiKeyPepper:
    @pytest.fixture
    def workflow_env(self, aws_settings: Settings, aws: Any, secretsmanager: Any,
                     monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        aws.create_table(**dynamodb_create_table_kwargs("WorkflowsTable", "workflows-test"))
        _reset(monkeypatch, WORKFLOWS_TABLE="workflows-test", API_KEY_PEPPER_SECRET=PEPPER_SECRET)
        yield
        _reset(monkeypatch)
        _forget_handlers()

    def test_keys_are_peppered_with_the_secret_and_verify_through_the_function(
            self, workflow_env: None, secretsmanager: Any, load_event: Any, lambda_context: Any) -> None:
        # GIVEN the pepper secret, and an n8n key created by the command on the AWS backend
        secretsmanager.create_secret(Name=PEPPER_SECRET, SecretString=PEPPER)
        created = CliRunner().invoke(app, ["workflow", "keys", "create", "--n8n"])
        assert created.exit_code == 0, created.output
        key = created.stdout.strip().rsplit(" ", 1)[-1]
        # WHEN the n8n API is called with it through a freshly started workflow function
        close_services()
        invoke = _invoker(_cold_start("functions.workflow.app"), load_event, lambda_context)
        event_key = load_event("workflow_n8n_list")["headers"]["X-N8N-API-KEY"]
        status, body = invoke("workflow_n8n_list", **{event_key: key})
        # THEN it is accepted, while the stored record alone (no pepper) does not verify the key
        assert status == 200, body
        store = get_services().workflows.store
        assert verify_key(key, KeyKind.N8N, store=store, pepper=PEPPER.encode()).kind is KeyKind.N8N
        with pytest.raises(Exception, match="not valid"):
            verify_key(key, KeyKind.N8N, store=store)

    def test_a_missing_pepper_secret_stops_the_cold_start(self, workflow_env: None) -> None:
        with pytest.raises(ConfigurationError) as caught:
            _cold_start("functions.workflow.app")
        assert PEPPER_SECRET in caught.value.message and "RAGSPINE_API_KEY_PEPPER_SECRET" in caught.value.message
