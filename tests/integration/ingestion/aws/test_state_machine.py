"""What only the deployed wiring shows: S3 keys, shared state in DynamoDB and S3, one execution per upload.

The runner-independent behaviour (retries, failures, replays, cancellation, versions) is in
``tests/integration/ingestion/runners``, which runs the same suite on this state machine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ragspine.ingestion.operations import OperationStatus
from ragspine.ingestion.steps import Step
from ragspine.sensitivity import Sensitivity
from ragspine.settings import Settings
from tests.support.cfn import REPO_ROOT
from tests.support.state_machine import BUCKET, StateMachinePipeline, moto_ingest_pipeline

KEY = "uploads/ACME Product Policy (2026).md"
SAMPLE = REPO_ROOT / "shared" / "ragspine" / "samples" / "acme" / "ACME_Product_Policy.md"


@pytest.fixture
def pipeline(settings: Settings, monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]],
             lambda_context: Any) -> Iterator[StateMachinePipeline]:
    with moto_ingest_pipeline(monkeypatch, load_event, lambda_context) as pipeline:
        yield pipeline


def _calls(p: StateMachinePipeline, step: str) -> int:
    return sum(1 for call in p.worker_calls if call.get("step") == step)


def test_an_upload_is_ingested_from_s3_to_succeeded(pipeline: StateMachinePipeline) -> None:
    operation = pipeline.trigger_and_wait(pipeline.upload(KEY, SAMPLE.read_bytes()))
    assert operation.status is OperationStatus.SUCCEEDED, operation.error
    assert operation.doc_id == "ACME Product Policy (2026).md"  # the URL-encoded key was decoded
    assert operation.source == f"s3://{BUCKET}/{KEY}"
    assert operation.file_hash.startswith("sha256:") and operation.retry_count == 0
    assert [c["step"] for c in pipeline.worker_calls] == [s.value for s in Step]
    status = pipeline.sfn.describe_execution(executionArn=pipeline.executions()[0])["status"]
    assert status == "SUCCEEDED"


def test_trigger_and_workers_share_the_operation_through_dynamodb_and_clear_staging(
        pipeline: StateMachinePipeline) -> None:
    operation = pipeline.trigger_and_wait(pipeline.upload(KEY, SAMPLE.read_bytes()))
    stored = pipeline.context.operations.list_operations(doc_id=operation.doc_id)
    assert [op.id for op in stored] == [operation.id] and stored[0].status is OperationStatus.SUCCEEDED
    assert pipeline.staged_keys() == []  # step outputs went to S3 and were removed after activation
    active = pipeline.context.staging.active(operation.doc_id)
    assert [(v.version_id, v.operation_id) for v in active] == [(operation.version_id, operation.id)]


def test_a_permanent_failure_ends_the_execution_failed_through_the_choice_state(
        pipeline: StateMachinePipeline) -> None:
    operation = pipeline.trigger_and_wait(pipeline.upload("uploads/empty.md", b""))
    assert operation.status is OperationStatus.FAILED and operation.error is not None
    assert operation.error.code == "INGEST_EMPTY" and not operation.error.retryable
    assert _calls(pipeline, "mark_failed") == 0  # returned as a failed outcome, not raised to the Catch
    history = pipeline.sfn.get_execution_history(executionArn=pipeline.executions()[0])["events"]
    failed = [e for e in history if e["type"] == "ExecutionFailed"]
    assert failed and failed[0]["executionFailedEventDetails"]["error"] == "IngestionFailed"


def test_an_s3_event_replay_starts_no_second_execution(pipeline: StateMachinePipeline) -> None:
    event = pipeline.upload(KEY, SAMPLE.read_bytes())
    first = pipeline.trigger_and_wait(event)
    replay = pipeline.trigger_and_wait(json.loads(json.dumps(event)))
    assert replay.id == first.id and replay.status is OperationStatus.SUCCEEDED
    assert len(pipeline.executions()) == 1 and _calls(pipeline, "fetch") == 1


def test_a_worker_crash_outside_a_step_is_marked_failed_by_the_catch(
        pipeline: StateMachinePipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    import functions.worker.app as worker

    real = worker.handle_step

    def crash_on_parse(payload: dict[str, Any], **kwargs: Any) -> Any:
        if payload["step"] == "parse":
            raise MemoryError("Runtime exited with error: signal: killed")  # as a Lambda out of memory reports
        return real(payload, **kwargs)

    monkeypatch.setattr(worker, "handle_step", crash_on_parse)
    operation = pipeline.trigger_and_wait(pipeline.upload(KEY, SAMPLE.read_bytes()))
    assert operation.status is OperationStatus.FAILED and operation.error is not None
    assert operation.error.code == "INGEST_INTERNAL_ERROR" and "MemoryError" in operation.error.message
    assert _calls(pipeline, "parse") == 1 and _calls(pipeline, "mark_failed") == 1


def test_object_metadata_sets_sensitivity_and_library(pipeline: StateMachinePipeline) -> None:
    event = pipeline.upload("uploads/minutes.md", SAMPLE.read_bytes(),
                            metadata={"sensitivity": "restricted", "library": "board"})
    operation = pipeline.trigger_and_wait(event)
    assert operation.status is OperationStatus.SUCCEEDED, operation.error
    assert operation.sensitivity is Sensitivity.RESTRICTED and operation.library == "board"


def test_an_unknown_sensitivity_fails_the_upload_before_anything_is_read(pipeline: StateMachinePipeline) -> None:
    operation = pipeline.trigger_and_wait(pipeline.upload("uploads/minutes.md", SAMPLE.read_bytes(),
                                                          metadata={"sensitivity": "top-secret"}))
    assert operation.status is OperationStatus.FAILED and operation.error is not None
    assert operation.error.code == "INGEST_INVALID_METADATA" and "top-secret" in operation.error.message
    assert not operation.error.retryable and _calls(pipeline, "parse") == 0


@pytest.fixture
def osmem() -> Iterator[str]:
    pytest.importorskip("osmem_server", reason="osmem-server (PyPI) stands in for the OpenSearch domain")
    from osmem_server import OsmemServer

    server = OsmemServer.start(addr="127.0.0.1:0")
    yield str(server.url)
    server.close()


def test_uploads_reach_opensearch_and_a_new_version_retires_the_old_chunks(
        settings: Settings, monkeypatch: pytest.MonkeyPatch, load_event: Callable[[str], dict[str, Any]],
        lambda_context: Any, osmem: str) -> None:
    from ragspine.bootstrap import get_services
    from ragspine.retrieval.model import SearchFilters

    key = "uploads/policy.md"
    with moto_ingest_pipeline(monkeypatch, load_event, lambda_context, opensearch=osmem) as pipeline:
        first = pipeline.trigger_and_wait(pipeline.upload(key, SAMPLE.read_bytes()))
        assert first.status is OperationStatus.SUCCEEDED, first.error
        assert first.chunks_count > 0 and not any("index" in w for w in first.warnings)  # created on first use
        index = get_services().retrieval.index  # type: ignore[union-attr]
        hits = index.search("return policy", top_k=50, filters=SearchFilters())
        assert hits and {h.chunk.version_id for h in hits} == {first.version_id}

        edited = SAMPLE.read_bytes() + b"\n\n## Gift cards\n\nGift cards never expire.\n"
        second = pipeline.trigger_and_wait(pipeline.upload(key, edited))
        assert second.status is OperationStatus.SUCCEEDED, second.error
        hits = index.search("gift cards never expire", top_k=50, filters=SearchFilters())
        assert hits and {h.chunk.version_id for h in hits} == {second.version_id}
        every = index.search("return policy refund exchange", top_k=50, filters=SearchFilters(doc_ids=("policy.md",)))
        assert every and {h.chunk.version_id for h in every} == {second.version_id}  # the old version is retired


def test_a_retryable_failure_is_retried_as_a_new_execution(pipeline: StateMachinePipeline,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from typer.testing import CliRunner

    from ragspine.cli import app
    from ragspine.errors import ProviderUnavailableError
    from ragspine.ingestion import steps

    real = steps.STEPS[Step.CHECK_INDEX]

    def down(*_: object) -> object:
        raise ProviderUnavailableError("index unreachable")

    # GIVEN an upload that failed because the index stayed down through every retry
    monkeypatch.setitem(steps.STEPS, Step.CHECK_INDEX, down)
    failed = pipeline.trigger_and_wait(pipeline.upload(KEY, SAMPLE.read_bytes()))
    assert failed.status is OperationStatus.FAILED and failed.error is not None and failed.error.retryable
    # WHEN the index is back and the operation is retried
    monkeypatch.setitem(steps.STEPS, Step.CHECK_INDEX, real)
    result = CliRunner().invoke(app, ["operations", "retry", failed.id])
    assert result.exit_code == 0, result.output
    executions = pipeline.executions()
    assert len(executions) == 2  # a second execution of the same operation, under its own name
    while any(pipeline.sfn.describe_execution(executionArn=e)["status"] == "RUNNING" for e in executions):
        time.sleep(0.02)
    # THEN the same operation ends SUCCEEDED
    done = pipeline.context.operations.get(failed.id)
    assert done is not None and done.status is OperationStatus.SUCCEEDED and done.error is None
