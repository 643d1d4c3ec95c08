"""The real ingest ASL executed by moto, its Lambda tasks routed to the in-process worker handler.

The deployed wiring, in one process: RAGSPINE_BACKEND=aws with the facts and ingest tables
built from ``template.yaml``, the staging bucket, the S3 trigger handler recording operations
and starting executions, and moto's Step Functions interpreter running
``infra/statemachine/ingest.asl.json`` (Retry, Catch and Choice included, the waits skipped),
each Task calling ``functions/worker/app.py::handler``.
"""

from __future__ import annotations

import importlib
import json
import secrets
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock
from urllib.parse import quote_plus

import pytest

from ragspine.bootstrap import build_ingest_context, get_services
from ragspine.ingestion.operations import Operation
from ragspine.ingestion.steps import StepContext
from ragspine.settings import get_settings
from tests.support.cfn import REPO_ROOT, dynamodb_create_table_kwargs
from tests.support.process_caches import close_services

REGION = "us-east-1"
BUCKET = "ragspine-uploads-test"
FACTS_TABLE = "ragspine-facts-sfn"
INGEST_TABLE = "ragspine-ingest-sfn"
WORKER = "ragspine-worker"
ASL = REPO_ROOT / "infra" / "statemachine" / "ingest.asl.json"


class StateMachinePipeline:
    """``upload`` puts an object and builds its S3 event; ``trigger_and_wait`` runs it to the end."""

    def __init__(self, load_event: Callable[[str], dict[str, Any]], lambda_context: Any, state_machine: str) -> None:
        import boto3

        self.s3 = boto3.client("s3", region_name=REGION)
        self.sfn = boto3.client("stepfunctions", region_name=REGION)
        self.state_machine = state_machine
        self.worker_calls: list[dict[str, Any]] = []
        self.last_trigger: dict[str, Any] = {}
        self._load_event = load_event
        self._context = lambda_context
        self.trigger = importlib.import_module("functions.ingest_trigger.app")

    @property
    def context(self) -> StepContext:
        """The ingestion ports as the worker builds them (DynamoDB, S3)."""
        return build_ingest_context(get_services())

    def upload(self, key: str, body: bytes, metadata: dict[str, str] | None = None) -> dict[str, Any]:
        """Put the object (with user metadata) and return the S3 event S3 would send (key URL-encoded)."""
        etag = self.s3.put_object(Bucket=BUCKET, Key=key, Body=body, Metadata=metadata or {})["ETag"]
        event = self._load_event("ingest_trigger_object_created")
        record = event["Records"][0]["s3"]
        record["bucket"].update(name=BUCKET, arn=f"arn:aws:s3:::{BUCKET}")
        record["object"].update(key=quote_plus(key), size=len(body), eTag=etag.strip('"'))
        record["object"].pop("versionId", None)
        return event

    def trigger_and_wait(self, event: dict[str, Any]) -> Operation:
        """Run the trigger, wait for every execution to end, and return the operation."""
        result = self.trigger.handler(event, self._context)
        operation_id = result["operations"][0]["operation_id"]
        self.last_trigger = result
        for execution in self.executions():
            while self.sfn.describe_execution(executionArn=execution)["status"] == "RUNNING":
                time.sleep(0.02)
        operation = self.context.operations.get(operation_id)
        assert operation is not None
        return operation

    def executions(self) -> list[str]:
        """Execution ARNs of the state machine."""
        listed = self.sfn.list_executions(stateMachineArn=self.state_machine)["executions"]
        return [e["executionArn"] for e in listed]

    def staged_keys(self) -> list[str]:
        """Object keys under staging/ (step outputs not yet cleared)."""
        listed = self.s3.list_objects_v2(Bucket=BUCKET, Prefix="staging/")
        return [obj["Key"] for obj in listed.get("Contents", [])]


@contextmanager
def moto_ingest_pipeline(monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]],
                         lambda_context: Any, *, opensearch: str | None = None) -> Iterator[StateMachinePipeline]:
    """moto S3, DynamoDB and Step Functions wired like the stack; needs the ``settings`` fixture first.

    ``opensearch`` is the URL of a chunk index server (osmem-server); without it the stack has
    no chunk index, as a deployment without a search domain.
    """
    import boto3
    from moto import mock_aws
    from moto.awslambda.models import LambdaFunction
    from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_SESSION_TOKEN": "testing",
           "AWS_DEFAULT_REGION": REGION, "AWS_REGION": REGION, "RAGSPINE_BACKEND": "aws",
           "RAGSPINE_FACTS_TABLE": FACTS_TABLE, "RAGSPINE_INGEST_TABLE": INGEST_TABLE,
           "RAGSPINE_STAGING_BUCKET": BUCKET}
    if opensearch:
        env["RAGSPINE_OPENSEARCH_ENDPOINT"] = opensearch
        env["RAGSPINE_OPENSEARCH_INDEX"] = f"chunks-{secrets.token_hex(4)}"
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    close_services()
    worker = importlib.import_module("functions.worker.app")
    holder: list[StateMachinePipeline] = []

    def invoke(self: Any, body: Any, request_headers: Any, response_headers: dict[str, str]) -> bytes:
        assert self.function_name == WORKER
        event = json.loads(body) if body else {}
        holder[0].worker_calls.append(event)
        try:
            return json.dumps(worker.handler(event, lambda_context)).encode()
        except Exception as exc:  # the Lambda "Unhandled" error contract
            response_headers["x-amz-function-error"] = "Unhandled"
            return json.dumps({"errorType": type(exc).__name__, "errorMessage": str(exc)}).encode()

    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}), \
            mock.patch.object(LambdaFunction, "invoke", invoke), \
            mock.patch.object(retrier_decl, "time", types.SimpleNamespace(sleep=lambda s: None)):
        dynamodb = boto3.client("dynamodb", region_name=REGION)
        dynamodb.create_table(**dynamodb_create_table_kwargs("FactsTable", FACTS_TABLE))
        dynamodb.create_table(**dynamodb_create_table_kwargs("IngestTable", INGEST_TABLE))
        boto3.client("s3", region_name=REGION).create_bucket(Bucket=BUCKET)
        role = boto3.client("iam", region_name=REGION).create_role(
            RoleName="ingest", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
        function_arn = boto3.client("lambda", region_name=REGION).create_function(
            FunctionName=WORKER, Runtime="python3.12", Role=role, Handler="app.handler",
            Code={"ZipFile": b"PK\x05\x06" + b"\0" * 18})["FunctionArn"]
        definition = ASL.read_text(encoding="utf-8").replace("${WorkerFunctionArn}", function_arn)
        arn = boto3.client("stepfunctions", region_name=REGION).create_state_machine(
            name="ingest", definition=definition, roleArn=role)["stateMachineArn"]
        monkeypatch.setenv("RAGSPINE_INGEST_STATE_MACHINE_ARN", arn)
        holder.append(StateMachinePipeline(load_event, lambda_context, arn))
        try:
            yield holder[0]
        finally:
            get_settings.cache_clear()
            close_services()
