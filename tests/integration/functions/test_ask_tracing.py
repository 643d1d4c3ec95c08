"""The ask function's trace in X-Ray: the AWS calls of an answer show inside the handler's subsegment.

The function runs as Lambda runs a traced invocation, in a fresh interpreter: a sampled trace header and
the X-Ray daemon's address, here a UDP socket this test reads (the Powertools Tracer sends each segment
there as the SDK would to the daemon). Its fact table and domain bucket are moto on loopback.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.ask_aws import sample_fact_table
from tests.support.ask_child import run_child
from tests.support.cfn import REPO_ROOT

TABLE, BUCKET = "facts", "domain-bucket"
LAMBDA_SEGMENT = "53995c3f42cd8ad8"  # the Parent of the trace header: the function's own segment
TRACE_HEADER = f"Root=1-67d0c6a2-5bd3c08e0f1f4e5a9c0b7d21;Parent={LAMBDA_SEGMENT};Sampled=1"
_ASK = (
    "import json\n"
    "import functions.ask.app as app\n"
    "from tests.support.ask_child import ask\n"
    "_status, body = ask(app)\n"
    "print(json.dumps({'route': body['route'], 'answer': body['answer']}, ensure_ascii=False))\n"
)


@pytest.fixture(scope="module")
def fact_table() -> Iterator[str]:
    """moto on loopback with the template's fact table holding the ACME sample facts, and the domain bucket."""
    with sample_fact_table(TABLE, BUCKET) as url:
        yield url


def _subsegments(datagrams: list[bytes]) -> list[dict[str, Any]]:
    """Every subsegment sent, nested ones included (each datagram: a JSON header line, then the entity)."""
    found: list[dict[str, Any]] = []

    def walk(entity: dict[str, Any]) -> None:
        found.append(entity)
        for sub in entity.get("subsegments", []):
            walk({**sub, "parent_id": sub.get("parent_id", entity["id"])})

    for datagram in datagrams:
        walk(json.loads(datagram.decode("utf-8").split("\n", 1)[1]))
    return found


def test_the_aws_calls_of_an_answer_are_traced_inside_the_handler(fact_table: str, tmp_path: Path) -> None:
    # GIVEN the ask function in a fresh interpreter, invoked as Lambda invokes a sampled, traced request
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as daemon:
        daemon.bind(("127.0.0.1", 0))
        daemon.settimeout(2.0)
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{REPO_ROOT}:{REPO_ROOT / 'shared'}", "HOME": str(tmp_path),
               "LAMBDA_TASK_ROOT": str(REPO_ROOT), "RAGSPINE_BACKEND": "aws", "RAGSPINE_FACTS_TABLE": TABLE,
               "RAGSPINE_DOMAIN_SOURCE": f"s3://{BUCKET}/company-domain.json", "AWS_ENDPOINT_URL": fact_table,
               "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1",
               "AWS_LAMBDA_FUNCTION_NAME": "ragspine-ask", "_X_AMZN_TRACE_ID": TRACE_HEADER,
               "AWS_XRAY_DAEMON_ADDRESS": f"127.0.0.1:{daemon.getsockname()[1]}"}
        # WHEN it answers its first question, read from DynamoDB
        outcome = run_child(_ASK, env=env)
        datagrams = []
        try:
            while True:
                datagrams.append(daemon.recv(65536))
        except TimeoutError:
            pass
    assert outcome["route"] == "structured" and "36.0" in outcome["answer"], outcome
    # THEN X-Ray received the handler's subsegment, under the function's segment
    sent = _subsegments(datagrams)
    handlers = [s for s in sent if s["name"] == "## handler"]
    assert len(handlers) == 1 and handlers[0]["parent_id"] == LAMBDA_SEGMENT, sent
    # AND each AWS call the answer made (the published domain's GET, the fact table's queries) inside it
    calls = [s for s in sent if s.get("namespace") == "aws"]
    assert {s["name"] for s in calls} >= {"dynamodb", "S3"}, sent
    assert [s["name"] for s in calls if s["parent_id"] != handlers[0]["id"]] == [], sent
