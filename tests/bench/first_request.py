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

Each child is timed three ways: its wall time; its CPU up to the response (``time.process_time`` as
the child's last statement: the interpreter's start, the imports and the request), which is what a
Lambda cold start pays, the process living on after its first response; and its whole CPU (user +
system, from ``getrusage`` of the reaped child), which adds the interpreter's shutdown: collections
and teardown of every module, which Lambda never pays on the way to a response. CPU is disturbed less
than the wall clock by other work on a shared machine. ``before`` adds the ask handler
of other checkouts (``git worktree add``) to the same interleaved rounds, so a change is measured
against the code it replaces under the same load.
"""

from __future__ import annotations

import os
import resource
import socket
import statistics
import subprocess
from contextlib import contextmanager
from time import perf_counter_ns
from typing import TYPE_CHECKING, Any

from lambda_env import TARGET_RATIO, child_env

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
# The last line of every child: its CPU so far (every thread), before the interpreter shuts down.
TO_RESPONSE = "\nimport time\nprint('cpu-to-response-ms', time.process_time() * 1000)"
COMMANDS = {
    "baseline": (
        "import fastapi, mangum, boto3\n"
        f"boto3.client('dynamodb').get_item(TableName={TABLE!r}, "
        "Key={'pk': {'S': 'ACME_JP#GROSS_MARGIN'}, 'sk': {'S': 'FY#2024#TOTAL'}})" + TO_RESPONSE),
    "candidate": (
        "import json, pathlib\n"
        "import functions.ask.app as app\n"
        "event = json.loads(pathlib.Path('events/ask_found.json').read_text(encoding='utf-8'))\n"
        "class Context:\n"
        "    function_name, memory_limit_in_mb, aws_request_id = 'ragspine-ask', 512, 'bench'\n"
        "    invoked_function_arn = 'arn:aws:lambda:us-east-1:123456789012:function:ragspine-ask'\n"
        "response = app.handler(event, Context())\n"
        "assert response['statusCode'] == 200 and '36.0' in response['body'], response" + TO_RESPONSE),
}
# What SnapStart would leave (it cannot run here): after the snapshot, a cold start resumes a process that
# imported the handler and ran its before-snapshot hook, and pays the first request. Each child times that
# part alone (CPU of this process, ``time.process_time``) and prints it: the primed handler's first ask,
# against the floor's first request, its DynamoDB client and one ``GetItem``.
AFTER_SNAPSHOT = {
    "floor_get_item": (
        "import time, fastapi, mangum, boto3\n"
        "began = time.process_time()\n"
        f"boto3.client('dynamodb').get_item(TableName={TABLE!r}, "
        "Key={'pk': {'S': 'ACME_JP#GROSS_MARGIN'}, 'sk': {'S': 'FY#2024#TOTAL'}})\n"
        "print((time.process_time() - began) * 1000)"),
    "primed_first_ask": (
        COMMANDS["candidate"]
        .replace("event = json.loads", "app.prime_before_snapshot()\nimport time\nevent = json.loads")
        .replace("response = app.handler", "began = time.process_time()\nresponse = app.handler")
        + "\nprint((time.process_time() - began) * 1000)"),
}


@contextmanager
def fact_table() -> Iterator[str]:
    """A moto server with the template's fact table holding the ACME sample facts; yields its URL."""
    import boto3
    from tests.support.cfn import dynamodb_create_table_kwargs
    from tests.support.moto_server import moto_server
    from tests.support.samples import load_sample_facts

    from ragspine.aws.dynamo_facts import DynamoFactStore

    with moto_server() as url:
        client = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                              aws_access_key_id="bench", aws_secret_access_key="bench")
        client.create_table(**dynamodb_create_table_kwargs("FactsTable", TABLE))
        load_sample_facts(DynamoFactStore(TABLE, client=client))
        boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id="bench",
                     aws_secret_access_key="bench").create_bucket(Bucket=DOMAIN_BUCKET)
        yield url


