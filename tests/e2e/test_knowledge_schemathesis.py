"""Schemathesis against the local service (uvicorn on loopback) with the Gateway contract and valid credentials.

Every operation is fuzzed with all of schemathesis's checks, then the stateful phase follows the
links it infers between operations (create a space → read, update, delete it; upload → read...).
"""

from __future__ import annotations

import copy
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import CHECKS

from ragspine.api.app import create_local_app
from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.contract import load_contract
from ragspine.knowledge.identity import dev_key, new_token, sign_dev_assertion
from ragspine.settings import Settings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def service(settings: Settings) -> Iterator[str]:
    get_knowledge_gateway.cache_clear()
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_local_app(settings), host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    get_knowledge_gateway.cache_clear()


def _credentials(settings: Settings) -> tuple[dict[str, str], str]:
    token, stored = new_token("schemathesis")
    get_knowledge_gateway().store.put_token(stored)
    assertion = sign_dev_assertion(dev_key(settings.data_dir), user="fuzzer", roles=["knowledge-admin"], departments=[],
                                   domains=["public", "internal", "confidential", "restricted"],
                                   issuer=settings.knowledge_assertion_issuer,
                                   audience=settings.knowledge_assertion_audience)
    return {"Authorization": f"Bearer {token}"}, assertion


def _schema(base_url: str, assertion: str) -> Any:
    """The contract, with the one valid assertion as the only schema-valid value of its header.

    Positive cases then carry a valid identity, and negative ones an invalid assertion that the
    Gateway must refuse (overriding the header after generation would hide what was sent).
    """
    contract = copy.deepcopy(load_contract())
    contract["components"]["parameters"]["XUserAssertion"]["schema"] = {"type": "string", "enum": [assertion]}
    schema = schemathesis.openapi.from_dict(contract)
    schema.config.update(base_url=base_url)  # type: ignore[attr-defined]
    return schema


def test_every_operation_passes_all_checks(settings: Settings, service: str) -> None:
    headers, assertion = _credentials(settings)
    schema = _schema(service, assertion)
    checks = list(CHECKS.get_all())
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings_for_fuzz
        @given(case=operation.as_strategy())
        def fuzz(case: Any) -> None:
            case.call_and_validate(base_url=service, headers={**(case.headers or {}), **headers}, checks=checks)

        try:
            fuzz()
        except Exception as exc:  # collect every operation's first failure, then fail once
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)


settings_for_fuzz = settings(max_examples=25, deadline=None, derandomize=True,
                             suppress_health_check=list(HealthCheck))


def test_stateful_sequences_pass_all_checks(settings: Settings, service: str) -> None:
    headers, assertion = _credentials(settings)
    schema = _schema(service, assertion)
    checks = list(CHECKS.get_all())
    machine = schema.as_state_machine()
    assert machine.bundles, "schemathesis inferred no links between the Gateway's operations"  # type: ignore[attr-defined]

    class Gateway(machine):  # type: ignore[misc, valid-type]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": service, "headers": {**(case.headers or {}), **headers}}

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=checks)

    Gateway.run(settings=settings_for_stateful)


settings_for_stateful = settings(max_examples=15, stateful_step_count=6, deadline=None, derandomize=True,
                                 suppress_health_check=list(HealthCheck))
