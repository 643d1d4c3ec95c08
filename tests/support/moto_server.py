"""moto in server mode: real HTTP on a loopback port, served by a thread of this process.

The server shares this process's moto backends, so ``deploy_stack`` can still route a Lambda
invocation of the state machine to wherever the test runs the function (for the artifact suite, a
python3.12 process of the built function) while every AWS call of the functions goes over HTTP.
"""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from tests.support.loopback import free_port
from tests.support.moto_dynamodb import serialize_dynamodb_calls


def _post(url: str, body: dict[str, object] | None = None) -> None:
    data = json.dumps(body or {}).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 (loopback URL built here)
        response.read()


def reset(url: str) -> None:
    """Forget every resource (a fresh account), keeping Step Functions executing their definitions."""
    _post(f"{url}/moto-api/reset")
    _post(f"{url}/moto-api/config", {"stepfunctions": {"execute_state_machine": True}})


@contextmanager
def moto_server() -> Iterator[str]:
    """Yield ``http://127.0.0.1:<port>``: moto with Step Functions executing their definitions; reset afterwards."""
    from moto.server import ThreadedMotoServer

    serialize_dynamodb_calls()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request drowns a failure's report
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=free_port(), verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    url = f"http://{host}:{port}"
    try:
        reset(url)
        yield url
    finally:
        _post(f"{url}/moto-api/config", {"stepfunctions": {"execute_state_machine": False}})
        _post(f"{url}/moto-api/reset")
        server.stop()