def _run(python: Path, code: str, *, cwd: Path, env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU milliseconds of one fresh interpreter running ``code``."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = perf_counter_ns()
    done = subprocess.run([str(python), "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = (perf_counter_ns() - began) / 1e6
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime + cpu_after.ru_stime - cpu_before.ru_stime) * 1000
    return wall, cpu, done


def _to_response_ms(done: subprocess.CompletedProcess[str]) -> float:
    """The child's CPU up to its response, as its ``TO_RESPONSE`` line printed it."""
    lines = [line for line in done.stdout.splitlines() if line.startswith("cpu-to-response-ms ")]
    return float(lines[-1].split()[1]) if done.returncode == 0 and lines else float("nan")


def _summary(values: list[float]) -> dict[str, Any]:
    return {"median_ms": round(statistics.median(values), 1), "min_ms": round(min(values), 1),
            "max_ms": round(max(values), 1), "runs": [round(v, 1) for v in values]}


def _ratio(stats: dict[str, dict[str, Any]], name: str, measure: str) -> float:
    return round(float(stats[name][measure]["median_ms"]) / float(stats["baseline"][measure]["median_ms"]), 3)


def run_first_request(python: Path, *, cwd: Path, runs: int, log: Callable[[str], None],
                      before: dict[str, Path] | None = None) -> dict[str, Any]:
    """Median wall and CPU time of each command over ``runs`` interleaved rounds, after one warm-up each.

    ``before`` names other checkouts whose ask handler runs in the same rounds (as ``before:<name>``).
    """
    # (name, code, checkout): every handler is imported from its own checkout's ``shared`` folder.
    plan = [("baseline", COMMANDS["baseline"], cwd), ("candidate", COMMANDS["candidate"], cwd)]
    plan += [(f"before:{name}", COMMANDS["candidate"], folder) for name, folder in (before or {}).items()]
    load = [round(v, 2) for v in os.getloadavg()]
    with fact_table() as url, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as daemon:
        daemon.bind(("127.0.0.1", 0))  # where the tracer sends its segments (read by nobody, as UDP allows)
        base_env = {**child_env(), **CREDENTIALS, **LAMBDA_RUNTIME, "AWS_ENDPOINT_URL": url,
                    "RAGSPINE_FACTS_TABLE": TABLE, "AWS_XRAY_DAEMON_ADDRESS": f"127.0.0.1:{daemon.getsockname()[1]}"}
        envs = {name: {**base_env, "LAMBDA_TASK_ROOT": str(folder), "PYTHONPATH": str(folder / "shared")}
                for name, _code, folder in plan}
        for name, code, folder in plan:
            _wall, _cpu, done = _run(python, code, cwd=folder, env=envs[name])
            if done.returncode != 0:
                return {"runs": runs, "commands": COMMANDS, "error": {
                    "command": name, "returncode": done.returncode, "stderr": done.stderr[-4000:]}}
        wall: dict[str, list[float]] = {name: [] for name, _code, _folder in plan}
        cpu: dict[str, list[float]] = {name: [] for name, _code, _folder in plan}
        to_response: dict[str, list[float]] = {name: [] for name, _code, _folder in plan}
        inner: dict[str, list[float]] = {name: [] for name in AFTER_SNAPSHOT}
        for round_no in range(runs):
            # Rotate the order each round so no command always runs right after the same one.
            order = plan[round_no % len(plan):] + plan[:round_no % len(plan)]
            for name, code, folder in order:
                ms, cpu_ms, done = _run(python, code, cwd=folder, env=envs[name])
                wall[name].append(ms)
                cpu[name].append(cpu_ms)
                to_response[name].append(_to_response_ms(done))
            for name, code in AFTER_SNAPSHOT.items():
                _wall, _cpu, done = _run(python, code, cwd=cwd, env=envs["candidate"])
                inner[name].append(float(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else float("nan"))
            log(f"  first-request round {round_no + 1}/{runs}: "
                + ", ".join(f"{name} {wall[name][-1]:.0f}ms wall {to_response[name][-1]:.0f}ms cpu to response "
                            f"{cpu[name][-1]:.0f}ms cpu" for name in wall))
    load += [round(v, 2) for v in os.getloadavg()]
    stats = {name: {"wall": _summary(wall[name]), "cpu_to_response": _summary(to_response[name]),
                    "cpu": _summary(cpu[name])} for name in wall}
    ratios = {name: {measure: _ratio(stats, name, measure) for measure in ("wall", "cpu_to_response", "cpu")}
              for name in stats if name != "baseline"}
    ratio = ratios["candidate"]["cpu_to_response"]
    # Each round runs every command once under the same load: the median of the per-round differences
    # says more about a change than the difference of medians when the load moves between rounds.
    measured = {"wall": wall, "cpu_to_response": to_response, "cpu": cpu}
    saved = {name: {measure: round(statistics.median(b - c for b, c in zip(values[name], values["candidate"], strict=True)), 1)
                    for measure, values in measured.items()}
             for name in stats if name.startswith("before:")}
    after = {name: _summary(values) for name, values in inner.items()}
    after_snapshot = {"cpu_ms": after, "ratio": round(after["primed_first_ask"]["median_ms"]
                                                     / after["floor_get_item"]["median_ms"], 3)}
    return {"runs": runs, "commands": COMMANDS, "timings": stats, "ratios": ratios, "ratio": ratio, "error": None,
            "after_snapshot": after_snapshot,
            "candidate_saves_ms": saved,
            "load_average": {"start_1_5_15": load[:3], "end_1_5_15": load[3:]},
            "before": {name: str(folder) for name, folder in (before or {}).items()},
            "target": {"what": "median CPU up to the response of (import + first ask) / the same of "
                               "(import fastapi, mangum, boto3 + one GetItem)",
                       "limit": TARGET_RATIO, "value": ratio, "met": ratio <= TARGET_RATIO}}
