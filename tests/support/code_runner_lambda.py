"""The code-runner Lambda handler, invoked for real in its own process, and a loopback Lambda Invoke endpoint.

The handler makes its process the subreaper of what the code leaves behind and kills it after
each run, so it must not run inside the test process: each invocation gets a fresh Python that
imports ``functions/code_runner/app.py`` and calls ``handler(event, context)`` once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.cfn import REPO_ROOT

_DRIVER = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import app

class Context:
    function_name = "ragspine-code-runner"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:ragspine-code-runner"
    aws_request_id = "52fdfc07-2182-454f-963f-5f0f9a621d72"

reply = app.handler(json.loads(sys.stdin.read()), Context())
sys.stdout.write("\\n" + json.dumps(reply))
"""


def invoke_handler(event: dict[str, Any], *, timeout: float = 60) -> dict[str, Any]:
    """The handler's reply to ``event``, from a fresh process (as one Lambda invocation)."""
    env = {**os.environ, "POWERTOOLS_METRICS_NAMESPACE": "RAGSpineTest", "POWERTOOLS_TRACE_DISABLED": "true"}
    done = subprocess.run(  # noqa: S603 - fixed argv
        [sys.executable, "-c", _DRIVER, str(REPO_ROOT / "functions" / "code_runner"), str(REPO_ROOT / "shared")],
        input=json.dumps(event).encode(), capture_output=True, timeout=timeout, env=env, check=False)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    reply: dict[str, Any] = json.loads(done.stdout.decode().rsplit("\n", 1)[1])
    return reply


@contextmanager
def lambda_endpoint() -> Iterator[str]:
    """A loopback endpoint answering Lambda's Invoke API with the real handler; yields its URL."""

    class Handler(_Quiet):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            event = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            self.answer(200, invoke_handler(event), {"X-Amz-Executed-Version": "$LATEST"})

    with _serving(Handler) as url:
        yield url


# What Lambda answers an Invoke past the function's reserved concurrency.
THROTTLED = {"Type": "User", "message": "Rate Exceeded.",
             "Reason": "ReservedFunctionConcurrentInvocationLimitExceeded"}


@contextmanager
def throttling_lambda_endpoint(calls: list[dict[str, Any]]) -> Iterator[str]:
    """A loopback Lambda Invoke endpoint that throttles every call (as past a reservation) and records its event."""

    class Handler(_Quiet):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            calls.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.answer(429, THROTTLED, {"x-amzn-ErrorType": "TooManyRequestsException"})

    with _serving(Handler) as url:
        yield url


@contextmanager
def lambda_endpoint_answering(payload: bytes) -> Iterator[str]:
    """A loopback Lambda Invoke endpoint whose function answers ``payload`` as it is, whatever the event."""

    class Handler(_Quiet):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers["Content-Length"]))
            self.answer(200, payload, {"X-Amz-Executed-Version": "$LATEST"})

    with _serving(Handler) as url:
        yield url


class _Quiet(BaseHTTPRequestHandler):
    def answer(self, status: int, reply: dict[str, Any] | bytes, headers: dict[str, str]) -> None:
        body = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's name)
        return


@contextmanager
def _serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="lambda-endpoint", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
