"""The real ingest ASL executed by moto, its Lambda tasks routed to the in-process worker handler.

The S3 trigger handler records the operation and starts the execution; moto's Step Functions
interpreter runs ``infra/statemachine/ingest.asl.json`` (Retry and Catch included, the waits
skipped) and each Task calls ``functions/worker/app.py::handler`` in this process.
"""

from __future__ import annotations

import importlib
import json
import time
import types
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock
from urllib.parse import quote_plus

import pytest

from ragspine.bootstrap import build_ingest_context, get_services
from ragspine.errors import ProviderUnavailableError
from ragspine.ingestion import steps
from ragspine.ingestion.errors import CorruptDocumentError
from ragspine.ingestion.operations import Operation, OperationStatus
from ragspine.ingestion.steps import Step
from ragspine.settings import Settings
from tests.support.cfn import REPO_ROOT

REGION = "us-east-1"
BUCKET = "ragspine-uploads-test"
KEY = "uploads/ACME Product Policy (2026).md"
WORKER = "ragspine-worker"
ASL = REPO_ROOT / "infra" / "statemachine" / "ingest.asl.json"
SAMPLE = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Product_Policy.md"


class Pipeline:
    """moto S3 + Step Functions with the real ASL; ``upload`` runs one S3 event through the trigger."""

    def __init__(self, load_event: Callable[[str], dict[str, Any]], lambda_context: Any) -> None:
        import boto3

        self.s3 = boto3.client("s3", region_name=REGION)
        self.sfn = boto3.client("stepfunctions", region_name=REGION)
        self._load_event = load_event
        self._context = lambda_context
        self.trigger = importlib.import_module("functions.ingest_trigger.app")
        self.worker_calls: list[dict[str, Any]] = []

    def upload(self, body: bytes) -> dict[str, Any]:
        """Put the object and build the S3 event moto/S3 would send (key URL-encoded)."""
        etag = self.s3.put_object(Bucket=BUCKET, Key=KEY, Body=body)["ETag"]
        event = self._load_event("ingest_trigger_object_created")
        record = event["Records"][0]["s3"]
        record["bucket"].update(name=BUCKET, arn=f"arn:aws:s3:::{BUCKET}")
        record["object"].update(key=quote_plus(KEY), size=len(body), eTag=etag.strip('"'))
        return event

    def trigger_and_wait(self, event: dict[str, Any]) -> Operation:
        result = self.trigger.handler(event, self._context)
        operation_id = result["operations"][0]["operation_id"]
        for execution in self.executions():
            while (status := self.sfn.describe_execution(executionArn=execution)["status"]) == "RUNNING":
                time.sleep(0.05)
            assert status in ("SUCCEEDED", "FAILED")
        operation = build_ingest_context(get_services()).operations.get(operation_id)
        assert operation is not None
        return operation

    def executions(self) -> list[str]:
        arn = self.trigger_state_machine
        return [e["executionArn"] for e in self.sfn.list_executions(stateMachineArn=arn)["executions"]]

    trigger_state_machine = ""


