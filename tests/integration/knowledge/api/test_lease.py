"""A runner killed mid-operation (a real process, kill -9) does not leave the operation RUNNING for ever."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import timedelta

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.knowledge.gateway import utcnow
from tests.support.cfn import REPO_ROOT
from tests.support.knowledge_api import Gateway

# Runs one operation like the worker thread does, but in its own process, and hangs inside parse.
_RUNNER = """
import sys, time
from ragspine.bootstrap import build_ingest_context, get_services
from ragspine.ingestion.runner import InProcessRunner
from ragspine.ingestion.steps import STEPS, Step

def hang(operation, context):
    print("in parse", flush=True)
    time.sleep(600)

InProcessRunner(steps={**STEPS, Step.PARSE: hang}).run(sys.argv[1], context=build_ingest_context(get_services()))
"""


class _Elsewhere:
    """The run starts in another process (the test's), not in this one's worker thread."""

    def start(self, operation_id: str) -> None:
        self.started = operation_id


def test_a_killed_runner_is_failed_as_retryable_after_its_lease_then_retried(gateway: Gateway) -> None:
    gw = get_knowledge_gateway()
    local, elsewhere = gw.launcher, _Elsewhere()
    gw.launcher = elsewhere
    change = gateway.upload(gateway.create_space()["knowledgeSpaceId"])
    process = subprocess.Popen([sys.executable, "-c", _RUNNER, change["operationId"]], cwd=REPO_ROOT,
                               stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "in parse"
        running = gateway.operation(change["operationId"])
        assert running["status"] == "RUNNING" and running["progress"]["source"] == "PIPELINE_STEPS"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
    assert gateway.operation(change["operationId"])["status"] == "RUNNING"  # within its lease it may still run
    gw.clock = lambda: utcnow() + timedelta(seconds=gw.config.lease_s + 1)  # the lease runs out
    lost = gateway.operation(change["operationId"])
    assert (lost["status"], lost["retryable"], lost["error"]["code"]) == ("FAILED", True, "INGEST_RUNNER_LOST")
    gw.clock, gw.launcher = utcnow, local
    child = gateway.ok("POST", f"/operations/{change['operationId']}:retry", {"reason": "runner was killed"})
    gateway.settle()
    assert gateway.operation(child["operationId"])["status"] == "SUCCEEDED"
    assert gateway.document(change["documentId"])["status"] == "ACTIVE"
