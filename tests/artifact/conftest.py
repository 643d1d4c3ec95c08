"""The stack as ``sam build`` produced it: built functions in python3.12 processes, moto over HTTP, osmem-server.

One build per test run (the ``sam_build`` fixture, shared with ``tests/integration/template/test_template.py``);
one moto server and one osmem-server per module. The test process only plays the outside world:
S3 deliveries, the state machine's Lambda invocations, API Gateway events, the operator's token.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.artifact.functions import FunctionProcess, runtime_packages
from tests.integration.whole_stack.conftest import KID, BusinessSystem
from tests.support.moto_server import moto_server, reset
from tests.support.stack import Stack, deploy_stack

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "testing",
               "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1"}


@pytest.fixture(scope="module")
def osmem() -> Iterator[str]:
    """The search domain: an in-memory OpenSearch-compatible server on loopback."""
    pytest.importorskip("osmem_server", reason="osmem-server (PyPI) stands in for the OpenSearch domain")
    from osmem_server import OsmemServer

    server = OsmemServer.start(addr="127.0.0.1:0")
    yield str(server.url)
    server.close()


@pytest.fixture(scope="module")
def aws_endpoint() -> Iterator[str]:
    """moto in server mode: every AWS call of the built functions goes over HTTP to it."""
    with moto_server() as url:
        yield url


class LazyFunction:
    """A built function whose process starts on its first invocation (a cold start), then stays warm."""

    def __init__(self, start: Callable[[], FunctionProcess]) -> None:
        self._start = start
        self.process: FunctionProcess | None = None

    def __call__(self, event: dict[str, Any], context: Any) -> Any:
        if self.process is None:
            self.process = self._start()
        return self.process(event, context)


def built_stack(monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]], lambda_context: Any,
                *, build_dir: Path, workdir: Path, server: str, search_endpoint: str,
                extra_environment: Mapping[str, str], parameters: Mapping[str, str] | None = None) -> Iterator[Stack]:
    """``deploy_stack`` over the moto server, each function of the build output in its own process."""
    reset(server)  # each test deploys into a fresh account
    runtime = runtime_packages(workdir / "runtime")
    started: list[LazyFunction] = []

    def factory(logical: str, properties: Mapping[str, Any], environment: Mapping[str, str]) -> LazyFunction:
        variables = {**environment, **CREDENTIALS, "AWS_ENDPOINT_URL": server}
        function = LazyFunction(lambda: FunctionProcess(logical, build_dir, properties, variables, runtime=runtime,
                                                        workdir=workdir / logical))
        started.append(function)
        return function

    with deploy_stack(monkeypatch, load_event, lambda_context, search_endpoint=search_endpoint, server=server,
                      handler_factory=factory, extra_environment=dict(extra_environment),
                      parameters=dict(parameters or {})) as stack:
        try:
            yield stack
        finally:
            for function in started:
                if function.process is not None:
                    function.process.close()


@pytest.fixture
def key_set(tmp_path: Path) -> tuple[Any, Path]:
    """An ES256 key pair; the public half as the key set file the Knowledge function verifies assertions with."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from jwt.algorithms import ECAlgorithm

    private = ec.generate_private_key(ec.SECP256R1())
    public = json.loads(ECAlgorithm.to_jwk(private.public_key()))
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{**public, "kid": KID, "alg": "ES256"}]}), encoding="utf-8")
    return private, jwks


@pytest.fixture
def stack(settings: Any, sam_build: Path, aws_endpoint: str, osmem: str, key_set: tuple[Any, Path],
          monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]], lambda_context: Any,
          tmp_path: Path) -> Iterator[Stack]:
    """The built stack, deployed on the moto server."""
    private, jwks = key_set
    yield from built_stack(monkeypatch, load_event, lambda_context, build_dir=sam_build, workdir=tmp_path / "lambda",
                           server=aws_endpoint, search_endpoint=osmem,
                           extra_environment={"RAGSPINE_KNOWLEDGE_ASSERTION_JWKS": str(jwks)})


@pytest.fixture
def crm(stack: Stack, key_set: tuple[Any, Path], load_event: Callable[[str], dict[str, Any]]) -> BusinessSystem:
    """A business system holding a service token stored the way `ragspine knowledge token create` stores it."""
    from ragspine.bootstrap import build_knowledge_store
    from ragspine.knowledge.identity import new_token
    from ragspine.settings import get_settings

    settings = get_settings()
    token, record = new_token("crm")
    build_knowledge_store(settings).put_token(record)
    return BusinessSystem(stack, token, key_set[0], settings.knowledge_assertion_issuer,
                          settings.knowledge_assertion_audience, load_event("knowledge_space_create"))