@pytest.fixture
def pipeline(settings: Settings, monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]],
             lambda_context: Any) -> Iterator[Pipeline]:
    import boto3
    from moto import mock_aws
    from moto.awslambda.models import LambdaFunction
    from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_SESSION_TOKEN": "testing", "AWS_DEFAULT_REGION": REGION, "AWS_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    worker = importlib.import_module("functions.worker.app")
    holder: dict[str, Pipeline] = {}

    def invoke(self: Any, body: Any, request_headers: Any, response_headers: dict[str, str]) -> bytes:
        assert self.function_name == WORKER
        event = json.loads(body) if body else {}
        holder["p"].worker_calls.append(event)
        try:
            return json.dumps(worker.handler(event, lambda_context)).encode()
        except Exception as exc:  # the Lambda "Unhandled" error contract
            response_headers["x-amz-function-error"] = "Unhandled"
            return json.dumps({"errorType": type(exc).__name__, "errorMessage": str(exc)}).encode()

    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}), \
            mock.patch.object(LambdaFunction, "invoke", invoke), \
            mock.patch.object(retrier_decl, "time", types.SimpleNamespace(sleep=lambda s: None)):
        role = boto3.client("iam", region_name=REGION).create_role(
            RoleName="ingest", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
        function_arn = boto3.client("lambda", region_name=REGION).create_function(
            FunctionName=WORKER, Runtime="python3.12", Role=role, Handler="app.handler",
            Code={"ZipFile": b"PK\x05\x06" + b"\0" * 18})["FunctionArn"]
        definition = ASL.read_text(encoding="utf-8").replace("${WorkerFunctionArn}", function_arn)
        p = holder["p"] = Pipeline(load_event, lambda_context)
        p.s3.create_bucket(Bucket=BUCKET)
        p.trigger_state_machine = p.sfn.create_state_machine(
            name="ingest", definition=definition, roleArn=role)["stateMachineArn"]
        monkeypatch.setenv("RAGSPINE_INGEST_STATE_MACHINE_ARN", p.trigger_state_machine)
        yield p


def _failing(times: int, exc: Exception, step: Step = Step.PARSE) -> Callable[..., Any]:
    real = steps.STEPS[step]
    calls = {"n": 0}

    def flaky(operation: Operation, context: Any) -> Any:
        calls["n"] += 1
        if calls["n"] <= times:
            raise exc
        return real(operation, context)

    return flaky


def _calls(p: Pipeline, step: str) -> int:
    return sum(1 for call in p.worker_calls if call.get("step") == step)


def test_an_upload_is_ingested_from_s3_to_succeeded(pipeline: Pipeline) -> None:
    operation = pipeline.trigger_and_wait(pipeline.upload(SAMPLE.read_bytes()))
    assert operation.status is OperationStatus.SUCCEEDED, operation.error
    assert operation.doc_id == "ACME Product Policy (2026).md"  # the URL-encoded key was decoded
    assert operation.source == f"s3://{BUCKET}/{KEY}"
    assert operation.file_hash.startswith("sha256:") and operation.retry_count == 0
    assert operation.started_at and operation.finished_at
    assert [c["step"] for c in pipeline.worker_calls] == [s.value for s in Step]


def test_a_step_failing_transiently_twice_then_succeeding_ends_succeeded_with_two_retries(
        pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(steps.STEPS, Step.PARSE, _failing(2, ProviderUnavailableError("parser pool busy")))
    operation = pipeline.trigger_and_wait(pipeline.upload(SAMPLE.read_bytes()))
    assert operation.status is OperationStatus.SUCCEEDED, operation.error
    assert operation.retry_count == 2 and operation.error is None
    assert _calls(pipeline, "parse") == 3


def test_six_transient_failures_end_failed_after_five_attempts(
        pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(steps.STEPS, Step.INDEX, _failing(6, ProviderUnavailableError("index unreachable"),
                                                          Step.INDEX))
    operation = pipeline.trigger_and_wait(pipeline.upload(SAMPLE.read_bytes()))
    assert operation.status is OperationStatus.FAILED
    assert _calls(pipeline, "index") == 5 and operation.retry_count == 4
    assert operation.error is not None and operation.error.retryable
    assert operation.error.code == "PROVIDER_UNAVAILABLE" or operation.error.code.endswith("UNAVAILABLE")
    assert _calls(pipeline, "mark_failed") == 1 and _calls(pipeline, "activate") == 0


def test_a_permanent_error_is_not_retried(pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(steps.STEPS, Step.PARSE, _failing(9, CorruptDocumentError("truncated file")))
    operation = pipeline.trigger_and_wait(pipeline.upload(SAMPLE.read_bytes()))
    assert operation.status is OperationStatus.FAILED and operation.retry_count == 0
    assert operation.error is not None and operation.error.code == "INGEST_CORRUPT_FILE"
    assert not operation.error.retryable
    assert _calls(pipeline, "parse") == 1


def test_an_s3_event_replay_creates_no_second_operation_or_execution(pipeline: Pipeline) -> None:
    event = pipeline.upload(SAMPLE.read_bytes())
    first = pipeline.trigger_and_wait(event)
    replay = pipeline.trigger_and_wait(json.loads(json.dumps(event)))
    assert replay.id == first.id and replay.status is OperationStatus.SUCCEEDED
    assert len(build_ingest_context(get_services()).operations.list_operations()) == 1
    assert len(pipeline.executions()) == 1
    assert _calls(pipeline, "fetch") == 1
