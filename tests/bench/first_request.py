"""What a cold start really pays: the ask handler's import plus its first request, against the same floor.

Both sides run in fresh interpreters against one DynamoDB: moto in server mode on a loopback port
(this process serves it; the children reach it through ``AWS_ENDPOINT_URL``), its fact table built
from ``template.yaml`` and holding the ACME sample facts. The baseline imports what any such
function imports (``fastapi, mangum, boto3``) and makes one ``GetItem``; the candidate imports the
ask handler and answers ``events/ask_found.json`` (a structured question: a DynamoDB query).

Both run in the environment Lambda gives the deployed function: ``LAMBDA_TASK_ROOT`` set and a
sampled trace header, so the Powertools Tracer is on and sends its segments to an X-Ray daemon
address (a UDP socket this process holds), and the template's ``RAGSPINE_DOMAIN_SOURCE`` names the
stack's domain bucket, with nothing published in it: the first request reads it, as a new stack's does.
"""

from __future__ import annotations

import logging
import socket
import statistics
import subprocess
from contextlib import contextmanager
from time import perf_counter_ns
from typing import TYPE_CHECKING, Any

from cold_start import TARGET_RATIO, child_env

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

TABLE = "bench"
DOMAIN_BUCKET = "bench-domain"
# What Lambda sets for a traced invocation (the trace header of a sampled request) besides the template's variables.
LAMBDA_RUNTIME = {"AWS_LAMBDA_FUNCTION_NAME": "ragspine-ask", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "512",
                  "_X_AMZN_TRACE_ID": "Root=1-67d0c6a2-5bd3c08e0f1f4e5a9c0b7d21;Parent=53995c3f42cd8ad8;Sampled=1",
                  "RAGSPINE_DOMAIN_SOURCE": f"s3://{DOMAIN_BUCKET}/company-domain.json"}
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_SESSION_TOKEN": "bench",
               "AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "us-east-1"}
COMMANDS = {
    "baseline": (
        "import fastapi, mangum, boto3\n"
        f"boto3.client('dynamodb').get_item(TableName={TABLE!r}, "
        "Key={'pk': {'S': 'ACME_JP#GROSS_MARGIN'}, 'sk': {'S': 'FY#2024#TOTAL'}})"),
    "candidate": (
        "import json, pathlib\n"
        "import functions.ask.app as app\n"
        "event = json.loads(pathlib.Path('events/ask_found.json').read_text(encoding='utf-8'))\n"
        "class Context:\n"
        "    function_name, memory_limit_in_mb, aws_request_id = 'ragspine-ask', 512, 'bench'\n"
        "    invoked_function_arn = 'arn:aws:lambda:us-east-1:123456789012:function:ragspine-ask'\n"
        "response = app.handler(event, Context())\n"
        "assert response['statusCode'] == 200 and '36.0' in response['body'], response"),
}


@contextmanager
def fact_table() -> Iterator[str]:
    """A moto server with the template's fact table holding the ACME sample facts; yields its URL."""
    import boto3
    from moto.server import ThreadedMotoServer
    from tests.support.cfn import dynamodb_create_table_kwargs
    from tests.support.loopback import free_port
    from tests.support.samples import load_sample_facts

    from ragspine.aws.dynamo_facts import DynamoFactStore

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=free_port(), verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    url = f"http://{host}:{port}"
    try:
        client = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                              aws_access_key_id="bench", aws_secret_access_key="bench")
        client.create_table(**dynamodb_create_table_kwargs("FactsTable", TABLE))
        load_sample_facts(DynamoFactStore(TABLE, client=client))
        boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id="bench",
                     aws_secret_access_key="bench").create_bucket(Bucket=DOMAIN_BUCKET)
        yield url
    finally:
        server.stop()


def _run(python: Path, code: str, *, cwd: Path, env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    began = perf_counter_ns()
    done = subprocess.run([str(python), "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    return (perf_counter_ns() - began) / 1e6, done


def run_first_request(python: Path, *, cwd: Path, runs: int, log: Callable[[str], None]) -> dict[str, Any]:
    """Median wall time of each command over ``runs`` interleaved rounds, after one warm-up each."""
    with fact_table() as url, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as daemon:
        daemon.bind(("127.0.0.1", 0))  # where the tracer sends its segments (read by nobody, as UDP allows)
        env = {**child_env(), **CREDENTIALS, **LAMBDA_RUNTIME, "AWS_ENDPOINT_URL": url, "RAGSPINE_FACTS_TABLE": TABLE,
               "LAMBDA_TASK_ROOT": str(cwd), "AWS_XRAY_DAEMON_ADDRESS": f"127.0.0.1:{daemon.getsockname()[1]}"}
        for name, code in COMMANDS.items():
            _ms, done = _run(python, code, cwd=cwd, env=env)
            if done.returncode != 0:
                return {"runs": runs, "commands": COMMANDS, "error": {
                    "command": name, "returncode": done.returncode, "stderr": done.stderr[-4000:]}}
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        names = list(COMMANDS)
        for round_no in range(runs):
            order = names[round_no % 2:] + names[:round_no % 2]
            for name in order:
                times[name].append(_run(python, COMMANDS[name], cwd=cwd, env=env)[0])
            log(f"  first-request round {round_no + 1}/{runs}: "
                + ", ".join(f"{name} {times[name][-1]:.0f}ms" for name in names))
    stats = {name: {"median_ms": round(statistics.median(values), 1), "min_ms": round(min(values), 1),
                    "max_ms": round(max(values), 1)} for name, values in times.items()}
    ratio = round(stats["candidate"]["median_ms"] / stats["baseline"]["median_ms"], 3)
    return {"runs": runs, "commands": COMMANDS, "timings": stats, "ratio": ratio, "error": None,
            "target": {"what": "median(import + first ask) / median(import fastapi, mangum, boto3 + one GetItem)",
                       "limit": TARGET_RATIO, "value": ratio, "met": ratio <= TARGET_RATIO}}
